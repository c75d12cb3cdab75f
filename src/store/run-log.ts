/**
 * The run log, a monitor concern of the storage interface (monitors.ts): each monitor's newest
 * runs and events, the end of a run written in one durable step with the monitor's new state,
 * its events and (history.ts) what it adds to the monitor's history.
 */
import type { AssertionResult } from '../contract/monitoring.js'
import type { Delivery, EventName, LastCheck, MonitorRun, MonitorState } from '../contract/monitors.js'
import type { RunHistory } from './history.js'
import type { MonitorRecord, Page, PageOptions } from './monitors.js'

export { LOCAL } from './rules/location.js'

export interface RunRecord extends Omit<MonitorRun, 'assertions' | 'details'> {
  monitor_id: string
  /**
   * The name of the location it ran at (rules/location.ts): `local` for a run of the `serve`
   * process itself, and for every run stored before locations. Kept in the store, not on the wire.
   */
  location: string
  /** Absent when the monitor had no assertions (and in runs recorded before them). */
  assertions?: AssertionResult[]
  /** What a run of a type that keeps no check found (tls: days_left, issuer, protocol); absent otherwise. */
  details?: Record<string, unknown>
}

/** A run as handed to `finishRun`: without a `location`, it ran at `local`. */
export type NewRun = Omit<RunRecord, 'location'> & { location?: string }

export interface EventRecord {
  id: string
  monitor_id: string
  user_id: string
  event: EventName
  occurred_at: string
  message: string
  previous_state: MonitorState
  state: MonitorState
  check: LastCheck | null
  deliveries: Delivery[]
}

export interface RunLogStore {
  /**
   * The end of a run, in one durable step: the monitor's new state and next_run_at, the run for
   * its history, and the events it raised. Ends the claim, if any (schedule.ts). With `history`,
   * the run is added to the monitor's hourly and daily rollups (once, even if the write is
   * retried) and an incident is opened or closed; rollups older than their retention are dropped.
   * The run's buckets are those of its location; the incident it opens carries its location.
   *
   * With `ifVersion` (a claim's `version`), nothing is written unless the stored monitor is still
   * that version: undefined then, as for a monitor deleted meanwhile (the caller reads it again).
   * Backends without versions ignore it.
   */
  finishRun(
    m: MonitorRecord,
    run: NewRun,
    events: EventRecord[],
    history?: RunHistory,
    ifVersion?: string,
  ): Promise<MonitorRecord | undefined>
  /** Events raised outside a run (credits.exhausted) with the monitor's new state. */
  recordEvents(m: MonitorRecord, events: EventRecord[]): Promise<MonitorRecord | undefined>
  /** Newest first. */
  listRuns(monitorId: string, opts: PageOptions): Promise<Page<RunRecord>>
  /** Newest first. */
  listEvents(monitorId: string, opts: PageOptions): Promise<Page<EventRecord>>
  /**
   * The response times of the raw runs kept that started in [fromMs, toMs) and count toward
   * uptime with a saved check (not inside a maintenance window), at most `max`, in no order: an
   * uptime report takes its percentiles from single runs when the runs kept cover its window.
   */
  responseTimes(monitorId: string, fromMs: number, toMs: number, max: number): Promise<number[]>
}
