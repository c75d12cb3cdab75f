/**
 * The one end of every run, whatever made it (a check, a beat, a missed deadline): the rules judge
 * its observation (rules.ts) unless a maintenance window covers it, and the new state, the run,
 * its events and its part of the uptime history are written together (`finishRun`); the events
 * then go to their channels. The monitor's kind says how alerts name its target and when it is
 * due next.
 */
import type { MonitorDefinitionStore, MonitorRecord } from '../store/monitors.js'
import { LOCAL, type EventRecord, type RunLogStore, type RunRecord } from '../store/run-log.js'
import type { ScheduleStore } from '../store/schedule.js'
import { eventRecords } from './alerts/index.js'
import { nextId } from './ids.js'
import { kindOf } from './kinds/index.js'
import type { RunEnd } from './kinds/kind.js'
import type { MaintenanceService } from './maintenance/index.js'
import { evaluate, isGoodRun } from './rules.js'
import { runHistory } from './uptime/index.js'

export interface RecorderDeps {
  monitors: Pick<MonitorDefinitionStore, 'getMonitorById'> &
    Pick<ScheduleStore, 'releaseClaim'> &
    Pick<RunLogStore, 'finishRun'>
  maintenance: MaintenanceService
  /** Hands raised events to their channels (the alert dispatcher). */
  dispatch: (m: MonitorRecord, events: EventRecord[]) => void
  now: () => number
}

export class RunRecorder {
  readonly record: (m: MonitorRecord, end: RunEnd, version?: string) => Promise<MonitorRecord | undefined> = (
    m,
    end,
    version,
  ) => this.finish(m, end, version)

  constructor(private readonly d: RecorderDeps) {}

  /**
   * Applies a run to its monitor as it is NOW (it may have changed meanwhile): to `m` while the
   * store says its `version` (a claim's) is unchanged, else to the monitor read again. Undefined
   * when the monitor is gone (a scheduled run's claim is given back).
   */
  private async finish(m: MonitorRecord, end: RunEnd, version?: string): Promise<MonitorRecord | undefined> {
    // changed (or deleted) since the claim: nothing was written; judged as it is now
    const saved = version === undefined ? undefined : await this.recordOn(m, end, version)
    if (saved) return saved
    const current = await this.d.monitors.getMonitorById(m.id)
    if (!current) {
      if (end.trigger === 'schedule') await this.d.monitors.releaseClaim(m.id)
      return undefined
    }
    return this.recordOn(current, end)
  }

  private async recordOn(current: MonitorRecord, end: RunEnd, ifVersion?: string) {
    const { obs, last } = end
    const kind = kindOf(current)
    const now = this.d.now()
    // inside a maintenance window the run is kept, but judges nothing: no state change, no alert
    const quiet = await this.d.maintenance.covers(current, end.startedAt)
    const out = quiet
      ? { state: current.state, memory: current.memory, events: [] }
      : evaluate({ ...current, target: kind.target(current) }, obs, now)
    const updated: MonitorRecord = {
      ...current,
      state: out.state,
      memory: out.memory,
      last_check: last ?? current.last_check,
      // a run that keeps no check: its response time, for /metrics as a check's would be
      ...(end.outcome === 'ok' ? { last_response_ms: end.responseMs } : {}),
      next_run_at: current.paused ? null : kind.nextRunAt(current, end, now),
      updated_at: new Date(now).toISOString(),
    }
    const run: RunRecord = {
      id: end.id ?? nextId(now),
      monitor_id: current.id,
      location: LOCAL,
      started_at: new Date(end.startedAt).toISOString(),
      outcome: end.outcome,
      trigger: end.trigger,
      check_id: last?.id ?? null,
      health_score: last?.health_score ?? null,
      response_time_ms: end.responseMs,
      state: current.paused ? 'paused' : quiet ? 'maintenance' : out.state,
      error: obs.kind === 'failed' ? obs.error : null,
      ...(end.assertions ? { assertions: end.assertions } : {}),
      ...(end.details ? { details: end.details } : {}),
    }
    const events = eventRecords(updated, current.paused ? 'paused' : current.state, out.events, last, now)
    // the incident's cause: the words of the monitor.down it raised
    const cause = out.events.find((e) => e.event === 'monitor.down')?.message ?? null
    const history = runHistory(current, out.state, { ok: isGoodRun(obs), cause }, quiet)
    const saved = await this.d.monitors.finishRun(updated, run, events, history, ifVersion)
    if (saved) this.d.dispatch(saved, events)
    return saved
  }
}
