/**
 * The monitor concern of the storage interface (docs/decisions.md#monitors-and-alerts): monitors, their runs and events,
 * the deliveries of each event, and the next-run times the scheduler claims. Every backend
 * implements it in its own file (src/store/embedded/monitors.ts, …). Durability contract as for the
 * rest of the store: a resolved write is on disk.
 */
import type { PagespeedMethod } from '../contract/schemas.js'
import type { Assertion, AssertionResult } from '../contract/monitoring.js'
import type {
  AlertsView,
  ChannelType,
  Delivery,
  EventName,
  LastCheck,
  MonitorRun,
  MonitorState,
  MonitorType,
} from '../contract/monitors.js'

export interface ChannelRecord {
  id: string
  type: ChannelType
  /** The URL (webhook, slack, discord, teams) or address (email), unmasked. */
  target: string
  /** Webhook signing secret, sealed with the server's secret key (src/shared/secret-box.ts). */
  secret_sealed: string | null
  /** Its name in a monitors-as-code file (absent in records older than the field). */
  name?: string | null
  /** The target as written in that file, `${VAR}` placeholders unresolved. */
  source?: string | null
}

/** Alert settings as stored: records made before §11 lack the flap-control fields (alertsOf). */
export type StoredAlerts = Pick<AlertsView, 'down_after' | 'min_score'> &
  Partial<Pick<AlertsView, 'recover_after' | 'remind_every_minutes'>>

/** What the event rules remember between runs, so a change alerts once and a restart alerts never. */
export interface MonitorMemory {
  /** Consecutive failed runs (check failed, or reachability needs review). */
  failures: number
  /** Certificate thresholds (days) already announced for the current certificate. */
  cert_sent: number[]
  cert_invalid: boolean
  below_min_score: boolean
  /** Security headers present at the last saved run; null before the first. */
  headers: string[] | null
  /** Consecutive good runs while down (alerts.recover_after); absent in records before §11. */
  successes?: number
  /** Epoch ms of the last monitor.down / monitor.still_down (alerts.remind_every_minutes). */
  down_alerted_at?: number | null
  /** Regression episodes in progress (announced once each, cleared when back within bounds). */
  score_regressed?: boolean
  response_time_regressed?: boolean
  /**
   * The run history the regression rules compare against (src/monitors/regression.ts), packed
   * (`packSketch`: a short base64 string); records stored before packing hold the JSON form.
   */
  regression?: string | RegressionSketch
}

/**
 * A monitor's recent history in a few hundred numbers (docs/decisions.md#monitoring-depth): per
 * UTC day (today and the 7 before) how many good runs had each health score and each response-time
 * bin, and the last hour's response times. Absent before the first good run.
 */
export interface RegressionSketch {
  days: Array<{
    /** The UTC day: epoch ms / 86,400,000, floored. */
    d: number
    /** Health scores and their runs, flat: [score, runs, score, runs, …]. */
    s: number[]
    /** Response-time bins (src/monitors/regression.ts) and their runs, flat as `s`. */
    r: number[]
  }>
  /** The last hour's good runs, oldest first: [epoch seconds, response time ms]. */
  recent: Array<[number, number]>
}

export interface MonitorRecord {
  id: string
  user_id: string
  /** Absent in records made before heartbeat monitors: http. */
  type?: MonitorType
  /** Its ref in a monitors-as-code file, unique per user (absent in records older than the field). */
  ref?: string | null
  /** The checked URL; '' for heartbeat monitors. */
  url: string
  name: string
  interval_seconds: number
  /** docs/decisions.md#performance-lab-and-estimate; absent on monitors stored before it existed (read as 'estimate'). */
  pagespeed?: PagespeedMethod
  paused: boolean
  paused_reason: 'user' | 'credits' | null
  /** The state before a pause (restored on resume); the wire state is `paused` while paused. */
  state: Exclude<MonitorState, 'paused' | 'maintenance'>
  last_check: LastCheck | null
  /** Epoch ms of the next scheduled run; null while paused. */
  next_run_at: number | null
  created_at: string
  updated_at: string
  alerts: StoredAlerts
  channels: ChannelRecord[]
  memory: MonitorMemory
  /** Absent in records made before assertions: none. */
  assertions?: Assertion[]
  /** Heartbeat monitors: seconds a beat may be late past the interval. */
  grace_seconds?: number | null
  /** Heartbeat monitors: SHA-256 hex of the push token (the token itself is shown once). */
  push_hash?: string | null
}

/** A monitor's alert settings with the defaults of fields added after it was stored. */
export function alertsOf(m: Pick<MonitorRecord, 'alerts'>): AlertsView {
  return {
    down_after: m.alerts.down_after,
    min_score: m.alerts.min_score,
    recover_after: m.alerts.recover_after ?? 1,
    remind_every_minutes: m.alerts.remind_every_minutes ?? null,
  }
}

export interface RunRecord extends Omit<MonitorRun, 'assertions'> {
  monitor_id: string
  /** Absent when the monitor had no assertions (and in runs recorded before them). */
  assertions?: AssertionResult[]
}

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

/** Runs and failed runs of consecutive buckets, oldest first (MonitorStore.rollupCountsOf). */
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
  started_at: string
  /** null while still down. */
  ended_at: string | null
  /** What took it down (the failed run's error or assertion). */
  cause: string
}

export interface EventRecord {
  id: string
  monitor_id: string
  user_id: string
  event: EventName
  occurred_at: string
  message: string
  previous_state: MonitorState
  state: MonitorState
  check: LastCheck | null
  deliveries: Delivery[]
}

