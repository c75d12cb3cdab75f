/**
 * The embedded store's delivery queue leases: which events with a delivery still to make a
 * dispatcher holds, and until when. One process serves a data dir, so the leases live in memory
 * only; a restart starts with none held and the pending events are claimed again.
 */
import type { EventRecord } from '../run-log.js'

export class DeliveryLeases {
  /** Event id → epoch ms its lease ends. */
  private readonly until = new Map<string, number>()

  /** The events of `lists` with a pending delivery and no live lease (of `eventIds`, if given), leased. */
  claim(lists: Iterable<EventRecord[]>, leaseMs: number, eventIds?: string[]): EventRecord[] {
    const now = Date.now()
    const wanted = eventIds && new Set(eventIds)
    const out: EventRecord[] = []
    for (const list of lists)
      for (const e of list) {
        if (wanted && !wanted.has(e.id)) continue
        if (!e.deliveries.some((d) => d.status === 'pending')) {
          this.until.delete(e.id)
          continue
        }
        if ((this.until.get(e.id) ?? 0) > now) continue
        this.until.set(e.id, now + leaseMs)
        out.push(e)
      }
    return out.sort((a, b) => (a.id < b.id ? -1 : 1))
  }

  release(eventIds: string[]): void {
    for (const id of eventIds) this.until.delete(id)
  }
}
