/**
 * Monitor history on PostgreSQL (migration 0009, docs/decisions.md#monitoring-depth): the rollup
 * upsert and incident change that ride in `finishRun`'s one statement, and the reads of the uptime
 * routes and status pages.
 *
 * Written per run: one INSERT … ON CONFLICT DO UPDATE of two rows (the run's hour and day), fed
 * by the run's own insert (`r`), so a retried statement whose run already exists adds nothing;
 * the buckets past retention of that monitor go in the same statement (an index range on the
 * primary key, usually empty). Incidents change only when the state crosses down.
 */
import { sql, type Kysely, type RawBuilder } from 'kysely'
import { BUCKET_MS, bucketStart, INCIDENT_RETENTION_MS, RETENTION_MS, rollupMs } from '../history.js'
import type {
  IncidentRecord,
  RollupBucket,
  RollupCounts,
  RollupGranularity,
  RollupTotals,
  RunHistory,
  RunRecord,
} from '../monitors.js'
import type { Database } from './schema.js'

/** CTEs (after `r`, the run's insert RETURNING id) that roll the run up; each ends with a comma. */
export function historySql(
  monitorId: string,
  run: RunRecord,
  h: RunHistory | undefined,
  now: number,
): RawBuilder<unknown> {
  if (!h) return sql``
  const at = Date.parse(run.started_at)
  const rt = rollupMs(run.response_time_ms)
  const saved = h.counted && rt !== null && run.health_score !== null
  const counted = h.counted ? 1 : 0
  const failed = h.counted && !h.ok ? 1 : 0
  const open = h.incident && 'open' in h.incident ? h.incident.open : null
  const close = h.incident !== undefined && !('open' in h.incident)
  return sql`
      u AS (
        INSERT INTO monitor_rollups (monitor_id, granularity, start_ms, runs, failed_runs, excluded_runs,
          saved_runs, response_ms_sum, health_sum, downtime_seconds)
        SELECT ${monitorId}::uuid, g.granularity, g.start_ms, ${counted}::int, ${failed}::int,
          ${1 - counted}::int, ${saved ? 1 : 0}::int, ${saved ? rt : 0}::float8, ${saved ? run.health_score : 0}::bigint,
          ${failed * h.interval_seconds}::bigint
        FROM r, (VALUES ('hour', ${String(bucketStart(at, 'hour'))}::bigint),
          ('day', ${String(bucketStart(at, 'day'))}::bigint)) AS g(granularity, start_ms)
        ON CONFLICT (monitor_id, granularity, start_ms) DO UPDATE SET
          runs = monitor_rollups.runs + excluded.runs,
          failed_runs = monitor_rollups.failed_runs + excluded.failed_runs,
          excluded_runs = monitor_rollups.excluded_runs + excluded.excluded_runs,
          saved_runs = monitor_rollups.saved_runs + excluded.saved_runs,
          response_ms_sum = monitor_rollups.response_ms_sum + excluded.response_ms_sum,
          health_sum = monitor_rollups.health_sum + excluded.health_sum,
          downtime_seconds = monitor_rollups.downtime_seconds + excluded.downtime_seconds
      ),
      ux AS (
        DELETE FROM monitor_rollups WHERE monitor_id = ${monitorId} AND EXISTS (SELECT 1 FROM r) AND (
          (granularity = 'hour' AND start_ms < ${String(now - RETENTION_MS.hour)}::bigint) OR
          (granularity = 'day' AND start_ms < ${String(now - RETENTION_MS.day)}::bigint))
      ),
      io AS (
        INSERT INTO monitor_incidents (id, monitor_id, started_at, cause)
        SELECT r.id, ${monitorId}::uuid, ${run.started_at}::timestamptz, ${open ?? ''} FROM r
        WHERE ${open !== null}::boolean
        ON CONFLICT DO NOTHING
      ),
      ic AS (
        UPDATE monitor_incidents SET ended_at = ${run.started_at}::timestamptz
        WHERE ${close}::boolean AND monitor_id = ${monitorId} AND ended_at IS NULL AND EXISTS (SELECT 1 FROM r)
      ),
      ix AS (
        DELETE FROM monitor_incidents WHERE ${close}::boolean AND monitor_id = ${monitorId}
          AND ended_at < ${new Date(now - INCIDENT_RETENTION_MS).toISOString()}::timestamptz
      ),`
}

