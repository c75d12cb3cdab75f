/**
 * The delivery queue on PostgreSQL (src/store/delivery-queue.ts), in the monitor_events table:
 * an event with a delivery still to make has `pending` set, and a dispatcher holds it with a lease
 * (`delivery_lease_until`, migration 0004) taken in the same statement that finds it, so each
 * pending event goes to one instance at a time and returns to the others once the lease passes.
 */
import { sql, type Kysely } from 'kysely'
import type { Delivery } from '../../contract/monitors.js'
import type { EventRecord } from '../run-log.js'
import type { Database } from './schema.js'

/** Replaces one delivery of an event (by channel id), under the event row's lock. */
export async function updateDelivery(
  db: Kysely<Database>,
  monitorId: string,
  eventId: string,
  delivery: Delivery,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const { rows } = await sql<{ record: EventRecord }>`
      SELECT record FROM monitor_events WHERE id = ${eventId} AND monitor_id = ${monitorId} FOR UPDATE`.execute(
      trx,
    )
    const ev = rows[0]?.record
    if (!ev) return
    ev.deliveries = ev.deliveries.map((d) => (d.channel_id === delivery.channel_id ? delivery : d))
    await sql`
      UPDATE monitor_events SET record = ${JSON.stringify(ev)},
        pending = ${ev.deliveries.some((d) => d.status === 'pending')}
      WHERE id = ${eventId}`.execute(trx)
  })
}

/** The pending events no one holds (of `eventIds`, if given), leased for `leaseMs`. */
export async function claimDeliveries(
  db: Kysely<Database>,
  leaseMs: number,
  eventIds?: string[],
): Promise<EventRecord[]> {
  if (eventIds?.length === 0) return []
  const { rows } = await sql<{ record: EventRecord }>`
    UPDATE monitor_events SET delivery_lease_until = now() + ${leaseMs} * interval '1 millisecond'
    WHERE pending
      AND (delivery_lease_until IS NULL OR delivery_lease_until < now())
      ${eventIds ? sql`AND id = ANY(${eventIds}::uuid[])` : sql``}
    RETURNING record`.execute(db)
  return rows.map((r) => r.record).sort((a, b) => (a.id < b.id ? -1 : 1))
}

export async function releaseDeliveries(db: Kysely<Database>, eventIds: string[]): Promise<void> {
  if (eventIds.length === 0) return
  await sql`
    UPDATE monitor_events SET delivery_lease_until = NULL
    WHERE id = ANY(${eventIds}::uuid[])`.execute(db)
}
