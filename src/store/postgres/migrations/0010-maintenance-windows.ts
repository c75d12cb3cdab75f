/**
 * Version 10: maintenance windows (docs/decisions.md#monitoring-depth). The window's full record is
 * json; beside it the owner, which every query filters on.
 */
import { sql, type Kysely, type Migration } from 'kysely'

export const maintenanceWindows: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await sql`
      CREATE TABLE maintenance_windows (
        id uuid PRIMARY KEY,
        user_id text NOT NULL,
        record json NOT NULL
      )`.execute(db)
    await sql`CREATE INDEX maintenance_windows_by_user ON maintenance_windows (user_id, id)`.execute(db)
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await sql`DROP TABLE maintenance_windows`.execute(db)
  },
}
