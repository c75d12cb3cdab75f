import { sql, type Kysely, type Migration } from 'kysely'

/**
 * Version 12: room on each page of monitor_rollups for a row's next version. A run rewrites two
 * packed rows (~1.1–1.4 KB since 0011); PostgreSQL prunes a page's dead versions only once its
 * free space drops below max(10 %, 100 − fillfactor %), so at the default fillfactor (100) a page
 * with ~0.9 KB free was neither pruned nor able to take the new version: a third of the updates
 * moved the row to another page (and added an index entry), and the table grew ~2 MB a monitor
 * per 1,000 runs. At 80 the threshold (1.6 KB) is above a row's size, so every update stays on
 * its page (HOT) and the dead versions are reclaimed in place.
 */
export const rollupsFillfactor: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await sql`ALTER TABLE monitor_rollups SET (fillfactor = 80)`.execute(db)
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await sql`ALTER TABLE monitor_rollups RESET (fillfactor)`.execute(db)
  },
}
