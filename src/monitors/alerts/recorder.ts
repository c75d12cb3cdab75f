/**
 * Writing delivery outcomes to the store so that they stay written (docs/decisions.md#faults): a
 * write that fails (the database is down, the disk full) is retried with back-off until the
 * store takes it, while the dispatcher keeps the event's delivery lease. An alert whose outcome
 * could not be saved is therefore neither lost (the event stays pending in the store until its
 * outcome is there) nor sent again by a sweep meanwhile (the lease is held, and the dispatcher
 * does not send an event it is still recording). Only a stop during the outage leaves the
 * outcome unwritten: the event is then sent again after the restart (at least once).
 */
import type { Delivery } from '../../contract/monitors.js'
import type { DeliveryQueueStore } from '../../store/delivery-queue.js'

export interface DeliveryRecorderOptions {
  /** First wait after a failed write, ms (default 500); doubled up to `maxBackoffMs`. */
  minBackoffMs?: number
  /** Longest wait between tries, ms (default 5000). */
  maxBackoffMs?: number
  log?: (line: string) => void
}

interface Pending {
  monitorId: string
  eventId: string
  delivery: Delivery
}

export class DeliveryRecorder {
  /** The newest outcome of each delivery not yet on record, by `<event id>:<channel id>`. */
  private readonly latest = new Map<string, Pending>()
  private readonly writers = new Map<string, Promise<boolean>>()
  private readonly sleepers = new Set<() => void>()
  private stopping = false

  constructor(
    private readonly monitors: Pick<DeliveryQueueStore, 'updateDelivery'>,
    private readonly o: DeliveryRecorderOptions = {},
  ) {}

  /**
   * Records `delivery`, retrying until the store takes it (or a newer outcome of the same
   * delivery); resolves true then, false when the recorder stopped first. Never rejects.
   */
  record(monitorId: string, eventId: string, delivery: Delivery): Promise<boolean> {
    const key = `${eventId}:${delivery.channel_id}`
    this.latest.set(key, { monitorId, eventId, delivery })
    let writer = this.writers.get(key)
    if (!writer) {
      writer = this.write(key).finally(() => this.writers.delete(key))
      this.writers.set(key, writer)
    }
    return writer
  }

  /** Whether an outcome of this event is still waiting to be written. */
  holds(eventId: string): boolean {
    for (const p of this.latest.values()) if (p.eventId === eventId) return true
    return false
  }

  /** Stops retrying: every writer makes at most one more try, then gives up. */
  async stop(): Promise<void> {
    this.stopping = true
    for (const wake of this.sleepers) wake()
    await Promise.allSettled([...this.writers.values()])
  }

  private async write(key: string): Promise<boolean> {
    let failures = 0
    for (;;) {
      const cur = this.latest.get(key)
      if (!cur) return true
      try {
        await this.monitors.updateDelivery(cur.monitorId, cur.eventId, cur.delivery)
        if (this.latest.get(key) !== cur) continue // a newer outcome came meanwhile: write it too
        this.latest.delete(key)
        if (failures > 0)
          this.o.log?.(`delivery ${cur.eventId}: outcome recorded after ${failures} failed writes`)
        return true
      } catch (err) {
        failures++
        if (failures === 1)
          this.o.log?.(
            `delivery ${cur.eventId}: outcome could not be recorded (${String((err as Error)?.message ?? err).split('\n')[0]}); retrying, the alert is not sent again meanwhile`,
          )
        if (this.stopping) {
          this.latest.delete(key)
          return false
        }
        await this.sleep(this.backoff(failures))
      }
    }
  }

  private backoff(failures: number): number {
    const min = this.o.minBackoffMs ?? 500
    const max = this.o.maxBackoffMs ?? 5000
    const base = Math.min(max, min * 2 ** Math.min(failures - 1, 20))
    return Math.round(base * (0.75 + Math.random() * 0.5))
  }

  private sleep(ms: number): Promise<void> {
    if (this.stopping) return Promise.resolve()
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer)
        this.sleepers.delete(wake)
        resolve()
      }
      const timer = setTimeout(wake, ms)
      this.sleepers.add(wake)
    })
  }
}
