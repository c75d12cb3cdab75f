import { sql, type Kysely, type Migration } from 'kysely'

/**
 * Version 14: runs know where they ran (issue 32), and a run's kind in columns of its own.
 *
 * - monitor_runs: `kind` (outcome + 4 × trigger + 16 × state, room for one more outcome and one
 *   more trigger) becomes three smallint columns, `outcome`, `trigger` and `state`, each a code of
 *   its own list (src/store/postgres/runs.ts) with room to grow; and `location`, the name of the
 *   location the run ran at. The table is written anew, as 0011 did: an UPDATE would leave every
 *   row twice until a vacuum and keep the dropped column's bytes in each. Every run so far ran in
 *   the `serve` process itself: `local`.
 * - monitor_rollups: `location` joins the key (monitor, granularity, block, location), so the
 *   agents of issue 34 can keep a monitor's buckets per location; existing rows are `local`
 *   (a column added with a constant default rewrites nothing).
 * - monitor_incidents: `location`, that of the run that opened it; existing ones `local`.
 *
 * The columns keep no default: every write names its location.
 */
export const runLocation: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    // the copy reads every run once: longer than a request's statement timeout on a big database
    await sql`SET LOCAL statement_timeout = 0`.execute(db)
    await sql`
      CREATE TABLE monitor_runs_v14 (
        monitor_id uuid NOT NULL,
        id uuid NOT NULL,
        started_ms bigint NOT NULL,
        check_id uuid,
        response_time_ms integer,
        health_score smallint,
        outcome smallint NOT NULL,
        trigger smallint NOT NULL,
        state smallint NOT NULL,
        location text NOT NULL,
        detail json
      )`.execute(db)
    await sql`
      INSERT INTO monitor_runs_v14 (monitor_id, id, started_ms, check_id, response_time_ms, health_score,
        outcome, trigger, state, location, detail)
      SELECT monitor_id, id, started_ms, check_id, response_time_ms, health_score,
        kind % 4, (kind / 4) % 4, kind / 16, 'local', detail
      FROM monitor_runs`.execute(db)
    await sql`DROP TABLE monitor_runs`.execute(db)
    await sql`ALTER TABLE monitor_runs_v14 RENAME TO monitor_runs`.execute(db)
    await sql`ALTER TABLE monitor_runs ADD CONSTRAINT monitor_runs_pk PRIMARY KEY (monitor_id, id)`.execute(
      db,
    )
    await sql`
      ALTER TABLE monitor_runs ADD CONSTRAINT monitor_runs_monitor_fk FOREIGN KEY (monitor_id)
        REFERENCES monitors (id) ON DELETE CASCADE`.execute(db)

    for (const table of ['monitor_rollups', 'monitor_incidents']) {
      await sql`ALTER TABLE ${sql.table(table)} ADD COLUMN location text NOT NULL DEFAULT 'local'`.execute(db)
      await sql`ALTER TABLE ${sql.table(table)} ALTER COLUMN location DROP DEFAULT`.execute(db)
    }
    await sql`ALTER TABLE monitor_rollups DROP CONSTRAINT monitor_rollups_pk`.execute(db)
    await sql`
      ALTER TABLE monitor_rollups ADD CONSTRAINT monitor_rollups_pk
        PRIMARY KEY (monitor_id, granularity, block, location)`.execute(db)
  },
  async down(): Promise<void> {
    throw new Error('0014-run-location cannot be undone: restore a backup taken before it')
  },
}
