/**
 * What the dashboard's monitor pages show (docs/decisions.md#monitors-and-alerts): the API's views
 * of monitors, runs and events (monitors/views.ts), with assertions written as the CLI writes them.
 * ./monitors.ts makes them from the monitor service.
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
  /** Its tags, `name` or `name:value`, sorted. */
  tags: string[]
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
