/**
 * Uptime from the rollups (docs/decisions.md#monitoring-depth): the `uptime` windows of every
 * monitor view and the report of `GET /monitors/{id}/uptime`. Both read the store's hourly and
 * daily buckets, so a 400-day answer costs 400 buckets; a report reads raw runs only for its
 * response-time percentiles, and only when its window holds at most EXACT_PERCENTILE_RUNS saved runs.
 */
import {
  DAILY_RETENTION_DAYS,
  HOURLY_RETENTION_DAYS,
  UPTIME_WINDOW_MS,
  UPTIME_WINDOWS,
  type Granularity,
  type UptimeBucket,
  type UptimeQuery,
  type UptimeReport,
  type UptimeWindows,
} from '../../contract/monitoring.js'
import { BUCKET_MS, bucketStart, DAY_MS } from '../../store/rules/buckets.js'
import type { HistoryStore, RollupBucket } from '../../store/history.js'
import type { RunLogStore } from '../../store/run-log.js'
import { DomainError } from '../../shared/index.js'

const NONE: UptimeWindows = { '24h': null, '7d': null, '30d': null }
/** The default window of a report. */
export const DEFAULT_REPORT_MS = 30 * DAY_MS

/**
 * Percent of runs that passed, to 2 decimals; rounded down, so one failed run never reads 100.
 * null when no run counted.
 */
export function percent(runs: number, failed: number): number | null {
  if (runs <= 0) return null
  return Math.floor(((runs - failed) / runs) * 10_000) / 100
}

const round2 = (n: number) => Math.round(n * 100) / 100

/** The windows of many monitors in one read (a page of the list). */
export async function uptimeWindows(
  store: HistoryStore,
  monitorIds: string[],
  now: number,
): Promise<Map<string, UptimeWindows>> {
  // whole hours: the hour holding the window's start is in it
  const since = UPTIME_WINDOWS.map((w) => bucketStart(now - UPTIME_WINDOW_MS[w], 'hour'))
  const totals = await store.rollupTotals(monitorIds, since)
  const out = new Map<string, UptimeWindows>()
  for (const id of monitorIds) {
    const t = totals.get(id)
    if (!t) {
      out.set(id, NONE)
      continue
    }
    const w = { ...NONE }
    UPTIME_WINDOWS.forEach((name, i) => (w[name] = percent(t[i].runs, t[i].failed_runs)))
    out.set(id, w)
  }
  return out
}

/**
 * The most saved runs in a window whose percentiles are taken from single runs (the default raw
 * runs kept on PostgreSQL; the embedded store keeps 100): past it, or when the runs kept no longer
 * reach back to the window's start, from the buckets' averages.
 */
export const EXACT_PERCENTILE_RUNS = 1000

/**
 * p50 and p95 of the window's response times: over the single runs when the raw runs kept hold
 * every saved run the buckets counted (a window of the last hours), else over the buckets'
 * averages weighted by their runs (rollups keep no single runs).
 */
async function responseTimePercentiles(
  store: RunLogStore,
  monitorId: string,
  buckets: RollupBucket[],
  from: number,
  to: number,
): Promise<UptimeReport['response_time_ms']> {
  const saved = buckets.reduce((n, b) => n + b.saved_runs, 0)
  if (saved > 0 && saved <= EXACT_PERCENTILE_RUNS) {
    const times = await store.responseTimes(monitorId, from, to, saved + 1)
    if (times.length === saved) {
      const runs = times.map((t): [number, number] => [t, 1])
      return { p50: weightedQuantile(runs, 0.5), p95: weightedQuantile(runs, 0.95) }
    }
  }
  const averages = buckets
    .filter((b) => b.saved_runs > 0)
    .map((b): [number, number] => [b.response_ms_sum / b.saved_runs, b.saved_runs])
  return { p50: weightedQuantile(averages, 0.5), p95: weightedQuantile(averages, 0.95) }
}

/** The value below which `q` of the weight lies, over (value, weight) pairs. */
function weightedQuantile(points: Array<[number, number]>, q: number): number | null {
  const total = points.reduce((s, [, w]) => s + w, 0)
  if (total === 0) return null
  const sorted = [...points].sort((a, b) => a[0] - b[0])
  let seen = 0
  for (const [v, w] of sorted) {
    seen += w
    if (seen >= q * total) return round2(v)
  }
  return round2(sorted[sorted.length - 1][0])
}

function bucketView(b: RollupBucket): UptimeBucket {
  return {
    start: new Date(b.start).toISOString(),
    uptime_percent: percent(b.runs, b.failed_runs),
    runs: b.runs,
    failed_runs: b.failed_runs,
    avg_response_time_ms: b.saved_runs > 0 ? round2(b.response_ms_sum / b.saved_runs) : null,
    avg_health_score: b.saved_runs > 0 ? round2(b.health_sum / b.saved_runs) : null,
  }
}

/** Why a report cannot be given: DomainError `invalid`, naming the field. */
const invalidQuery = (field: 'from' | 'to' | 'granularity', message: string) =>
  new DomainError('invalid', message, { field, subject: 'uptime query' })

/**
 * The report over [from, to): `from` is moved back to the start of its bucket (and reported so),
 * the figures are the sums of the buckets in the window. Response-time percentiles come from the
 * single runs where the runs kept cover the window, else from the buckets' averages.
 */
export async function uptimeReport(
  store: HistoryStore & RunLogStore,
  monitorId: string,
  q: UptimeQuery,
  now: number,
): Promise<UptimeReport> {
  const to = q.to !== undefined ? Date.parse(q.to) : now
  const requestedFrom = q.from !== undefined ? Date.parse(q.from) : to - DEFAULT_REPORT_MS
  const g: Granularity = q.granularity ?? 'day'
  if (!(requestedFrom < to)) throw invalidQuery('from', 'from must be before to')
  if (to - requestedFrom > DAILY_RETENTION_DAYS * DAY_MS)
    throw invalidQuery('from', `the window can be at most ${DAILY_RETENTION_DAYS} days long`)
  if (g === 'hour' && requestedFrom < bucketStart(now - HOURLY_RETENTION_DAYS * DAY_MS, 'hour'))
    throw invalidQuery(
      'granularity',
      `hourly buckets are kept ${HOURLY_RETENTION_DAYS} days: use granularity=day for older windows`,
    )
  const from = bucketStart(requestedFrom, g)
  const buckets = await store.rollups(monitorId, g, from, to)
  let runs = 0
  let failed = 0
  let downtime = 0
  for (const b of buckets) {
    runs += b.runs
    failed += b.failed_runs
    downtime += b.downtime_seconds
  }
  // the runs the buckets hold: to the end of the last bucket the window touches
  const end = bucketStart(to - 1, g) + BUCKET_MS[g]
  const response_time_ms = await responseTimePercentiles(store, monitorId, buckets, from, end)
  return {
    from: new Date(from).toISOString(),
    to: new Date(to).toISOString(),
    uptime_percent: percent(runs, failed),
    runs,
    failed_runs: failed,
    downtime_seconds: downtime,
    response_time_ms,
    buckets: buckets.map(bucketView),
  }
}
