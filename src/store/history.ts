/**
 * History, a monitor concern of the storage interface (monitors.ts; docs/decisions.md#monitoring-depth):
 * each monitor's runs summed into hourly and daily buckets, and its incidents (down → up), kept
 * long after the raw runs (run-log.ts) are gone. A run adds to them in its `finishRun`; the rules
 * of what it adds, when an incident opens and closes, and how long each is kept are written once
 * above the backends (rules/).
 */

/**
 * What a finished run adds to its monitor's history (docs/decisions.md#monitoring-depth), handed to
 * `finishRun` with the run so the rollups and incidents commit with it: a run is counted once.
 */
export interface RunHistory {
  /** The run passed: the site answered, reachably, and every assertion held. */
  ok: boolean
  /** False inside a maintenance window: the run is kept, but not counted in uptime. */
  counted: boolean
  /** The monitor's interval: the downtime a failed counted run stands for. */
  interval_seconds: number
  /** This run took the monitor down (open an incident, with its cause) or back from down (close it). */
  incident?: { open: string } | { close: true }
}

export type RollupGranularity = 'hour' | 'day'

/*
 * Buckets are kept per location (the one a run ran at, rules/location.ts): a monitor watched from
 * several places has a bucket of each for an hour. The reads below answer for the monitor as a
 * whole, the buckets of every location summed, unless they name a location.
 */

/** One hour or day of a monitor's runs, summed (the uptime figures come from these). */
export interface RollupBucket {
  granularity: RollupGranularity
  /** Epoch ms of the bucket's start (UTC hour or day). */
  start: number
  /** Counted runs, failed counted runs, runs excluded (maintenance). */
  runs: number
  failed_runs: number
  excluded_runs: number
  /** Counted runs that have a response time and a health score (a saved check), and their sums. */
  saved_runs: number
  response_ms_sum: number
  health_sum: number
  /** Failed counted runs × their interval. */
  downtime_seconds: number
}

/** A bucket of one location (what `db import` copies). */
export interface LocatedBucket extends RollupBucket {
  location: string
}

/** Runs and failed runs of consecutive buckets, oldest first (HistoryStore.rollupCountsOf). */
export interface RollupCounts {
  runs: Uint32Array
  failed_runs: Uint32Array
}

/** Sums of hourly buckets from a start to now, per window (the monitor view's `uptime`). */
export interface RollupTotals {
  runs: number
  failed_runs: number
}

/** A down → up period of a monitor, kept 400 days. */
export interface IncidentRecord {
  id: string
  monitor_id: string
  /** The location of the run that opened it (rules/location.ts). */
  location: string
  started_at: string
  /** null while still down. */
  ended_at: string | null
  /** What took it down (the failed run's error or assertion). */
  cause: string
}

export interface HistoryStore {
  /**
   * The monitor's buckets of one granularity whose start is in [fromMs, toMs), oldest first: of
   * every location summed, or of `location` alone.
   */
  rollups(
    monitorId: string,
    granularity: RollupGranularity,
    fromMs: number,
    toMs: number,
    location?: string,
  ): Promise<RollupBucket[]>
  /**
   * `rollups` for several monitors in one read (a status page's 50): by monitor id, each list
   * oldest first; a monitor without buckets in the range is absent.
   */
  rollupsOf(
    monitorIds: string[],
    granularity: RollupGranularity,
    fromMs: number,
    toMs: number,
  ): Promise<Map<string, RollupBucket[]>>
  /**
   * A lean `rollupsOf` for a page's bars: each monitor's runs and failed runs of `count` buckets
   * from `fromMs` (a bucket's start), oldest first, 0 where there is no bucket; a monitor without
   * history in the range is absent.
   */
  rollupCountsOf(
    monitorIds: string[],
    granularity: RollupGranularity,
    fromMs: number,
    count: number,
  ): Promise<Map<string, RollupCounts>>
  /**
   * For each monitor, the sums of its hourly buckets starting at or after each of `sinceMs`
   * (one entry per since, in order); monitors without runs are absent.
   */
  rollupTotals(monitorIds: string[], sinceMs: number[]): Promise<Map<string, RollupTotals[]>>
  /** The monitor's incidents that were open at some time in [sinceMs, now], newest first. */
  incidents(monitorId: string, sinceMs: number): Promise<IncidentRecord[]>
  /** `incidents` for several monitors in one read: by monitor id; a monitor without any is absent. */
  incidentsOf(monitorIds: string[], sinceMs: number): Promise<Map<string, IncidentRecord[]>>
  /**
   * Drops the buckets and closed incidents past retention at `now` of every monitor, including
   * those that stopped running (a run prunes only its own monitor's); returns how many went.
   */
  pruneHistory(now: number): Promise<number>
}
