import { sql, type Kysely, type Migration } from 'kysely'

/**
 * Version 7: a monitor's `ref` (its name in a monitors-as-code file, docs/decisions.md#monitors-as-code) is unique per
 * user. The ref lives in the monitor's json record like every other field; this index makes the
 * database refuse a second monitor of the same user with the same ref, whichever instance writes
 * it, and lets a ref be found without reading every record.
 */
export const monitorRef: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await sql`
      CREATE UNIQUE INDEX monitors_user_ref ON monitors (user_id, (record->>'ref'))
      WHERE record->>'ref' IS NOT NULL`.execute(db)
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await sql`DROP INDEX monitors_user_ref`.execute(db)
  },
}
