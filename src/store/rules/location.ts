/**
 * Where a run ran, written once above the backends (docs/monitoring.md#uptime-and-history): runs, the
 * rollup buckets they add to and the incidents they open carry the name of their location. Every
 * run made before agents (issue 34) ran in the `serve` process itself, the built-in location
 * `local`; records stored before locations existed read as `local` on both backends.
 */
import type { IncidentRecord } from '../history.js'
import type { NewRun, RunRecord } from '../run-log.js'

/** The built-in location: the `serve` process itself. */
export const LOCAL = 'local'

/**
 * `run` with its location (`local` when it has none), `location` right after `monitor_id`: the
 * one key order both backends store and read back.
 */
export function located(run: NewRun): RunRecord {
  const { id, monitor_id, location, ...rest } = run
  return { id, monitor_id, location: location ?? LOCAL, ...rest }
}

/** `i` with its location (`local` for an incident recorded before locations), in the same key order. */
export function locatedIncident(i: Omit<IncidentRecord, 'location'> & { location?: string }): IncidentRecord {
  const { id, monitor_id, location, ...rest } = i
  return { id, monitor_id, location: location ?? LOCAL, ...rest }
}
