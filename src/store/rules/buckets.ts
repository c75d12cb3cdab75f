/**
 * The rules of monitor history, written once above the backends (docs/decisions.md#monitoring-depth):
 * bucket boundaries, what a run adds to its buckets, and how long buckets and incidents are kept.
 * Buckets are UTC hours and UTC days, keyed by their start in epoch ms.
 */
import { DAILY_RETENTION_DAYS, HOURLY_RETENTION_DAYS } from '../../contract/monitoring.js'
import type { RollupBucket, RollupGranularity, RunHistory } from '../history.js'
import type { RunRecord } from '../run-log.js'

export const HOUR_MS = 3_600_000
export const DAY_MS = 86_400_000
export const BUCKET_MS: Record<RollupGranularity, number> = { hour: HOUR_MS, day: DAY_MS }
/** How long buckets are kept, by granularity; incidents are kept as long as daily buckets. */
export const RETENTION_MS: Record<RollupGranularity, number> = {
  hour: HOURLY_RETENTION_DAYS * DAY_MS,
  day: DAILY_RETENTION_DAYS * DAY_MS,
}
export const INCIDENT_RETENTION_MS = DAILY_RETENTION_DAYS * DAY_MS

/** The earliest bucket start of `g` still kept at `now`: reads start no earlier than this. */
export const keptFrom = (g: RollupGranularity, now: number): number => now - RETENTION_MS[g]

/** Closed incidents that ended before this are past retention at `now`. */
export const incidentsKeptFrom = (now: number): number => now - INCIDENT_RETENTION_MS

/** The start of the bucket holding `ms`. */
export const bucketStart = (ms: number, g: RollupGranularity): number =>
  ms - (((ms % BUCKET_MS[g]) + BUCKET_MS[g]) % BUCKET_MS[g])

/** A run's response time as rolled up: whole ms, never negative. */
export const rollupMs = (ms: number | null): number | null =>
  ms === null ? null : Math.max(0, Math.round(ms))

/**
 * The response time a raw run adds to its buckets' saved runs (rollupMs), or null: only a run
 * counted in uptime (not inside a maintenance window) with a saved check's time and score adds one.
 */
export const savedRunMs = (
  r: Pick<RunRecord, 'state' | 'response_time_ms' | 'health_score'>,
): number | null =>
  r.state === 'maintenance' || r.health_score === null ? null : rollupMs(r.response_time_ms)

/** What one run adds to each bucket it falls in (its hour and its day alike). */
export interface Contribution {
  runs: number
  failed_runs: number
  excluded_runs: number
  saved_runs: number
  response_ms_sum: number
  health_sum: number
  downtime_seconds: number
}

/**
 * The bucket contribution of a run: inside a maintenance window (not counted) only an excluded
 * run; else a run, failed with its interval as downtime when it did not pass, and saved with its
 * response time (rollupMs) and health score when it has both.
 */
export function contribution(
  run: Pick<RunRecord, 'response_time_ms' | 'health_score'>,
  h: RunHistory,
): Contribution {
  if (!h.counted)
    return {
      runs: 0,
      failed_runs: 0,
      excluded_runs: 1,
      saved_runs: 0,
      response_ms_sum: 0,
      health_sum: 0,
      downtime_seconds: 0,
    }
  const rt = rollupMs(run.response_time_ms)
  const saved = rt !== null && run.health_score !== null
  return {
    runs: 1,
    failed_runs: h.ok ? 0 : 1,
    excluded_runs: 0,
    saved_runs: saved ? 1 : 0,
    response_ms_sum: saved ? rt : 0,
    health_sum: saved ? run.health_score! : 0,
    downtime_seconds: h.ok ? 0 : h.interval_seconds,
  }
}

const SUMMED = [
  'runs',
  'failed_runs',
  'excluded_runs',
  'saved_runs',
  'response_ms_sum',
  'health_sum',
  'downtime_seconds',
] as const

/**
 * Buckets of several locations summed into the monitor's own, oldest first (each list oldest
 * first): the reads that name no location (history.ts).
 */
export function sumBuckets(lists: RollupBucket[][]): RollupBucket[] {
  if (lists.length === 1) return lists[0]
  const byStart = new Map<number, RollupBucket>()
  for (const list of lists)
    for (const b of list) {
      const t = byStart.get(b.start)
      if (!t) byStart.set(b.start, { ...b })
      else for (const k of SUMMED) t[k] += b[k]
    }
  return [...byStart.values()].sort((a, b) => a.start - b.start)
}