interface RollupRow {
  granularity: RollupGranularity
  start_ms: string
  runs: number
  failed_runs: number
  excluded_runs: number
  saved_runs: number
  response_ms_sum: number
  health_sum: string
  downtime_seconds: string
}

const bucketOf = (r: RollupRow): RollupBucket => ({
  granularity: r.granularity,
  start: Number(r.start_ms),
  runs: r.runs,
  failed_runs: r.failed_runs,
  excluded_runs: r.excluded_runs,
  saved_runs: r.saved_runs,
  response_ms_sum: Number(r.response_ms_sum),
  health_sum: Number(r.health_sum),
  downtime_seconds: Number(r.downtime_seconds),
})

export async function readRollups(
  db: Kysely<Database>,
  monitorId: string,
  g: RollupGranularity,
  fromMs: number,
  toMs: number,
): Promise<RollupBucket[]> {
  return (await readRollupsOf(db, [monitorId], g, fromMs, toMs)).get(monitorId) ?? []
}

/** The buckets of several monitors in one query (a status page's), by monitor id, oldest first. */
export async function readRollupsOf(
  db: Kysely<Database>,
  ids: string[],
  g: RollupGranularity,
  fromMs: number,
  toMs: number,
): Promise<Map<string, RollupBucket[]>> {
  const to = Number.isFinite(toMs) ? String(Math.trunc(toMs)) : null
  const { rows } = await sql<RollupRow & { monitor_id: string }>`
    SELECT monitor_id, granularity, start_ms, runs, failed_runs, excluded_runs, saved_runs,
      response_ms_sum, health_sum, downtime_seconds
    FROM monitor_rollups
    WHERE monitor_id = ANY(${ids}::uuid[]) AND granularity = ${g}
      AND start_ms >= ${String(Math.trunc(fromMs))}::bigint
      AND (${to}::bigint IS NULL OR start_ms < ${to}::bigint)`.execute(db)
  // ordered here, not by the database: sorting 4,500 rows by uuid there cost more than the read
  const out = groupBy(rows, bucketOf)
  for (const list of out.values()) list.sort((a, b) => a.start - b.start)
  return out
}

/**
 * Runs and failed runs of `count` buckets from `fromMs` (ceiled to a bucket start) for several
 * monitors, one row a monitor (array_agg of its buckets, not one row a bucket): a status page's
 * bars. Buckets starting before `oldestMs` (past retention, not yet pruned) count as none.
 */
export async function readCountsOf(
  db: Kysely<Database>,
  ids: string[],
  g: RollupGranularity,
  fromMs: number,
  count: number,
  oldestMs: number,
): Promise<Map<string, RollupCounts>> {
  const size = BUCKET_MS[g]
  const first = Math.ceil(fromMs / size) * size
  const { rows } = await sql<{ monitor_id: string; i: number[]; r: number[]; f: number[] }>`
    SELECT monitor_id, array_agg(((start_ms - ${String(first)}::bigint) / ${size}::bigint)::int) AS i,
      array_agg(runs) AS r, array_agg(failed_runs) AS f
    FROM monitor_rollups
    WHERE monitor_id = ANY(${ids}::uuid[]) AND granularity = ${g}
      AND start_ms >= ${String(Math.max(first, Math.trunc(oldestMs)))}::bigint
      AND start_ms < ${String(first + count * size)}::bigint
    GROUP BY monitor_id`.execute(db)
  const out = new Map<string, RollupCounts>()
  for (const row of rows) {
    const c = { runs: new Uint32Array(count), failed_runs: new Uint32Array(count) }
    row.i.forEach((i, k) => {
      c.runs[i] = row.r[k]
      c.failed_runs[i] = row.f[k]
    })
    out.set(row.monitor_id, c)
  }
  return out
}

/** Rows grouped by monitor (their order kept within each). */
function groupBy<R extends { monitor_id: string }, T>(rows: R[], f: (r: R) => T): Map<string, T[]> {
  const out = new Map<string, T[]>()
  for (const r of rows) {
    const list = out.get(r.monitor_id)
    if (list) list.push(f(r))
    else out.set(r.monitor_id, [f(r)])
  }
  return out
}

