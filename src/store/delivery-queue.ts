/**
 * The delivery queue, a monitor concern of the storage interface (monitors.ts): the alerts of each
 * event (run-log.ts) still to send, under a lease, so no alert goes out twice, across instances
 * on PostgreSQL too.
 */
import type { Delivery } from '../contract/monitors.js'
import type { EventRecord } from './run-log.js'

export interface DeliveryQueueStore {
  /** Replaces one delivery of an event (by channel id). */
  updateDelivery(monitorId: string, eventId: string, delivery: Delivery): Promise<void>
  /**
   * Takes, for `leaseMs`, the delivery lease of every event with a delivery still pending whose
   * lease is free (never taken, given back, or expired: its holder died), or of just `eventIds`;
   * returns the events taken. Whoever holds an event's lease sends its alerts.
   */
  claimDeliveries(leaseMs: number, eventIds?: string[]): Promise<EventRecord[]>
  /** Gives leases back (a stop with deliveries unfinished): the next sweep resumes them at once. */
  releaseDeliveries(eventIds: string[]): Promise<void>
}
