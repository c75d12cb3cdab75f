import { sql, type Kysely, type Migration } from 'kysely'

/**
 * Where a device-grant request came from (its client address), so the approval page can show
 * where and when `sitehealth login` was run before anyone approves a key for it.
 */
export const accountHardening: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await sql`ALTER TABLE device_grants ADD COLUMN client_address text`.execute(db)
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await sql`ALTER TABLE device_grants DROP COLUMN client_address`.execute(db)
  },
}
