/**
 * Monitor history on PostgreSQL (migrations 0009 and 0011, docs/decisions.md#monitoring-depth):
 * the rollup upsert and incident change that ride in `finishRun`'s one statement, and the reads of
 * the uptime routes and status pages.
 *
 * Buckets are packed (0011): one row holds a block of consecutive buckets, the 24 hours of a UTC
 * day or 32 UTC days, as two arrays: `counts` (int4: runs, failed, excluded, saved per bucket) and
 * `sums` (int8: response ms, health, downtime seconds per bucket). A bucket is k = start ÷ its
 * length; its row is block ⌊k ÷ n⌋, its place slot k mod n. A slot with no run and no excluded
 * run is no bucket. Per monitor a year is ~46 rows of ~1.1–1.4 KB instead of 1,110 rows of
 * ~150 bytes with their index entries.
 *
 * Written per run: one INSERT … ON CONFLICT DO UPDATE of two rows (the block of the run's hour
 * and of its day), adding to the run's slot only, fed by the run's own insert (`r`), so a retried
 * statement whose run already exists adds nothing; the blocks wholly past retention of that
 * monitor go in the same statement (an index range on the primary key, usually empty).
 * Incidents change only when the state crosses down.
 *
 * Rows are kept per location (0014: the key is monitor, granularity, block, location), so the
 * reads that answer for the monitor as a whole add up the rows of a block (`merged`).
 */
import { sql, type Kysely, type RawBuilder } from 'kysely'
import { BUCKET_MS, contribution, incidentsKeptFrom, keptFrom } from '../rules/buckets.js'
import { incidentChange } from '../rules/incidents.js'
import type {
  IncidentRecord,
  RollupBucket,
  RollupCounts,
  RollupGranularity,
  RollupTotals,
  RunHistory,
} from '../history.js'
import type { RunRecord } from '../run-log.js'
import { pruneAssertionSets } from './runs.js'
import type { Database } from './schema.js'

/** Buckets a row holds, by granularity. */
export const SLOTS: Record<RollupGranularity, number> = { hour: 24, day: 32 }
/** Values a bucket has in `counts` and in `sums`. */
export const COUNTS = 4
export const SUMS = 3

/** The row (block) and place (slot) of the bucket starting at or holding `ms`. */
export function blockOf(ms: number, g: RollupGranularity): { block: number; slot: number } {
  const k = Math.floor(ms / BUCKET_MS[g])
  const block = Math.floor(k / SLOTS[g])
  return { block, slot: k - block * SLOTS[g] }
}

/** The first block none of whose buckets starts before `cutoffMs` is past: blocks before it all are. */
const expiredBefore = (cutoffMs: number, g: RollupGranularity) =>
  Math.floor(cutoffMs / (BUCKET_MS[g] * SLOTS[g]))

/** A new row's array: `values` at `slot` (each of `width`), zeros elsewhere, made by the database. */
function filled(g: RollupGranularity, slot: number, width: number, values: number[], type: 'int' | 'bigint') {
  const t = sql.raw(type)
  const after = (SLOTS[g] - slot - 1) * width
  return sql`(array_fill(0::${t}, ARRAY[${slot * width}::int]) || ARRAY[${sql.join(values.map((v) => sql`${v}::${t}`))}]::${t}[] || array_fill(0::${t}, ARRAY[${after}::int]))`
}

