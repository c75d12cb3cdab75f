/**
 * Alert dispatch: sends the alerts of raised events to their channels once this instance holds
 * the events' delivery lease, sweeps alerts nobody is sending, and drains on stop. Holds its own
 * state (deliveries in flight, leases not yet finished); the monitor service hands it events.
 */
import type { Delivery, WebhookPayload } from '../../contract/monitors.js'
import type { EventRecord } from '../../store/run-log.js'
import type { MonitorDefinitionStore, MonitorRecord } from '../../store/monitors.js'
import type { DeliveryQueueStore } from '../../store/delivery-queue.js'
import type { Deliverer } from '../channels/deliver.js'
import { DeliveryRecorder, type DeliveryRecorderOptions } from './recorder.js'

export interface AlertDispatcherOptions {
  monitors: MonitorDefinitionStore & DeliveryQueueStore
  deliverer: Deliverer
  log?: (line: string) => void
  /** How long a delivery lease lasts, ms (default: the longest delivery plus 60 s; tests shorten it). */
  leaseMs?: number
  /** Back-off of outcome writes that fail (recorder.ts). */
  recorder?: Omit<DeliveryRecorderOptions, 'log'>
}

/** Hears of every event a run or a beat raised (once saved), channels or not. */
export type RaisedListener = (m: MonitorRecord, events: EventRecord[]) => void

export class AlertDispatcher {
  private readonly deliveries = new Set<Promise<unknown>>()
  private readonly listeners = new Set<RaisedListener>()
  /** Events whose alerts this instance holds the delivery lease of and has not finished sending. */
  private readonly unfinished = new Set<string>()
  /** How long a delivery lease lasts: longer than any delivery with all its retries. */
  private readonly leaseMs: number
  /** Writes outcomes, retrying while the store is down (docs/decisions.md#faults). */
  private readonly recorder: DeliveryRecorder

  constructor(private readonly o: AlertDispatcherOptions) {
    this.leaseMs = o.leaseMs ?? o.deliverer.maxDurationMs() + 60_000
    this.recorder = new DeliveryRecorder(o.monitors, { ...o.recorder, log: o.log })
  }

  /** Adds a listener of raised events (status pages open draft incidents through it). */
  onRaised(listener: RaisedListener): void {
    this.listeners.add(listener)
  }

  /** Sends the alerts of events just raised, once this instance holds their delivery lease. */
  dispatch(m: MonitorRecord, events: EventRecord[]): void {
    for (const listen of this.listeners) {
      try {
        listen(m, events)
      } catch (err) {
        this.o.log?.(`event listener: ${(err as Error).message}`)
      }
    }
    const pending = events.filter((e) => e.deliveries.some((d) => d.status === 'pending'))
    if (pending.length === 0) return
    this.track(
      this.o.monitors
        .claimDeliveries(
          this.leaseMs,
          pending.map((e) => e.id),
        )
        .then((claimed) => this.send(m, claimed)),
    )
  }

  private send(m: MonitorRecord, events: EventRecord[]): void {
    for (const e of events) {
      // already ours: being sent, or its outcome waits to be written (a sweep took the lease again)
      if (this.unfinished.has(e.id) || this.recorder.holds(e.id)) continue
      const payload: WebhookPayload = {
        event: e.event,
        occurred_at: e.occurred_at,
        monitor: { id: m.id, name: m.name, url: m.url },
        check: e.check,
        previous_state: e.previous_state,
        state: e.state,
        message: e.message,
      }
      this.unfinished.add(e.id)
      let recorded = true
      const record = async (d: Delivery) => {
        if (!(await this.recorder.record(m.id, e.id, d))) recorded = false
      }
      const sends: Promise<unknown>[] = []
      for (const d of e.deliveries) {
        if (d.status !== 'pending') continue
        const channel = m.channels.find((c) => c.id === d.channel_id)
        sends.push(
          channel
            ? this.o.deliverer.deliver(channel, payload, d, record)
            : record({
                ...d,
                status: 'failed',
                last_error: 'The channel was removed before the alert could be delivered.',
              }),
        )
      }
      this.track(
        Promise.all(sends).then((done) => {
          // a stop cut retries (or the outcome's write) short: the lease stays ours until
          // drain() gives it back, and the next start sends what is still pending
          if (recorded && !done.some((d) => (d as Delivery | undefined)?.status === 'pending'))
            this.unfinished.delete(e.id)
        }),
        e.id,
      )
    }
  }

  private track(work: Promise<unknown>, eventId?: string): void {
    const tracked = work.catch((err) =>
      this.o.log?.(`delivery${eventId ? ` ${eventId}` : ''}: ${(err as Error).message}`),
    )
    this.deliveries.add(tracked)
    void tracked.finally(() => this.deliveries.delete(tracked))
  }

  /**
   * Sends the alerts nobody is sending: those left pending by a stop (at start), and, with a
   * shared database, those whose instance died (its lease expired).
   */
  async sweep(): Promise<void> {
    const claimed = await this.o.monitors.claimDeliveries(this.leaseMs)
    const byMonitor = new Map<string, EventRecord[]>()
    for (const e of claimed) byMonitor.set(e.monitor_id, [...(byMonitor.get(e.monitor_id) ?? []), e])
    for (const [id, events] of byMonitor) {
      const m = await this.o.monitors.getMonitorById(id)
      if (m) this.send(m, events)
      else await this.o.monitors.releaseDeliveries(events.map((e) => e.id))
    }
  }

  /** Waits for deliveries in progress (the deliverer must be closed first to cut retries short). */
  async drain(): Promise<void> {
    // outcomes the store has not taken yet get one last try, not an endless wait
    await this.recorder.stop()
    while (this.deliveries.size > 0) await Promise.allSettled([...this.deliveries])
    // alerts a stop left unsent: give their leases back so the next start (or another
    // instance) sends them without waiting for the lease to run out
    await this.o.monitors.releaseDeliveries([...this.unfinished]).catch(() => {})
    this.unfinished.clear()
  }
}
