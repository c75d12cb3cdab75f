import { sql, type Kysely, type Migration } from 'kysely'
import { MONITOR_STATES } from '../../../contract/monitors.js'
import { DEFINITIONS_KEY_SQL, RUN_OUTCOMES, RUN_TRIGGERS } from '../runs.js'

const list = (xs: readonly string[]) => sql.raw(`ARRAY[${xs.map((x) => `'${x}'`).join(',')}]`)
const UUID_RE = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$'

/**
 * Version 11: monitor history in a fraction of the space (issue 23: ≤ 300 KB a 60 s monitor after
 * a year). Existing rows are converted in place, in this migration's transaction.
 *
 * - monitor_runs: one lean row a run (src/store/postgres/runs.ts) instead of the run's json
 *   record, keyed (monitor_id, id): the run listing's order and paging, the prune's range and the
 *   insert's retry check all on the one index (the separate index on id goes). Assertion
 *   definitions move to monitor_assertion_sets, once per distinct set.
 * - monitor_rollups: one row per block of buckets (24 hours of a UTC day, 32 UTC days) with the
 *   sums in two arrays (src/store/postgres/history.ts), instead of one row a bucket.
 * - monitor_incidents: keyed (monitor_id, id); the index on id alone and the one on
 *   (monitor_id, started_at) go (every read is one monitor's few rows).
 */
export const leanHistory: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    // the conversion reads every run once: longer than a request's statement timeout on a big
    // database (the migration runs in one transaction, so this ends with it)
    await sql`SET LOCAL statement_timeout = 0`.execute(db)
    await leanRuns(db)
    await packedRollups(db)
    await sql`DROP INDEX monitor_incidents_by_monitor`.execute(db)
    await sql`ALTER TABLE monitor_incidents DROP CONSTRAINT monitor_incidents_pkey`.execute(db)
    await sql`ALTER TABLE monitor_incidents ADD CONSTRAINT monitor_incidents_pk PRIMARY KEY (monitor_id, id)`.execute(
      db,
    )
  },
  async down(): Promise<void> {
    throw new Error('0011-lean-history cannot be undone: restore a backup taken before it')
  },
}

async function leanRuns(db: Kysely<unknown>): Promise<void> {
  await sql`
      CREATE TABLE monitor_assertion_sets (
        monitor_id uuid NOT NULL REFERENCES monitors (id) ON DELETE CASCADE,
        key bigint NOT NULL,
        definitions json NOT NULL,
        CONSTRAINT monitor_assertion_sets_pk PRIMARY KEY (monitor_id, key)
      )`.execute(db)
  await sql`
      CREATE TABLE monitor_runs_v11 (
        monitor_id uuid NOT NULL,
        id uuid NOT NULL,
        started_ms bigint NOT NULL,
        check_id uuid,
        response_time_ms integer,
        health_score smallint,
        kind smallint NOT NULL,
        detail json
      )`.execute(db)
  // each old record, its assertion results taken apart: the definitions' text and key, the
  // passed bits and the actuals (their json text as stored)
  await sql`
      CREATE TEMP TABLE run_parts ON COMMIT DROP AS
      SELECT r.id, r.monitor_id, r.record AS j, a.n, a.defs, a.bits, a.actuals,
        CASE WHEN a.defs IS NULL THEN NULL ELSE ${sql.raw(DEFINITIONS_KEY_SQL('a.defs'))} END AS key
      FROM monitor_runs r
      LEFT JOIN LATERAL (
        SELECT count(*) AS n,
          '[' || string_agg(json_build_array(e -> 'source', e -> 'property', e -> 'comparison', e -> 'target')::text,
            ',' ORDER BY i) || ']' AS defs,
          sum(CASE WHEN (e ->> 'passed')::boolean THEN (2::bigint ^ (i - 1))::bigint ELSE 0 END) AS bits,
          string_agg(coalesce((e -> 'actual')::text, 'null'), ',' ORDER BY i) AS actuals
        FROM json_array_elements(r.record -> 'assertions') WITH ORDINALITY AS x(e, i)
      ) a ON json_typeof(r.record -> 'assertions') = 'array'`.execute(db)
  await sql`
      INSERT INTO monitor_assertion_sets (monitor_id, key, definitions)
      SELECT DISTINCT ON (monitor_id, key) monitor_id, key, defs::json FROM run_parts
      WHERE key IS NOT NULL
      ON CONFLICT DO NOTHING`.execute(db)
  await sql`
      INSERT INTO monitor_runs_v11 (monitor_id, id, started_ms, check_id, response_time_ms, health_score, kind, detail)
      SELECT p.monitor_id, p.id,
        floor(extract(epoch FROM (p.j ->> 'started_at')::timestamptz) * 1000)::bigint,
        CASE WHEN p.j ->> 'check_id' ~ ${UUID_RE} THEN (p.j ->> 'check_id')::uuid END,
        round((p.j ->> 'response_time_ms')::numeric)::int,
        round((p.j ->> 'health_score')::numeric)::smallint,
        (coalesce(array_position(${list(RUN_OUTCOMES)}, p.j ->> 'outcome'), 1) - 1
          + 4 * (coalesce(array_position(${list(RUN_TRIGGERS)}, p.j ->> 'trigger'), 1) - 1)
          + 16 * (coalesce(array_position(${list(MONITOR_STATES)}, p.j ->> 'state'), 1) - 1))::smallint,
        nullif('{' || concat_ws(',',
          CASE WHEN json_typeof(p.j -> 'error') = 'object' THEN
            '"e":[' || coalesce(to_json(p.j -> 'error' ->> 'code')::text, 'null') || ','
              || coalesce(to_json(p.j -> 'error' ->> 'message')::text, 'null') || ']' END,
          CASE WHEN p.j ->> 'check_id' IS NOT NULL AND p.j ->> 'check_id' !~ ${UUID_RE} THEN
            '"c":' || to_json(p.j ->> 'check_id')::text END,
          CASE WHEN p.n = 0 THEN '"a":[]'
            WHEN p.n > 0 THEN '"a":[' || p.key || ',' || p.bits || ',' || p.actuals || ']' END
        ) || '}', '{}')::json
      FROM run_parts p`.execute(db)
  await sql`DROP TABLE monitor_runs`.execute(db)
  await sql`ALTER TABLE monitor_runs_v11 RENAME TO monitor_runs`.execute(db)
  await sql`ALTER TABLE monitor_runs ADD CONSTRAINT monitor_runs_pk PRIMARY KEY (monitor_id, id)`.execute(db)
  await sql`
      ALTER TABLE monitor_runs ADD CONSTRAINT monitor_runs_monitor_fk FOREIGN KEY (monitor_id)
        REFERENCES monitors (id) ON DELETE CASCADE`.execute(db)
}

