/**
 * The status-page incident concern of the storage interface (docs/status-pages.md): incidents an owner posts
 * on a page, each with its timestamped updates. Every backend implements it in its own file
 * (src/store/embedded/status-incidents.ts, src/store/postgres/status-incidents.ts).
 */
import type { IncidentImpact, IncidentStatus } from '../contract/status-pages.js'

export interface StatusIncidentUpdateRecord {
  id: string
  status: IncidentStatus
  message: string
  created_at: string
}

export interface StatusIncidentRecord {
  id: string
  page_id: string
  user_id: string
  title: string
  status: IncidentStatus
  impact: IncidentImpact
  monitor_ids: string[]
  draft: boolean
  created_at: string
  updated_at: string
  resolved_at: string | null
  /** Oldest first, as appended. */
  updates: StatusIncidentUpdateRecord[]
}

/** The fields an appended update changes beside the list of updates. */
export type IncidentUpdateEffect = Pick<StatusIncidentRecord, 'status' | 'updated_at' | 'resolved_at'>

export interface StatusIncidentStore {
  createIncident(incident: StatusIncidentRecord): Promise<StatusIncidentRecord>
  getIncident(pageId: string, id: string): Promise<StatusIncidentRecord | undefined>
  /** The page's incidents, newest first (drafts included). */
  listIncidents(pageId: string): Promise<StatusIncidentRecord[]>
  /** Replaces the incident's own fields (not its updates); undefined when it is gone. */
  updateIncident(incident: StatusIncidentRecord): Promise<StatusIncidentRecord | undefined>
  /**
   * Appends an update and applies its effect in one atomic step (two instances appending at
   * once both land); undefined when the incident is gone.
   */
  appendIncidentUpdate(
    pageId: string,
    id: string,
    update: StatusIncidentUpdateRecord,
    effect: IncidentUpdateEffect,
  ): Promise<StatusIncidentRecord | undefined>
  deleteIncident(pageId: string, id: string): Promise<boolean>
  /** Removes every incident of a page (the page is deleted). */
  deletePageIncidents(pageId: string): Promise<void>
}
