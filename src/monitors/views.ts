/** From stored records to the wire shapes of docs/decisions.md#monitors-and-alerts. */
import { channelFingerprint } from '../contract/fingerprint.js'
import type { Monitor, MonitorEvent, MonitorRun } from '../contract/monitors.js'
import type { EventRecord, MonitorRecord, RunRecord } from '../store/monitors.js'
import { maskTarget } from './channels/format.js'

/** `secrets`: channel id → secret, only in the response that created those channels. */
export function monitorView(m: MonitorRecord, secrets: Map<string, string> = new Map()): Monitor {
  return {
    id: m.id,
    ref: m.ref ?? null,
    url: m.url,
    name: m.name,
    interval_seconds: m.interval_seconds,
    paused: m.paused,
    paused_reason: m.paused ? m.paused_reason : null,
    state: m.paused ? 'paused' : m.state,
    last_check: m.last_check,
    next_run_at: m.next_run_at === null ? null : new Date(m.next_run_at).toISOString(),
    created_at: m.created_at,
    updated_at: m.updated_at,
    alerts: m.alerts,
    channels: m.channels.map((c) => ({
      id: c.id,
      type: c.type,
      target: maskTarget(c.type, c.target),
      name: c.name ?? null,
      source: c.source ?? null,
      fingerprint: channelFingerprint(c.type, c.target),
      ...(secrets.has(c.id) ? { secret: secrets.get(c.id)! } : {}),
    })),
  }
}

export function runView(r: RunRecord): MonitorRun {
  const { monitor_id: _m, ...run } = r
  return run
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

