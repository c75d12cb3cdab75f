/**
 * Version 2: monitors (docs/decisions.md#monitors-and-alerts), their runs and events. A monitor's full record is json; the
 * columns beside it are what queries filter on: the owner (paging by time-ordered id), the next
 * run time and the claim lease (the scheduler's `FOR UPDATE SKIP LOCKED` pick of due rows), the
 * pause. Runs and events go with their monitor (ON DELETE CASCADE).
 */
import { sql, type Kysely, type Migration } from 'kysely'

export const monitors: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await sql`
      CREATE TABLE monitors (
        id uuid PRIMARY KEY,
        user_id text NOT NULL,
        next_run_ms bigint,
        claimed_until_ms bigint,
        paused boolean NOT NULL,
        paused_reason text,
        record json NOT NULL
      )`.execute(db)
    await sql`CREATE INDEX monitors_by_user ON monitors (user_id, id DESC)`.execute(db)
    await sql`CREATE INDEX monitors_due ON monitors (next_run_ms) WHERE next_run_ms IS NOT NULL AND NOT paused`.execute(
      db,
    )
    await sql`CREATE INDEX monitors_credit_paused ON monitors (user_id) WHERE paused_reason = 'credits'`.execute(
      db,
    )
    await sql`
      CREATE TABLE monitor_runs (
        id uuid PRIMARY KEY,
        monitor_id uuid NOT NULL REFERENCES monitors (id) ON DELETE CASCADE,
        record json NOT NULL
      )`.execute(db)
    await sql`CREATE INDEX monitor_runs_by_monitor ON monitor_runs (monitor_id, id DESC)`.execute(db)
    await sql`
      CREATE TABLE monitor_events (
        id uuid PRIMARY KEY,
        monitor_id uuid NOT NULL REFERENCES monitors (id) ON DELETE CASCADE,
        pending boolean NOT NULL,
        record json NOT NULL
      )`.execute(db)
    await sql`CREATE INDEX monitor_events_by_monitor ON monitor_events (monitor_id, id DESC)`.execute(db)
    await sql`CREATE INDEX monitor_events_pending ON monitor_events (id) WHERE pending`.execute(db)
  },
  async down(db: Kysely<unknown>): Promise<void> {
    for (const t of ['monitor_events', 'monitor_runs', 'monitors'])
      await sql`DROP TABLE ${sql.table(t)}`.execute(db)
  },
}
