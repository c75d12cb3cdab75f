/**
 * A monitor's incidents on the embedded store, packed (issue 23): a 60 s monitor with an outage
 * every three days keeps ~130 of them for 400 days, and as objects (five strings each) they took
 * ~330 bytes apiece, 400 MB at 10,000 monitors. Here an incident is its id as four 32-bit words,
 * its start and end as epoch ms, its cause and location shared through the store's string table:
 * ~60 bytes.
 * A list holding an incident that does not fit (an id that is not a lowercase UUID, a time not in
 * `toISOString`'s form) keeps its records as they came instead, so what is read is what was added.
 */
import type { IncidentRecord } from '../history.js'
import { getUuid, isIso, isoMs, isUuid, putUuid, type SharedStrings } from './run-ring.js'

export class IncidentList {
  private n = 0
  private ids = new Uint32Array(0)
  /** started_at, ended_at (NaN: still open) of each, in epoch ms. */
  private times = new Float64Array(0)
  private causes: string[] = []
  private locations: string[] = []
  /** The records as they came, once one did not fit. */
  private plain: IncidentRecord[] | undefined

  constructor(
    readonly monitorId: string,
    private readonly shared: SharedStrings,
  ) {}

  get length(): number {
    return this.plain?.length ?? this.n
  }

  private fits(i: IncidentRecord): boolean {
    return (
      Object.keys(i).join() === 'id,monitor_id,location,started_at,ended_at,cause' &&
      typeof i.location === 'string' &&
      i.monitor_id === this.monitorId &&
      isUuid(i.id) &&
      isIso(i.started_at) &&
      (i.ended_at === null || isIso(i.ended_at)) &&
      typeof i.cause === 'string'
    )
  }

  push(i: IncidentRecord): void {
    if (!this.plain && !this.fits(i)) this.toPlain()
    if (this.plain) {
      this.plain.push({ ...i })
      return
    }
    if (this.n * 2 >= this.times.length) {
      const slots = Math.max(4, this.n * 2)
      const ids = new Uint32Array(slots * 4)
      ids.set(this.ids)
      const times = new Float64Array(slots * 2)
      times.set(this.times)
      this.ids = ids
      this.times = times
    }
    putUuid(this.ids, this.n * 4, i.id)
    this.times[this.n * 2] = isoMs(i.started_at)
    this.times[this.n * 2 + 1] = i.ended_at === null ? NaN : isoMs(i.ended_at)
    this.causes[this.n] = this.shared.hold(i.cause)
    this.locations[this.n] = this.shared.hold(i.location)
    this.n++
  }

  private at(k: number): IncidentRecord {
    const end = this.times[k * 2 + 1]
    return {
      id: getUuid(this.ids, k * 4),
      monitor_id: this.monitorId,
      location: this.locations[k],
      started_at: new Date(this.times[k * 2]).toISOString(),
      ended_at: Number.isNaN(end) ? null : new Date(end).toISOString(),
      cause: this.causes[k],
    }
  }

  /** True while one is open (not ended). */
  hasOpen(): boolean {
    if (this.plain) return this.plain.some((i) => i.ended_at === null)
    for (let k = 0; k < this.n; k++) if (Number.isNaN(this.times[k * 2 + 1])) return true
    return false
  }

  /** Ends the open one at `endedAt` (an ISO time). */
  close(endedAt: string): void {
    if (!this.plain && !isIso(endedAt)) this.toPlain()
    if (this.plain) {
      const open = this.plain.find((i) => i.ended_at === null)
      if (open) open.ended_at = endedAt
      return
    }
    for (let k = 0; k < this.n; k++)
      if (Number.isNaN(this.times[k * 2 + 1])) {
        this.times[k * 2 + 1] = isoMs(endedAt)
        return
      }
  }

  /** Drops those that ended before `ms`; returns how many. */
  pruneBefore(ms: number): number {
    if (this.plain) {
      const before = this.plain.length
      this.plain = this.plain.filter((i) => i.ended_at === null || Date.parse(i.ended_at) >= ms)
      return before - this.plain.length
    }
    let kept = 0
    for (let k = 0; k < this.n; k++) {
      const end = this.times[k * 2 + 1]
      if (end < ms) {
        this.shared.release(this.causes[k])
        this.shared.release(this.locations[k])
        continue
      }
      if (kept !== k) {
        this.ids.copyWithin(kept * 4, k * 4, k * 4 + 4)
        this.times.copyWithin(kept * 2, k * 2, k * 2 + 2)
        this.causes[kept] = this.causes[k]
        this.locations[kept] = this.locations[k]
      }
      kept++
    }
    const removed = this.n - kept
    this.causes.length = kept
    this.locations.length = kept
    this.n = kept
    return removed
  }

  /** Copies of those open or ended at or after `sinceMs`, oldest first. */
  since(sinceMs: number): IncidentRecord[] {
    if (this.plain)
      return this.plain
        .filter((i) => i.ended_at === null || Date.parse(i.ended_at) >= sinceMs)
        .map((i) => ({ ...i }))
    const out: IncidentRecord[] = []
    for (let k = 0; k < this.n; k++) {
      const end = this.times[k * 2 + 1]
      if (Number.isNaN(end) || end >= sinceMs) out.push(this.at(k))
    }
    return out
  }

  /** Copies of all, oldest first. */
  all(): IncidentRecord[] {
    return this.since(-Infinity)
  }

  /** Keeps records as they come from now on. */
  private toPlain(): void {
    const all = this.all()
    this.release()
    this.plain = all
  }

  /** Lets go of the shared strings (the monitor is deleted). */
  release(): void {
    for (let k = 0; k < this.n; k++) {
      this.shared.release(this.causes[k])
      this.shared.release(this.locations[k])
    }
    this.n = 0
    this.causes = []
    this.locations = []
  }
}
