/**
 * Monitor definitions, the first of the five monitor concerns of the storage interface
 * (docs/decisions.md#monitors-and-alerts): the monitors themselves, scoped to their owner. The
 * others are the schedule (schedule.ts), the run log (run-log.ts), the delivery queue
 * (delivery-queue.ts) and history (history.ts); a backend implements all five (types.ts
 * `MonitorStore`; src/store/embedded/monitors.ts, src/store/postgres/monitors.ts), a caller asks
 * for the ones it uses. Durability contract as for the rest of the store: a resolved write is on
 * disk.
 */
import type { PagespeedMethod } from '../contract/schemas.js'
import type { Assertion } from '../contract/monitoring.js'
import type { AlertsView, LastCheck, MonitorState, MonitorType } from '../contract/monitors.js'
import type { ChannelRecord } from './channels.js'
import type { StartTls } from '../contract/monitor-target.js'
import type { DnsRecordType } from '../contract/dns.js'

export type { ChannelRecord } from './channels.js'

/** Alert settings as stored: records made before flap control lack the flap-control fields (alertsOf). */
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
  /** Consecutive good runs while down (alerts.recover_after); absent in older records. */
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
  /** Types whose runs keep no check (tcp, tls, dns, ping): the response time of the last ok run (/metrics). */
  last_response_ms?: number | null
  /** Epoch ms of the next scheduled run; null while paused. */
  next_run_at: number | null
  created_at: string
  updated_at: string
  alerts: StoredAlerts
  channels: ChannelRecord[]
  memory: MonitorMemory
  /** Absent in records made before assertions: none. */
  assertions?: Assertion[]
  /** Its tags, `name` or `name:value`, each once, sorted (absent in records older than the field: none). */
  tags?: string[]
  /** Heartbeat monitors: seconds a beat may be late past the interval. */
  grace_seconds?: number | null
  /** Heartbeat monitors: SHA-256 hex of the push token (the token itself is shown once). */
  push_hash?: string | null
  /** Types that watch a host (tcp, tls): the host, normalised (contract/monitor-target.ts). */
  host?: string
  port?: number
  /** Types that watch a host: seconds a run may take. */
  timeout_seconds?: number
  /** tls monitors: the protocol upgraded with STARTTLS; null or absent: TLS from the start. */
  starttls?: StartTls | null
  /** dns monitors: the record type queried. */
  record_type?: DnsRecordType
  /** dns monitors: the resolver asked, `IP[:port]` as contract/dns.ts writes it; null or absent: the system's. */
  resolver?: string | null
  /** ping monitors: echo requests a run sends. */
  count?: number
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

/** A page of a user's monitors, only those matching every tag of `tags` (contract/tags.ts `tagsMatch`). */
export interface MonitorListQuery extends PageOptions {
  tags?: string[]
}

export interface CreateMonitorOptions {
  /**
   * The most monitors the user may have: with as many already, MonitorLimitError and nothing
   * written. Counted and written as one step, so creates racing each other cannot pass it.
   */
  maxPerUser?: number
}

export interface MonitorDefinitionStore {
  /**
   * Throws DuplicateRefError when another monitor of the user has the same ref, MonitorLimitError
   * when the user has `maxPerUser` monitors already.
   */
  createMonitor(m: MonitorRecord, opts?: CreateMonitorOptions): Promise<MonitorRecord>
  /** How many monitors the user has, of every type, paused ones too (without reading them). */
  countMonitors(userId: string): Promise<number>
  /** The user's monitor, or undefined (unknown or another user's: the same answer). */
  getMonitor(userId: string, id: string): Promise<MonitorRecord | undefined>
  /** Any user's monitor by id (the scheduler). */
  getMonitorById(id: string): Promise<MonitorRecord | undefined>
  /** Several monitors of any user in one read (a status page's), in the order of `ids`; unknown ids skipped. */
  getMonitorsById(ids: string[]): Promise<MonitorRecord[]>
  /** Newest first; with `tags`, only the monitors matching each (`?tag=env` matches `env:prod`). */
  listMonitors(userId: string, opts: MonitorListQuery): Promise<Page<MonitorRecord>>
  /** Every monitor of a user (credit pauses and resumes). */
  userMonitors(userId: string): Promise<MonitorRecord[]>
  /**
   * Replaces the stored monitor (same id and user); undefined when it was deleted meanwhile.
   * Throws DuplicateRefError when another monitor of the user has the same ref.
   */
  updateMonitor(m: MonitorRecord): Promise<MonitorRecord | undefined>
  /** Deletes the monitor with its runs, events and history. */
  deleteMonitor(userId: string, id: string): Promise<boolean>
  /** Users with monitors paused for lack of credits, for the resume sweep. */
  creditPausedUsers(): Promise<string[]>
}
