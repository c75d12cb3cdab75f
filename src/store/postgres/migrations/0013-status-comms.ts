/**
 * Version 13: status pages that communicate (docs/status-pages.md). A page's custom domain, unique on the
 * server; the incidents posted on a page (the record as jsonb, so an update is appended in one
 * statement); its subscribers (an email once per page). Both go with their page.
 */
import { sql, type Kysely, type Migration } from 'kysely'

export const statusComms: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await sql`ALTER TABLE status_pages ADD COLUMN domain text CONSTRAINT status_pages_domain_key UNIQUE`.execute(
      db,
    )
    await sql`
      CREATE TABLE status_incidents (
        id uuid PRIMARY KEY,
        page_id uuid NOT NULL REFERENCES status_pages (id) ON DELETE CASCADE,
        record jsonb NOT NULL
      )`.execute(db)
    await sql`CREATE INDEX status_incidents_by_page ON status_incidents (page_id, id)`.execute(db)
    await sql`
      CREATE TABLE status_subscribers (
        id uuid PRIMARY KEY,
        page_id uuid NOT NULL REFERENCES status_pages (id) ON DELETE CASCADE,
        type text NOT NULL,
        target text NOT NULL,
        record json NOT NULL
      )`.execute(db)
    await sql`CREATE INDEX status_subscribers_by_page ON status_subscribers (page_id, id)`.execute(db)
    await sql`
      CREATE UNIQUE INDEX status_subscribers_email ON status_subscribers (page_id, target)
      WHERE type = 'email'`.execute(db)
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await sql`DROP TABLE status_subscribers`.execute(db)
    await sql`DROP TABLE status_incidents`.execute(db)
    await sql`ALTER TABLE status_pages DROP COLUMN domain`.execute(db)
  },
}
