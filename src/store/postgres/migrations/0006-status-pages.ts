/**
 * Version 6: public status pages (docs/decisions.md#the-public-face). The page's full record is json; beside it the
 * columns queries use: the owner (listing) and the slug, unique on the server (the public address,
 * and the one place two instances could race: the unique index settles it).
 */
import { sql, type Kysely, type Migration } from 'kysely'

export const statusPages: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await sql`
      CREATE TABLE status_pages (
        id uuid PRIMARY KEY,
        user_id text NOT NULL,
        slug text NOT NULL CONSTRAINT status_pages_slug_key UNIQUE,
        record json NOT NULL
      )`.execute(db)
    await sql`CREATE INDEX status_pages_by_user ON status_pages (user_id, id)`.execute(db)
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await sql`DROP TABLE status_pages`.execute(db)
  },
}
