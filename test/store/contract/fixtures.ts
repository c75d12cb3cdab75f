/** Records for the monitor parts of the storage contract (and the backends' own tests). */
import { nextId } from '../../../src/monitors/ids.js'
import { INITIAL_MEMORY } from '../../../src/monitors/rules.js'
import type { MonitorRecord } from '../../../src/store/monitors.js'
import type { EventRecord, RunRecord } from '../../../src/store/run-log.js'

export function monitor(user: string, next: number | null, over: Partial<MonitorRecord> = {}): MonitorRecord {
  const now = new Date().toISOString()
  return {
    id: nextId(),
    user_id: user,
    url: 'https://example.com/',
    name: 'example.com',
    interval_seconds: 60,
    paused: false,
    paused_reason: null,
    state: 'pending',
    last_check: null,
    next_run_at: next,
    created_at: now,
    updated_at: now,
    alerts: { down_after: 2, min_score: null },
    channels: [
      {
        id: nextId(),
        type: 'webhook',
        config: {},
        secrets: 'v1.x',
        masked: 'https://hooks.example.com/…/x',
        fingerprint: 'sha256:0',
      },
    ],
    memory: INITIAL_MEMORY,
    ...over,
  }
}

export function run(m: MonitorRecord, outcome: 'saved' | 'failed' = 'failed'): RunRecord {
  return {
    id: nextId(),
    monitor_id: m.id,
    location: 'local',
    started_at: new Date().toISOString(),
    outcome,
    trigger: 'schedule',
    check_id: null,
    health_score: null,
    response_time_ms: null,
    state: m.state,
    error: outcome === 'failed' ? { code: 'check_failed', message: 'refused' } : null,
  }
}

export function event(m: MonitorRecord): EventRecord {
  return {
    id: nextId(),
    monitor_id: m.id,
    user_id: m.user_id,
    event: 'monitor.down',
    occurred_at: new Date().toISOString(),
    message: 'down',
    previous_state: 'up',
    state: 'down',
    check: null,
    deliveries: m.channels.map((c) => ({
      channel_id: c.id,
      type: c.type,
      status: 'pending' as const,
      attempts: 0,
      last_attempt_at: null,
      last_error: null,
    })),
  }
}
