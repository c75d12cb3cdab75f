/**
 * Version 18: the durable outbox of status-page subscriber notices (docs/status-pages.md). A notice
 * is stored once with what every message of it says; each subscriber still to hear of it is a row
 * held by one sender at a time (`lease_until`, epoch ms; 0 when free), counted in `attempts`,
 * taken in the order queued (`seq`). Both
 * go with their page, items with their notice.
 */
import { sql, type Kysely, type Migration } from 'kysely'

export const statusOutbox: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await sql`
      CREATE TABLE status_outbox_notices (
        id uuid PRIMARY KEY,
        page_id uuid NOT NULL REFERENCES status_pages (id) ON DELETE CASCADE,
        record json NOT NULL
      )`.execute(db)
    await sql`
      CREATE TABLE status_outbox (
        id uuid PRIMARY KEY,
        seq bigint GENERATED ALWAYS AS IDENTITY,
        notice_id uuid NOT NULL REFERENCES status_outbox_notices (id) ON DELETE CASCADE,
        page_id uuid NOT NULL,
        subscriber_id uuid NOT NULL,
        attempts integer NOT NULL DEFAULT 0,
        lease_until bigint NOT NULL DEFAULT 0
      )`.execute(db)
    await sql`CREATE INDEX status_outbox_by_lease ON status_outbox (lease_until, seq)`.execute(db)
    await sql`CREATE INDEX status_outbox_by_notice ON status_outbox (notice_id)`.execute(db)
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await sql`DROP TABLE status_outbox`.execute(db)
    await sql`DROP TABLE status_outbox_notices`.execute(db)
  },
}
