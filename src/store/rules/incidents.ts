/**
 * The incident rule, written once above the backends (docs/decisions.md#monitoring-depth): a run
 * that took its monitor down opens an incident, named by the run and started when it started,
 * unless one is open already; a run that brought it back closes the open one when it started.
 * One incident is open at most per monitor, whatever the location; it carries the location of the
 * run that opened it.
 * Closed incidents are kept as long as daily buckets (buckets.ts `incidentsKeptFrom`).
 */
import type { IncidentRecord, RunHistory } from '../history.js'
import type { NewRun } from '../run-log.js'
import { LOCAL } from './location.js'

export type IncidentChange = { open: IncidentRecord } | { close: { ended_at: string } } | undefined

/** What `run` does to its monitor's incidents. */
export function incidentChange(
  run: Pick<NewRun, 'id' | 'monitor_id' | 'started_at' | 'location'>,
  h: RunHistory,
): IncidentChange {
  if (!h.incident) return undefined
  if ('open' in h.incident)
    return {
      open: {
        id: run.id,
        monitor_id: run.monitor_id,
        location: run.location ?? LOCAL,
        started_at: run.started_at,
        ended_at: null,
        cause: h.incident.open,
      },
    }
  return { close: { ended_at: run.started_at } }
}
