/**
 * What a finished run adds to its monitor's history (docs/decisions.md#monitoring-depth): whether
 * it passed, whether it counts, and the incident it opens or closes. Pure; the store commits it
 * with the run.
 */
import type { MonitorState } from '../../contract/monitors.js'
import type { RunHistory } from '../../store/history.js'

export interface RunJudgement {
  /** The run passed: answered, reachable, every assertion held. */
  ok: boolean
  /** Why it failed (the alert's words when it raised monitor.down). */
  cause: string | null
}

export function runHistory(
  prev: { state: MonitorState; interval_seconds: number },
  next: MonitorState,
  run: RunJudgement,
  /** Inside a maintenance window the run is kept but not counted. */
  inMaintenance = false,
): RunHistory {
  const h: RunHistory = { ok: run.ok, counted: !inMaintenance, interval_seconds: prev.interval_seconds }
  if (next === 'down' && prev.state !== 'down') h.incident = { open: run.cause ?? 'down' }
  // pending too: a monitor whose URL changed while down starts over, and its incident ends
  else if (next !== 'down' && (prev.state === 'down' || prev.state === 'pending'))
    h.incident = { close: true }
  return h
}
