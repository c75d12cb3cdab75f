/** From stored records to the wire shapes of docs/decisions.md#monitors-and-alerts and #monitoring-depth. */
import type { UptimeWindows } from '../contract/monitoring.js'
import type { Monitor, MonitorEvent, MonitorRun, MonitorState } from '../contract/monitors.js'
import { alertsOf, type MonitorRecord } from '../store/monitors.js'
import { type EventRecord, type RunRecord } from '../store/run-log.js'
import { channelView } from './channels/records.js'
import { kindOf, type KindFields } from './kinds/index.js'

/** A type's own fields on the wire, for the types they are not: null. A kind's `view` fills its own. */
const NOT_OWN: KindFields = {
  url: null,
  grace_seconds: null,
  host: null,
  port: null,
  timeout_seconds: null,
  starttls: null,
  record_type: null,
  resolver: null,
  count: null,
}

export const NO_UPTIME: UptimeWindows = { '24h': null, '7d': null, '30d': null }

export interface MonitorViewExtras {
  /** channel id → secret, only in the response that created those channels. */
  secrets?: Map<string, string>
  /** The push URL of a heartbeat monitor, only in the response that created it. */
  pushUrl?: string
  uptime?: UptimeWindows
  /** A maintenance window covers the monitor now. */
  inMaintenance?: boolean
}

export function monitorState(m: MonitorRecord, inMaintenance = false): MonitorState {
  if (m.paused) return 'paused'
  return inMaintenance ? 'maintenance' : m.state
}

export function monitorView(m: MonitorRecord, x: MonitorViewExtras = {}): Monitor {
  const kind = kindOf(m)
  const own = { ...NOT_OWN, ...kind.view(m) }
  const secrets = x.secrets ?? new Map<string, string>()
  return {
    id: m.id,
    type: kind.type,
    ref: m.ref ?? null,
    url: own.url,
    name: m.name,
    interval_seconds: m.interval_seconds,
    pagespeed: m.pagespeed ?? 'estimate',
    grace_seconds: own.grace_seconds,
    host: own.host,
    port: own.port,
    timeout_seconds: own.timeout_seconds,
    starttls: own.starttls,
    record_type: own.record_type,
    resolver: own.resolver,
    count: own.count,
    paused: m.paused,
    paused_reason: m.paused ? m.paused_reason : null,
    state: monitorState(m, x.inMaintenance),
    last_check: m.last_check,
    next_run_at: m.next_run_at === null ? null : new Date(m.next_run_at).toISOString(),
    created_at: m.created_at,
    updated_at: m.updated_at,
    alerts: alertsOf(m),
    channels: m.channels.map((c) => channelView(c, secrets.get(c.id))),
    assertions: m.assertions ?? [],
    tags: m.tags ?? [],
    uptime: x.uptime ?? NO_UPTIME,
    ...(x.pushUrl !== undefined ? { push_url: x.pushUrl } : {}),
  }
}

export function runView(r: RunRecord): MonitorRun {
  const { monitor_id: _m, location: _l, assertions, details, ...run } = r
  return { ...run, assertions: assertions ?? [], details: details ?? null }
}

export function eventView(e: EventRecord): MonitorEvent {
  return {
    id: e.id,
    event: e.event,
    occurred_at: e.occurred_at,
    message: e.message,
    previous_state: e.previous_state,
    state: e.state,
    check_id: e.check?.id ?? null,
    deliveries: e.deliveries,
  }
}
