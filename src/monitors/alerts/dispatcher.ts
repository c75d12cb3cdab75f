/**
 * Alert dispatch: sends the alerts of raised events to their channels once this instance holds
 * the events' delivery lease, sweeps alerts nobody is sending, and drains on stop. Holds its own
 * state (deliveries in flight, leases not yet finished); the monitor service hands it events.
 */
import type { Delivery, WebhookPayload } from '../../contract/monitors.js'
import type { EventRecord, MonitorRecord, MonitorStore } from '../../store/monitors.js'
import type { Deliverer } from '../channels/deliver.js'

export interface AlertDispatcherOptions {
  monitors: MonitorStore
  deliverer: Deliverer
  log?: (line: string) => void
}

export class AlertDispatcher {
  private readonly deliveries = new Set<Promise<unknown>>()
  /** Events whose alerts this instance holds the delivery lease of and has not finished sending. */
  private readonly unfinished = new Set<string>()
  /** How long a delivery lease lasts: longer than any delivery with all its retries. */
  private readonly leaseMs: number

  constructor(private readonly o: AlertDispatcherOptions) {
    this.leaseMs = o.deliverer.maxDurationMs() + 60_000
  }

  /** Sends the alerts of events just raised, once this instance holds their delivery lease. */
  dispatch(m: MonitorRecord, events: EventRecord[]): void {
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
      const sends: Promise<unknown>[] = []
      for (const d of e.deliveries) {
        if (d.status !== 'pending') continue
        const channel = m.channels.find((c) => c.id === d.channel_id)
        sends.push(
          channel
            ? this.o.deliverer.deliver(channel, payload, d, (nd) =>
                this.o.monitors.updateDelivery(m.id, e.id, nd),
              )
            : this.o.monitors.updateDelivery(m.id, e.id, {
                ...d,
                status: 'failed',
                last_error: 'The channel was removed before the alert could be delivered.',
              }),
        )
      }
      this.track(
        Promise.all(sends).then((done) => {
          // a stop cut retries short: the lease stays ours until drain() gives it back
          if (!done.some((d) => (d as Delivery | undefined)?.status === 'pending'))
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
    while (this.deliveries.size > 0) await Promise.allSettled([...this.deliveries])
    // alerts a stop left unsent: give their leases back so the next start (or another
    // instance) sends them without waiting for the lease to run out
    await this.o.monitors.releaseDeliveries([...this.unfinished]).catch(() => {})
    this.unfinished.clear()
  }
}
