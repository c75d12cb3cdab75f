/**
 * The incident forms of a status page read as the API's bodies, checked by the contract's schemas
 * (the first problem naming its field); the incident service (the API's) checks the rest (the
 * page's own monitors) and refuses with a DomainError.
 */
import {
  StatusIncidentCreate,
  StatusIncidentPatch,
  StatusIncidentUpdateCreate,
  type IncidentImpact,
  type IncidentStatus,
} from '../contract/status-pages.js'
import { validInput } from '../shared/index.js'

/** A new incident as the form sends it. */
export interface IncidentInput {
  title: string
  status: IncidentStatus
  message: string
  impact: IncidentImpact
  monitor_ids: string[]
  draft: boolean
}

/** An incident's edit form: what it says and affects (its status moves with updates). */
export type IncidentEditInput = Pick<IncidentInput, 'title' | 'impact' | 'monitor_ids'>

/** An update as the form sends it. */
export interface IncidentUpdateInput {
  status: IncidentStatus
  message: string
}

export const incidentBody = (input: IncidentInput) => validInput(StatusIncidentCreate, input, 'incident')

export const incidentPatch = (input: IncidentEditInput) =>
  validInput(StatusIncidentPatch, input, 'incident change')

export const incidentUpdateBody = (input: IncidentUpdateInput) =>
  validInput(StatusIncidentUpdateCreate, input, 'incident update')
