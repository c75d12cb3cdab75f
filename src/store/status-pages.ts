/**
 * The status-page concern of the storage interface (docs/decisions.md#the-public-face): a user's public pages, each
 * with a slug unique on the whole server (the public address `/status/{slug}`). Every backend
 * implements it in its own file (src/store/embedded/status-pages.ts, src/store/postgres/status-pages.ts).
 */

export interface StatusPageRecord {
  id: string
  user_id: string
  slug: string
  title: string
  description: string | null
  /** The owner's monitors, in page order. */
  monitor_ids: string[]
  show_urls: boolean
  /** Absent on pages saved before these fields: false, no sections, no domain. */
  auto_incidents?: boolean
  sections?: { name: string; monitor_ids: string[] }[]
  /** A host name serving the page at `/`, unique across pages (lowercase). */
  domain?: string | null
  created_at: string
  updated_at: string
}

/** Another page (of any user) has the slug already. */
export class SlugTakenError extends Error {
  override readonly name = 'SlugTakenError'
  constructor(readonly slug: string) {
    super(`The slug "${slug}" is taken`)
  }
}

/** Another page has the domain already. */
export class DomainTakenError extends Error {
  override readonly name = 'DomainTakenError'
  constructor(readonly domain: string) {
    super(`The domain "${domain}" is taken`)
  }
}

export interface StatusPageStore {
  /** Rejects with SlugTakenError when the slug is taken (across all users, atomically), DomainTakenError for the domain. */
  createStatusPage(page: StatusPageRecord): Promise<StatusPageRecord>
  /** The user's page, or undefined (unknown or another user's: the same answer). */
  getStatusPage(userId: string, id: string): Promise<StatusPageRecord | undefined>
  /** Any user's page by slug (the public page). */
  getStatusPageBySlug(slug: string): Promise<StatusPageRecord | undefined>
  /** Any user's page by its domain (lowercase host name). */
  getStatusPageByDomain(domain: string): Promise<StatusPageRecord | undefined>
  /** The user's pages, oldest first. */
  listStatusPages(userId: string): Promise<StatusPageRecord[]>
  /** Replaces the page (same id and user); undefined when it is gone; SlugTakenError on a clash. */
  updateStatusPage(page: StatusPageRecord): Promise<StatusPageRecord | undefined>
  deleteStatusPage(userId: string, id: string): Promise<boolean>
}
