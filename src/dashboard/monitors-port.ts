/**
 * What the dashboard needs from monitors (docs/decisions.md#monitors-and-alerts), in those wire shapes, for one user. The
 * monitors capability provides it (an adapter over its service, wired in `serve`); without one the
 * monitor pages say monitors are not available. Errors a user can fix are MonitorRejected.
 */
import type { MonitorType } from '../contract/monitors.js'

export interface MonitorView {
  id: string
  /** Its ref in a monitors-as-code file (sitehealth.yaml), or null. */
  ref: string | null
  /** Its type (contract/monitor-types/ says how each shows). */
  type: MonitorType
  /** null for a type without a url (heartbeat). */
  url: string | null
  /** Heartbeat monitors: how late a beat may be, seconds; null otherwise. */
  grace_seconds: number | null
  name: string
  interval_seconds: number
  paused: boolean
  state: 'pending' | 'up' | 'degraded' | 'down' | 'paused' | string
  last_check: {
    id: string
    health_score: number
    risk_level: string
    status: string
    created_at: string
  } | null
  next_run_at: string | null
  created_at: string
  alerts: { down_after: number; min_score: number | null }
  /** Percent up; null where no run counted yet. */
  uptime: { '24h': number | null; '7d': number | null; '30d': number | null }
  /** Where alerts go; targets masked as the API shows them. */
  channels: Array<{ id: string; type: string; target: string }>
  /** Each assertion as the CLI writes it (`status_code equals 200`). */
  assertions: string[]
}

/** What the edit form sends. */
export interface MonitorEdit {
  name: string
  url: string
  interval_seconds: number
  down_after: number
  /** null: no minimum. */
  min_score: number | null
  /** One assertion per line, as the CLI writes them. */
  assertions: string[]
  /** Heartbeat monitors only: the new grace, seconds (NaN when what was typed is not a number). */
  grace_seconds?: number
}

/** A monitor in the list: its view and its newest runs (newest first), for the bar of recent runs. */
export interface MonitorListItem extends MonitorView {
  recent: MonitorRunView[]
}

export interface MonitorRunView {
  started_at: string
  outcome: 'saved' | 'failed' | string
  check_id: string | null
  health_score: number | null
  response_time_ms: number | null
  error: string | null
  /** Each assertion the run checked, and whether it held. */
  assertions: Array<{ passed: boolean }>
}

/** A run that counts against the monitor: it failed, or one of its assertions did not hold. */
export const isFailing = (r: MonitorRunView) => r.outcome === 'failed' || r.assertions.some((a) => !a.passed)

export interface MonitorEventView {
  id: string
  event: string
  occurred_at: string
  message: string
  deliveries: Array<{ channel_id: string; status: string; attempts: number }>
}

/** A maintenance window that covers the monitor, by its current or next opening. */
export interface MaintenanceView {
  name: string
  starts_at: string
  ends_at: string
}

export class MonitorRejected extends Error {
  constructor(
    message: string,
    /** The page's status: 400 bad input, 409 the account's monitor cap, 429 its create rate. */
    readonly status = 400,
    /** With 429: seconds until another create may go through (the Retry-After header). */
    readonly retryAfterSec?: number,
  ) {
    super(message)
  }
}

export interface DashboardMonitors {
  /** Up to `limit` monitors, each with its newest `runs` runs. */
  list(userId: string, limit: number, runs?: number): Promise<MonitorListItem[]>
  create(
    userId: string,
    body: { url: string; name?: string; interval_seconds?: number },
  ): Promise<MonitorView>
  /** A heartbeat monitor; its push token comes back this once (the page shows the push URL once). */
  createHeartbeat(
    userId: string,
    body: { name: string; interval_seconds: number; grace_seconds: number },
  ): Promise<{ monitor: MonitorView; push_token: string }>
  /** Undefined for an unknown id and for another user's monitor alike. */
  get(userId: string, id: string): Promise<MonitorView | undefined>
  setPaused(userId: string, id: string, paused: boolean): Promise<MonitorView | undefined>
  /** Changes what the form holds; undefined when there is no such monitor. */
  update(userId: string, id: string, edit: MonitorEdit): Promise<MonitorView | undefined>
  /**
   * Removes the channels named and adds one (type and its URL, or address for email). A new
   * webhook channel's signing secret comes back once.
   */
  setChannels(
    userId: string,
    id: string,
    change: { remove: string[]; add?: { type: string; target: string } },
  ): Promise<{ monitor: MonitorView; secret?: string } | undefined>
  /** False when there was no such monitor. */
  remove(userId: string, id: string): Promise<boolean>
  /** Runs it now (1 credit); undefined when there is no such monitor; MonitorRejected when it cannot run. */
  runNow(userId: string, id: string): Promise<MonitorView | undefined>
  /** Newest first. */
  runs(userId: string, id: string, limit: number): Promise<MonitorRunView[]>
  events(userId: string, id: string, limit: number): Promise<MonitorEventView[]>
  /** Maintenance windows covering it, open now or to come, soonest first. */
  maintenance(userId: string, id: string): Promise<MaintenanceView[]>
}
