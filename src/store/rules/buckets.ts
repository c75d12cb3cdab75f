/**
 * The arithmetic of monitor history shared by every backend (docs/decisions.md#monitoring-depth):
 * bucket boundaries and retention. Buckets are UTC hours and UTC days, keyed by their start in
 * epoch ms.
 */
import { DAILY_RETENTION_DAYS, HOURLY_RETENTION_DAYS } from '../../contract/monitoring.js'
import type { RollupGranularity } from '../history.js'
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
