/**
 * The status-page form read as the API's body, checked by the contract's schema (the first
 * problem naming its field); the status-page service (the API's) checks the rest (reserved and
 * taken slugs, the user's own monitors) and refuses with a DomainError.
 */
import { StatusPageCreate } from '../contract/status-pages.js'
import { validInput } from '../shared/index.js'

/** A page as the form sends it: every field, as the API takes it. */
export interface StatusPageInput {
  slug: string
  title: string
  description: string
  monitor_ids: string[]
  show_urls: boolean
  auto_incidents: boolean
}

export function statusPageBody(input: StatusPageInput): StatusPageCreate {
  return validInput(
    StatusPageCreate,
    { ...input, description: input.description.trim() || null },
    'status page',
  )
}
