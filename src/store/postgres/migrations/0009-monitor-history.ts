import { sql, type Kysely, type Migration } from 'kysely'

/**
 * Version 9: monitor history (docs/decisions.md#monitoring-depth). `monitor_rollups` sums a
 * monitor's runs per UTC hour (kept 31 days) and per UTC day (kept 400 days), written in the same
 * statement as the run; `monitor_incidents` keeps each down → up period 400 days, at most one open
 * per monitor. Both go with their monitor (ON DELETE CASCADE). Runs inside a maintenance window
 * are counted apart (excluded_runs), so uptime can leave them out.
 */
export const monitorHistory: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await sql`
      CREATE TABLE monitor_rollups (
        monitor_id uuid NOT NULL REFERENCES monitors (id) ON DELETE CASCADE,
        granularity text NOT NULL CHECK (granularity IN ('hour', 'day')),
        start_ms bigint NOT NULL,
        runs integer NOT NULL,
        failed_runs integer NOT NULL,
        excluded_runs integer NOT NULL,
        saved_runs integer NOT NULL,
        response_ms_sum double precision NOT NULL,
        health_sum bigint NOT NULL,
        downtime_seconds bigint NOT NULL,
        PRIMARY KEY (monitor_id, granularity, start_ms)
      )`.execute(db)
    await sql`
      CREATE TABLE monitor_incidents (
        id uuid PRIMARY KEY,
        monitor_id uuid NOT NULL REFERENCES monitors (id) ON DELETE CASCADE,
        started_at timestamptz NOT NULL,
        ended_at timestamptz,
        cause text NOT NULL
      )`.execute(db)
    await sql`CREATE INDEX monitor_incidents_by_monitor ON monitor_incidents (monitor_id, started_at DESC)`.execute(
      db,
    )
    await sql`CREATE UNIQUE INDEX monitor_incidents_open ON monitor_incidents (monitor_id) WHERE ended_at IS NULL`.execute(
      db,
    )
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await sql`DROP TABLE monitor_incidents`.execute(db)
    await sql`DROP TABLE monitor_rollups`.execute(db)
  },
}
