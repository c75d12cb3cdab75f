/**
 * What the dashboard needs from monitors (docs/decisions.md#monitors-and-alerts), in those wire shapes, for one user. The
 * monitors capability provides it (an adapter over its service, wired in `serve`); without one the
 * monitor pages say monitors are not available. Errors a user can fix are MonitorRejected.
 */
export interface MonitorView {
  id: string
  /** Its ref in a monitors-as-code file (sitehealth.yaml), or null. */
  ref: string | null
  /** null for heartbeat monitors. */
  url: string | null
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
}

export interface MonitorRunView {
  started_at: string
  outcome: 'saved' | 'failed' | string
  check_id: string | null
  health_score: number | null
  response_time_ms: number | null
  error: string | null
}

export interface MonitorEventView {
  id: string
  event: string
  occurred_at: string
  message: string
  deliveries: Array<{ channel_id: string; status: string; attempts: number }>
}

export class MonitorRejected extends Error {}

export interface DashboardMonitors {
  list(userId: string, limit: number): Promise<MonitorView[]>
  create(
    userId: string,
    body: { url: string; name?: string; interval_seconds?: number },
  ): Promise<MonitorView>
  /** Undefined for an unknown id and for another user's monitor alike. */
  get(userId: string, id: string): Promise<MonitorView | undefined>
  setPaused(userId: string, id: string, paused: boolean): Promise<MonitorView | undefined>
  /** Newest first. */
  runs(userId: string, id: string, limit: number): Promise<MonitorRunView[]>
  events(userId: string, id: string, limit: number): Promise<MonitorEventView[]>
}
