import { sql, type Kysely, type Migration } from 'kysely'

/**
 * A lease on an event's pending deliveries: the instance that sends an event's alerts holds it,
 * so another instance starting (or sweeping for a dead one's work) does not send them again.
 */
export const deliveryLease: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await sql`ALTER TABLE monitor_events ADD COLUMN delivery_lease_until timestamptz`.execute(db)
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await sql`ALTER TABLE monitor_events DROP COLUMN delivery_lease_until`.execute(db)
  },
}