/** CTEs (after `r`, the run's insert RETURNING id) that roll the run up; each ends with a comma. */
export function historySql(
  monitorId: string,
  run: RunRecord,
  h: RunHistory | undefined,
  now: number,
): RawBuilder<unknown> {
  if (!h) return sql``
  const at = Date.parse(run.started_at)
  const k = contribution(run, h)
  const c = [k.runs, k.failed_runs, k.excluded_runs, k.saved_runs]
  const s = [k.response_ms_sum, k.health_sum, k.downtime_seconds]
  const hour = blockOf(at, 'hour')
  const day = blockOf(at, 'day')
  // the slot's first value in each array, 1-based, by the row's granularity
  const base = (n: number) =>
    sql`(CASE t.granularity WHEN 'hour' THEN ${hour.slot * n}::int ELSE ${day.slot * n}::int END)`
  const add = (col: 'counts' | 'sums', n: number, values: number[]) =>
    values.flatMap((v, i) =>
      v === 0
        ? []
        : [sql`${sql.ref(col)}[${base(n)} + ${i + 1}] = t.${sql.ref(col)}[${base(n)} + ${i + 1}] + ${v}`],
    )
  const sets = [...add('counts', COUNTS, c), ...add('sums', SUMS, s)]
  const change = incidentChange(run, h)
  const open = change && 'open' in change ? change.open : null
  const close = change && 'close' in change ? change.close : null
  return sql`
      u AS (
        INSERT INTO monitor_rollups AS t (monitor_id, granularity, block, location, counts, sums)
        SELECT ${monitorId}::uuid, g.granularity, g.block, ${run.location}::text, g.counts, g.sums
        FROM r, (VALUES
          ('hour', ${hour.block}::int, ${filled('hour', hour.slot, COUNTS, c, 'int')}, ${filled('hour', hour.slot, SUMS, s, 'bigint')}),
          ('day', ${day.block}::int, ${filled('day', day.slot, COUNTS, c, 'int')}, ${filled('day', day.slot, SUMS, s, 'bigint')})
        ) AS g(granularity, block, counts, sums)
        ON CONFLICT (monitor_id, granularity, block, location) DO UPDATE SET ${sql.join(sets)}
      ),
      ux AS (
        DELETE FROM monitor_rollups WHERE monitor_id = ${monitorId} AND EXISTS (SELECT 1 FROM r) AND (
          (granularity = 'hour' AND block < ${expiredBefore(keptFrom('hour', now), 'hour')}::int) OR
          (granularity = 'day' AND block < ${expiredBefore(keptFrom('day', now), 'day')}::int))
      ),
      io AS (
        INSERT INTO monitor_incidents (id, monitor_id, location, started_at, cause)
        SELECT ${open?.id ?? null}::uuid, ${monitorId}::uuid, ${run.location}::text,
          ${open?.started_at ?? null}::timestamptz, ${open?.cause ?? ''} FROM r
        WHERE ${open !== null}::boolean AND NOT EXISTS (
          SELECT 1 FROM monitor_incidents WHERE monitor_id = ${monitorId} AND ended_at IS NULL)
        ON CONFLICT DO NOTHING
      ),
      ic AS (
        UPDATE monitor_incidents SET ended_at = ${close?.ended_at ?? null}::timestamptz
        WHERE ${close !== null}::boolean AND monitor_id = ${monitorId} AND ended_at IS NULL AND EXISTS (SELECT 1 FROM r)
      ),
      ix AS (
        DELETE FROM monitor_incidents WHERE ${close !== null}::boolean AND monitor_id = ${monitorId}
          AND ended_at < ${new Date(incidentsKeptFrom(now)).toISOString()}::timestamptz
      ),`
}

interface BlockRow {
  monitor_id: string
  block: number
  counts: number[]
  /** Read as float8[]: numbers, exact below 2^53. */
  sums: number[]
}

/** The block range holding buckets starting in [fromMs, toMs) (toMs may be Infinity). */
function blockRange(g: RollupGranularity, fromMs: number, toMs: number): [number, number | null] {
  const first = blockOf(Math.ceil(fromMs / BUCKET_MS[g]) * BUCKET_MS[g], g).block
  const last = Number.isFinite(toMs)
    ? blockOf(Math.ceil(toMs / BUCKET_MS[g]) * BUCKET_MS[g] - 1, g).block
    : null
  return [first, last]
}

/** Rows of one block (in order, of every location) made one: their arrays added up. */
function merged(rows: BlockRow[]): BlockRow[] {
  const out: BlockRow[] = []
  for (const row of rows) {
    const prev = out[out.length - 1]
    if (!prev || prev.monitor_id !== row.monitor_id || prev.block !== row.block) {
      out.push(row)
      continue
    }
    row.counts.forEach((v, i) => (prev.counts[i] += v))
    row.sums.forEach((v, i) => (prev.sums[i] += v))
  }
  return out
}

