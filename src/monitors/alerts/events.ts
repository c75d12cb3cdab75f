/** The event records a run or a pause raises, each with one pending delivery per channel. */
import type { Delivery, LastCheck, MonitorState } from '../../contract/monitors.js'
import type { EventRecord } from '../../store/run-log.js'
import type { MonitorRecord } from '../../store/monitors.js'
import { nextId } from '../ids.js'
import type { RaisedEvent } from '../rules.js'

export function eventRecords(
  m: MonitorRecord,
  previous: MonitorState,
  raised: RaisedEvent[],
  check: LastCheck | null,
  now: number,
): EventRecord[] {
  const state: MonitorState = m.paused ? 'paused' : m.state
  return raised.map((r) => ({
    id: nextId(now),
    monitor_id: m.id,
    user_id: m.user_id,
    event: r.event,
    occurred_at: new Date(now).toISOString(),
    message: r.message,
    previous_state: previous,
    state,
    check,
    deliveries: m.channels.map((c): Delivery => ({
      channel_id: c.id,
      type: c.type,
      status: 'pending',
      attempts: 0,
      last_attempt_at: null,
      last_error: null,
    })),
  }))
}
