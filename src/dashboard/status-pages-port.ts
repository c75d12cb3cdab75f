/**
 * What the dashboard needs from status pages (docs/decisions.md#the-public-face), for one user, in
 * the API's wire shape. The composition root binds it to the status-page service; without it the
 * pages say status pages are not available. Errors a user can fix are StatusPageRejected.
 */
import type { StatusPage } from '../contract/status-pages.js'

export class StatusPageRejected extends Error {}

/** A page as the form sends it: every field, as the API takes it. */
export interface StatusPageInput {
  slug: string
  title: string
  description: string
  monitor_ids: string[]
  show_urls: boolean
}

export interface DashboardStatusPages {
  list(userId: string): Promise<StatusPage[]>
  /** Undefined for an unknown id and for another user's page alike. */
  get(userId: string, id: string): Promise<StatusPage | undefined>
  create(userId: string, input: StatusPageInput): Promise<StatusPage>
  update(userId: string, id: string, input: StatusPageInput): Promise<StatusPage | undefined>
  /** False when there was no such page of this user. */
  remove(userId: string, id: string): Promise<boolean>
}