/** The blocks in range, of `location` or of every location added up, by monitor and block. */
async function readBlocks(
  db: Kysely<Database>,
  ids: string[],
  g: RollupGranularity,
  fromMs: number,
  toMs: number,
  location?: string,
): Promise<BlockRow[]> {
  const [first, last] = blockRange(g, fromMs, toMs)
  const { rows } = await sql<BlockRow>`
    SELECT monitor_id, block, counts, sums::float8[] AS sums
    FROM monitor_rollups
    WHERE monitor_id = ANY(${ids}::uuid[]) AND granularity = ${g} AND block >= ${first}::int
      AND (${last}::int IS NULL OR block <= ${last}::int)
      AND (${location ?? null}::text IS NULL OR location = ${location ?? null}::text)
    ORDER BY monitor_id, block`.execute(db)
  return merged(rows)
}

export async function readRollups(
  db: Kysely<Database>,
  monitorId: string,
  g: RollupGranularity,
  fromMs: number,
  toMs: number,
  location?: string,
): Promise<RollupBucket[]> {
  return (await readRollupsOf(db, [monitorId], g, fromMs, toMs, location)).get(monitorId) ?? []
}

/** The buckets of several monitors in one query (a status page's), by monitor id, oldest first. */
export async function readRollupsOf(
  db: Kysely<Database>,
  ids: string[],
  g: RollupGranularity,
  fromMs: number,
  toMs: number,
  location?: string,
): Promise<Map<string, RollupBucket[]>> {
  const size = BUCKET_MS[g]
  const n = SLOTS[g]
  const out = new Map<string, RollupBucket[]>()
  for (const row of await readBlocks(db, ids, g, fromMs, toMs, location)) {
    let list = out.get(row.monitor_id)
    for (let i = 0; i < n; i++) {
      const start = (row.block * n + i) * size
      if (start < fromMs || start >= toMs) continue
      const c = i * COUNTS
      const s = i * SUMS
      if (row.counts[c] === 0 && row.counts[c + 2] === 0) continue
      if (!list) out.set(row.monitor_id, (list = []))
      list.push({
        granularity: g,
        start,
        runs: row.counts[c],
        failed_runs: row.counts[c + 1],
        excluded_runs: row.counts[c + 2],
        saved_runs: row.counts[c + 3],
        response_ms_sum: row.sums[s],
        health_sum: row.sums[s + 1],
        downtime_seconds: row.sums[s + 2],
      })
    }
  }
  return out
}

/**
 * Runs and failed runs of `count` buckets from `fromMs` (ceiled to a bucket start) for several
 * monitors: a status page's bars. One query for the blocks in range (90 days: ~4 rows a monitor),
 * their `counts` read here: picking slots out in SQL (array subscripts, ~0.3 µs each) cost more
 * than the whole read. Buckets starting before `oldestMs` (past retention, not yet pruned) count
 * as none.
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
  const n = SLOTS[g]
  const first = Math.ceil(fromMs / size)
  const lo = Math.max(first, Math.ceil(oldestMs / size))
  const end = first + count
  const out = new Map<string, RollupCounts>()
  if (lo >= end) return out
  const { rows } = await sql<{ monitor_id: string; block: number; counts: number[] }>`
    SELECT monitor_id, block, counts FROM monitor_rollups
    WHERE monitor_id = ANY(${ids}::uuid[]) AND granularity = ${g}
      AND block >= ${Math.floor(lo / n)}::int AND block <= ${Math.floor((end - 1) / n)}::int`.execute(db)
  for (const row of rows) {
    let c = out.get(row.monitor_id)
    for (let slot = 0; slot < n; slot++) {
      const k = row.block * n + slot
      const at = slot * COUNTS
      if (k < lo || k >= end || row.counts[at] + row.counts[at + 2] === 0) continue
      if (!c)
        out.set(row.monitor_id, (c = { runs: new Uint32Array(count), failed_runs: new Uint32Array(count) }))
      // += : a block has a row of each location
      c.runs[k - first] += row.counts[at]
      c.failed_runs[k - first] += row.counts[at + 1]
    }
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

/**
 * One query for a page of monitors: per monitor and window, the runs and failed runs from the
 * window's first whole hour on. Both granularities count the same runs, so (as the embedded
 * store does) the hours of the window's first day come from that day's hour row and every later
 * day from the day rows: ~5 rows a monitor for 24 h, 7 and 30 days instead of 31 rows of hours.
 */