/** Each old bucket's values at their place in its block's arrays. */
async function packedRollups(db: Kysely<unknown>): Promise<void> {
  await sql`
      CREATE TABLE monitor_rollups_v11 (
        monitor_id uuid NOT NULL,
        granularity text NOT NULL CHECK (granularity IN ('hour', 'day')),
        block integer NOT NULL,
        counts integer[] NOT NULL,
        sums bigint[] NOT NULL
      )`.execute(db)
  await sql`
      INSERT INTO monitor_rollups_v11 (monitor_id, granularity, block, counts, sums)
      WITH o AS (
        SELECT monitor_id, granularity, n, (k / n)::int AS block, (k % n)::int AS slot,
          runs, failed_runs, excluded_runs, saved_runs, round(response_ms_sum)::bigint AS rt,
          health_sum, downtime_seconds
        FROM (
          SELECT *, CASE granularity WHEN 'hour' THEN 24 ELSE 32 END AS n,
            start_ms / CASE granularity WHEN 'hour' THEN 3600000 ELSE 86400000 END AS k
          FROM monitor_rollups
        ) b
      ),
      blocks AS (SELECT DISTINCT monitor_id, granularity, n, block FROM o),
      c AS (
        SELECT o.monitor_id, o.granularity, o.block, o.slot * 4 + v.i AS i, v.x
        FROM o, LATERAL (VALUES (0, o.runs), (1, o.failed_runs), (2, o.excluded_runs), (3, o.saved_runs)) v(i, x)
      ),
      s AS (
        SELECT o.monitor_id, o.granularity, o.block, o.slot * 3 + v.i AS i, v.x
        FROM o, LATERAL (VALUES (0, o.rt), (1, o.health_sum), (2, o.downtime_seconds)) v(i, x)
      ),
      ca AS (
        SELECT b.monitor_id, b.granularity, b.block, array_agg(coalesce(c.x, 0) ORDER BY g.i) AS counts
        FROM blocks b CROSS JOIN LATERAL generate_series(0, b.n * 4 - 1) g(i)
        LEFT JOIN c ON c.monitor_id = b.monitor_id AND c.granularity = b.granularity AND c.block = b.block AND c.i = g.i
        GROUP BY b.monitor_id, b.granularity, b.block
      ),
      sa AS (
        SELECT b.monitor_id, b.granularity, b.block, array_agg(coalesce(s.x, 0) ORDER BY g.i) AS sums
        FROM blocks b CROSS JOIN LATERAL generate_series(0, b.n * 3 - 1) g(i)
        LEFT JOIN s ON s.monitor_id = b.monitor_id AND s.granularity = b.granularity AND s.block = b.block AND s.i = g.i
        GROUP BY b.monitor_id, b.granularity, b.block
      )
      SELECT ca.monitor_id, ca.granularity, ca.block, ca.counts, sa.sums
      FROM ca JOIN sa USING (monitor_id, granularity, block)`.execute(db)
  await sql`DROP TABLE monitor_rollups`.execute(db)
  await sql`ALTER TABLE monitor_rollups_v11 RENAME TO monitor_rollups`.execute(db)
  await sql`ALTER TABLE monitor_rollups ADD CONSTRAINT monitor_rollups_pk PRIMARY KEY (monitor_id, granularity, block)`.execute(
    db,
  )
  await sql`
      ALTER TABLE monitor_rollups ADD CONSTRAINT monitor_rollups_monitor_fk FOREIGN KEY (monitor_id)
        REFERENCES monitors (id) ON DELETE CASCADE`.execute(db)
}