export interface Page<T> {
  items: T[]
  /** The id of the last item when more (older) items exist, else null. */
  next: string | null
}

export interface PageOptions {
  limit: number
  /** Only items whose id sorts strictly before this one (ids are time-ordered UUIDv7). */
  before?: string
}

/** A due run handed to one scheduler: the monitor as stored and the time it was due. */
export interface Claim {
  monitor: MonitorRecord
  due_at: number
  /**
   * The stored monitor's version as claimed (PostgreSQL: the row's xmin), when the backend has
   * one: `finishRun` with it writes only if nothing changed the monitor since, which saves reading
   * it again at the end of the run.
   */
  version?: string
}

export interface MonitorStore {
  /** Throws DuplicateRefError when another monitor of the user has the same ref. */
  createMonitor(m: MonitorRecord): Promise<MonitorRecord>
  /** The user's monitor, or undefined (unknown or another user's: the same answer). */
  getMonitor(userId: string, id: string): Promise<MonitorRecord | undefined>
  /** Any user's monitor by id (the scheduler). */
  getMonitorById(id: string): Promise<MonitorRecord | undefined>
  /** Several monitors of any user in one read (a status page's), in the order of `ids`; unknown ids skipped. */
  getMonitorsById(ids: string[]): Promise<MonitorRecord[]>
  /** Newest first. */
  listMonitors(userId: string, opts: PageOptions): Promise<Page<MonitorRecord>>
  /** Every monitor of a user (credit pauses and resumes). */
  userMonitors(userId: string): Promise<MonitorRecord[]>
  /**
   * Replaces the stored monitor (same id and user); undefined when it was deleted meanwhile.
   * Throws DuplicateRefError when another monitor of the user has the same ref.
   */
  updateMonitor(m: MonitorRecord): Promise<MonitorRecord | undefined>
  /** Deletes the monitor with its runs and events. */
  deleteMonitor(userId: string, id: string): Promise<boolean>

  /**
   * Hands out monitors whose next run is due at `now` (at most `max`), each to one caller only:
   * a claimed monitor is not handed out again until `finishRun` or `releaseClaim`, or (shared
   * backends) until `leaseMs` have passed: the instance holding it died. With `aheadMs`, also
   * those due within that many ms after `now` (a backend may hand out only those due at `now`).
   */
  claimDue(now: number, max: number, leaseMs?: number, aheadMs?: number): Promise<Claim[]>
  /** The earliest next_run_at not claimed (for the scheduler's timer); null when none. */
  nextDueAt(): Promise<number | null>
  /** Give a claim back unrun (shutdown): its next_run_at is unchanged, so it is not skipped. */
  releaseClaim(monitorId: string): Promise<void>
  /**
   * The end of a run, in one durable step: the monitor's new state and next_run_at, the run for
   * its history, and the events it raised. Ends the claim, if any. With `history`, the run is
   * added to the monitor's hourly and daily rollups (once, even if the write is retried) and an
   * incident is opened or closed; rollups older than their retention are dropped.
   *
   * With `ifVersion` (a claim's `version`), nothing is written unless the stored monitor is still
   * that version: undefined then, as for a monitor deleted meanwhile (the caller reads it again).
   * Backends without versions ignore it.
   */
  finishRun(
    m: MonitorRecord,
    run: RunRecord,
    events: EventRecord[],
    history?: RunHistory,
    ifVersion?: string,
  ): Promise<MonitorRecord | undefined>
  /** Events raised outside a run (credits.exhausted) with the monitor's new state. */
  recordEvents(m: MonitorRecord, events: EventRecord[]): Promise<MonitorRecord | undefined>

  listRuns(monitorId: string, opts: PageOptions): Promise<Page<RunRecord>>
  listEvents(monitorId: string, opts: PageOptions): Promise<Page<EventRecord>>
  /** Replaces one delivery of an event (by channel id). */
  updateDelivery(monitorId: string, eventId: string, delivery: Delivery): Promise<void>
  /**
   * Takes, for `leaseMs`, the delivery lease of every event with a delivery still pending whose
   * lease is free (never taken, given back, or expired: its holder died), or of just `eventIds`;
   * returns the events taken. Whoever holds an event's lease sends its alerts, so no alert goes
   * out twice, across instances on PostgreSQL too.
   */
  claimDeliveries(leaseMs: number, eventIds?: string[]): Promise<EventRecord[]>
  /** Gives leases back (a stop with deliveries unfinished): the next sweep resumes them at once. */
  releaseDeliveries(eventIds: string[]): Promise<void>
  /**
   * The response times of the raw runs kept that started in [fromMs, toMs) and count toward
   * uptime with a saved check (not inside a maintenance window), at most `max`, in no order: an
   * uptime report takes its percentiles from single runs when the runs kept cover its window.
   */
  responseTimes(monitorId: string, fromMs: number, toMs: number, max: number): Promise<number[]>
  /** The monitor's buckets of one granularity whose start is in [fromMs, toMs), oldest first. */
  rollups(
    monitorId: string,
    granularity: RollupGranularity,
    fromMs: number,
    toMs: number,
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
  /** Monitors paused for lack of credits, for the resume sweep. */
  creditPausedUsers(): Promise<string[]>
  /**
   * Drops the buckets and closed incidents past retention at `now` of every monitor, including
   * those that stopped running (a run prunes only its own monitor's); returns how many went.
   */
  pruneHistory(now: number): Promise<number>

  close(): Promise<void>
}