export async function readTotals(
  db: Kysely<Database>,
  ids: string[],
  sinceMs: number[],
): Promise<Map<string, RollupTotals[]>> {
  const hours = sinceMs.map((s) => Math.ceil(s / BUCKET_MS.hour))
  const days = hours.map((h) => Math.floor(h / SLOTS.hour))
  const { rows } = await sql<{
    monitor_id: string
    granularity: RollupGranularity
    block: number
    counts: number[]
  }>`
    SELECT monitor_id, granularity, block, counts FROM monitor_rollups
    WHERE monitor_id = ANY(${ids}::uuid[]) AND (
      (granularity = 'hour' AND block = ANY(${[...new Set(days)]}::int[])) OR
      (granularity = 'day' AND block >= ${Math.floor((Math.min(...days) + 1) / SLOTS.day)}::int))`.execute(db)
  const out = new Map<string, RollupTotals[]>()
  for (const row of rows) {
    const n = SLOTS[row.granularity]
    let t = out.get(row.monitor_id)
    for (let slot = 0; slot < n; slot++) {
      const at = slot * COUNTS
      if (row.counts[at] + row.counts[at + 2] === 0) continue
      const k = row.block * n + slot
      hours.forEach((h, i) => {
        // hours of the first day at or after the window's first hour; days after that day
        const inside = row.granularity === 'hour' ? row.block === days[i] && k >= h : k > days[i]
        if (!inside) return
        if (!t) out.set(row.monitor_id, (t = hours.map(() => ({ runs: 0, failed_runs: 0 }))))
        t[i].runs += row.counts[at]
        t[i].failed_runs += row.counts[at + 1]
      })
    }
  }
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
    location: string
    started_at: Date
    ended_at: Date | null
    cause: string
  }>`
    SELECT id, monitor_id, location, started_at, ended_at, cause FROM monitor_incidents
    WHERE monitor_id = ANY(${ids}::uuid[])
      AND (ended_at IS NULL OR ended_at >= ${new Date(sinceMs).toISOString()}::timestamptz)
    ORDER BY monitor_id, started_at DESC, id DESC`.execute(db)
  return groupBy(rows, (r) => ({
    id: r.id,
    monitor_id: r.monitor_id,
    location: r.location,
    started_at: new Date(r.started_at).toISOString(),
    ended_at: r.ended_at === null ? null : new Date(r.ended_at).toISOString(),
    cause: r.cause,
  }))
}

/** Monitors per statement of the periodic prune (each an index range on the primary key). */
const PRUNE_BATCH = 1000

/**
 * The periodic prune (independent of runs: a paused monitor's buckets would stay forever
 * otherwise): every monitor's blocks wholly past retention (rows, not buckets, are counted), a page of monitors per statement, then the
 * incidents closed before theirs, then the assertion sets no kept run refers to (runs.ts).
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
          AND block < ${expiredBefore(keptFrom(g, now), g)}::int`.execute(db)
      removed += Number(r.numAffectedRows ?? 0)
    }
    after = ids[ids.length - 1]
  }
  const r = await sql`
    DELETE FROM monitor_incidents
    WHERE ended_at < ${new Date(incidentsKeptFrom(now)).toISOString()}::timestamptz`.execute(db)
  return removed + Number(r.numAffectedRows ?? 0) + (await pruneAssertionSets(db))
}