/** One query for a page of monitors: per monitor, hourly sums since each start (FILTER per start). */
export async function readTotals(
  db: Kysely<Database>,
  ids: string[],
  sinceMs: number[],
): Promise<Map<string, RollupTotals[]>> {
  const since = sinceMs.map((s) => String(Math.trunc(s)))
  const sums = sql.join(
    since.map(
      (s, i) => sql`sum(runs) FILTER (WHERE start_ms >= ${s}::bigint) AS ${sql.ref(`r${i}`)},
        sum(failed_runs) FILTER (WHERE start_ms >= ${s}::bigint) AS ${sql.ref(`f${i}`)}`,
    ),
  )
  const { rows } = await sql<Record<string, string | null>>`
    SELECT monitor_id, ${sums} FROM monitor_rollups
    WHERE monitor_id = ANY(${ids}::uuid[]) AND granularity = 'hour'
      AND start_ms >= ${String(Math.min(...sinceMs.map(Math.trunc)))}::bigint
    GROUP BY monitor_id`.execute(db)
  const out = new Map<string, RollupTotals[]>()
  for (const r of rows)
    out.set(
      r.monitor_id!,
      since.map((_, i) => ({ runs: Number(r[`r${i}`] ?? 0), failed_runs: Number(r[`f${i}`] ?? 0) })),
    )
  return out
}

export async function readIncidents(
  db: Kysely<Database>,
  monitorId: string,
  sinceMs: number,
): Promise<IncidentRecord[]> {
  return (await readIncidentsOf(db, [monitorId], sinceMs)).get(monitorId) ?? []
}

/** The incidents of several monitors in one query, by monitor id, newest first. */
export async function readIncidentsOf(
  db: Kysely<Database>,
  ids: string[],
  sinceMs: number,
): Promise<Map<string, IncidentRecord[]>> {
  const { rows } = await sql<{
    id: string
    monitor_id: string
    started_at: Date
    ended_at: Date | null
    cause: string
  }>`
    SELECT id, monitor_id, started_at, ended_at, cause FROM monitor_incidents
    WHERE monitor_id = ANY(${ids}::uuid[])
      AND (ended_at IS NULL OR ended_at >= ${new Date(sinceMs).toISOString()}::timestamptz)
    ORDER BY monitor_id, started_at DESC, id DESC`.execute(db)
  return groupBy(rows, (r) => ({
    id: r.id,
    monitor_id: r.monitor_id,
    started_at: new Date(r.started_at).toISOString(),
    ended_at: r.ended_at === null ? null : new Date(r.ended_at).toISOString(),
    cause: r.cause,
  }))
}

/** Monitors per statement of the periodic prune (each an index range on the primary key). */
const PRUNE_BATCH = 1000

/**
 * The periodic prune (independent of runs: a paused monitor's buckets would stay forever
 * otherwise): every monitor's buckets past retention, a page of monitors per statement, then the
 * incidents closed before theirs.
 */
export async function pruneHistory(db: Kysely<Database>, now: number): Promise<number> {
  let removed = 0
  let after: string | null = null
  for (;;) {
    const { rows }: { rows: { id: string }[] } = await sql<{ id: string }>`
      SELECT id FROM monitors WHERE (${after}::uuid IS NULL OR id > ${after}::uuid)
      ORDER BY id LIMIT ${PRUNE_BATCH}`.execute(db)
    if (rows.length === 0) break
    const ids = rows.map((r) => r.id)
    for (const g of ['hour', 'day'] as const) {
      const r = await sql`
        DELETE FROM monitor_rollups WHERE monitor_id = ANY(${ids}::uuid[]) AND granularity = ${g}
          AND start_ms < ${String(now - RETENTION_MS[g])}::bigint`.execute(db)
      removed += Number(r.numAffectedRows ?? 0)
    }
    after = ids[ids.length - 1]
  }
  const r = await sql`
    DELETE FROM monitor_incidents
    WHERE ended_at < ${new Date(now - INCIDENT_RETENTION_MS).toISOString()}::timestamptz`.execute(db)
  return removed + Number(r.numAffectedRows ?? 0)
}
