/**
 * Status pages as plain functions over the store (docs/decisions.md#the-public-face): create, read, change and delete
 * a user's pages. A page may only show its owner's monitors; its slug must match SLUG_PATTERN, may
 * not be a reserved word, and is unique on the server. Knows nothing of HTTP: refusals are
 * DomainErrors (shared/domain-error.ts: invalid, not_found, conflict).
 */
import {
  RESERVED_SLUGS,
  publicStatusPath,
  type Section,
  type StatusPage,
  type StatusPageCreate,
  type StatusPagePatch,
} from '../contract/status-pages.js'
import { nextId } from '../monitors/ids.js'
import type { MonitorDefinitionStore } from '../store/monitors.js'
import {
  DomainTakenError,
  SlugTakenError,
  type StatusPageRecord,
  type StatusPageStore,
} from '../store/status-pages.js'
import type { Store } from '../store/types.js'
import { DomainError } from '../shared/index.js'

const RESERVED = new Set<string>(RESERVED_SLUGS)

export function statusPageView(p: StatusPageRecord, baseUrl: string): StatusPage {
  return {
    id: p.id,
    slug: p.slug,
    title: p.title,
    description: p.description,
    monitor_ids: p.monitor_ids,
    show_urls: p.show_urls,
    auto_incidents: p.auto_incidents ?? false,
    sections: p.sections ?? [],
    domain: p.domain ?? null,
    public_url: baseUrl.replace(/\/+$/, '') + publicStatusPath(p.slug),
    created_at: p.created_at,
    updated_at: p.updated_at,
  }
}

/** Each section names monitors of the page, each monitor in one section at most. */
function checkSections(sections: Section[], monitorIds: string[]): Section[] {
  const onPage = new Set(monitorIds)
  const placed = new Set<string>()
  return sections.map((sec, i) => ({
    name: sec.name,
    monitor_ids: sec.monitor_ids.map((raw, j) => {
      const id = raw.toLowerCase()
      const where = `(sections.${i}.monitor_ids.${j})`
      if (!onPage.has(id))
        throw new DomainError('invalid', `Invalid status page ${where}: ${raw} is not one of monitor_ids.`)
      if (placed.has(id))
        throw new DomainError('invalid', `Invalid status page ${where}: ${raw} is in another section.`)
      placed.add(id)
      return id
    }),
  }))
}

/** What a page's deletion takes with it beside the page (docs/status-pages.md). */
type PageParts = Partial<Pick<Store, 'statusIncidents' | 'statusSubscribers'>>

export class StatusPageService {
  constructor(
    readonly pages: StatusPageStore,
    private readonly monitors: MonitorDefinitionStore,
    private readonly now: () => number = Date.now,
    private readonly parts: PageParts = {},
  ) {}

  private checkSlug(slug: string): void {
    if (RESERVED.has(slug))
      throw new DomainError('conflict', `The slug "${slug}" is reserved: choose another (slug).`)
  }

  /** Every id must be one of the user's monitors, each once. */
  private async checkMonitors(userId: string, ids: string[]): Promise<string[]> {
    const seen = new Set<string>()
    const out: string[] = []
    for (const [i, raw] of ids.entries()) {
      const id = raw.toLowerCase()
      if (seen.has(id))
        throw new DomainError('invalid', `Invalid status page (monitor_ids.${i}): ${raw} is listed twice.`)
      seen.add(id)
      const m = await this.monitors.getMonitor(userId, id)
      if (!m)
        throw new DomainError(
          'invalid',
          `Invalid status page (monitor_ids.${i}): no monitor with id ${raw} for this API key.`,
        )
      out.push(id)
    }
    return out
  }

  private async save<T>(fn: () => Promise<T>, slug: string): Promise<T> {
    try {
      return await fn()
    } catch (err) {
      if (err instanceof SlugTakenError)
        throw new DomainError('conflict', `The slug "${slug}" is taken: choose another (slug).`)
      if (err instanceof DomainTakenError)
        throw new DomainError('conflict', `The domain "${err.domain}" is taken by another page (domain).`)
      throw err
    }
  }

  async create(userId: string, body: StatusPageCreate): Promise<StatusPageRecord> {
    this.checkSlug(body.slug)
    const monitorIds = await this.checkMonitors(userId, body.monitor_ids)
    const now = new Date(this.now()).toISOString()
    const record: StatusPageRecord = {
      id: nextId(this.now()),
      user_id: userId,
      slug: body.slug,
      title: body.title,
      description: body.description || null,
      monitor_ids: monitorIds,
      show_urls: body.show_urls ?? false,
      auto_incidents: body.auto_incidents ?? false,
      sections: checkSections(body.sections ?? [], monitorIds),
      domain: body.domain ?? null,
      created_at: now,
      updated_at: now,
    }
    return this.save(() => this.pages.createStatusPage(record), body.slug)
  }

  async get(userId: string, id: string): Promise<StatusPageRecord> {
    const p = await this.pages.getStatusPage(userId, id.toLowerCase())
    if (!p) throw new DomainError('not_found', 'No status page with this id for this API key.')
    return p
  }

  list(userId: string): Promise<StatusPageRecord[]> {
    return this.pages.listStatusPages(userId)
  }

  async update(userId: string, id: string, patch: StatusPagePatch): Promise<StatusPageRecord> {
    const prev = await this.get(userId, id)
    if (patch.slug !== undefined && patch.slug !== prev.slug) this.checkSlug(patch.slug)
    const monitorIds =
      patch.monitor_ids === undefined ? prev.monitor_ids : await this.checkMonitors(userId, patch.monitor_ids)
    // a monitor taken off the page leaves its section with it
    const sections =
      patch.sections ??
      (prev.sections ?? []).map((sec) => ({
        ...sec,
        monitor_ids: sec.monitor_ids.filter((id) => monitorIds.includes(id)),
      }))
    const next: StatusPageRecord = {
      ...prev,
      slug: patch.slug ?? prev.slug,
      title: patch.title ?? prev.title,
      description: patch.description === undefined ? prev.description : patch.description || null,
      monitor_ids: monitorIds,
      show_urls: patch.show_urls ?? prev.show_urls,
      auto_incidents: patch.auto_incidents ?? prev.auto_incidents ?? false,
      sections: checkSections(sections, monitorIds),
      domain: patch.domain === undefined ? (prev.domain ?? null) : patch.domain,
      updated_at: new Date(this.now()).toISOString(),
    }
    const saved = await this.save(() => this.pages.updateStatusPage(next), next.slug)
    if (!saved) throw new DomainError('not_found', 'No status page with this id for this API key.')
    return saved
  }

  async remove(userId: string, id: string): Promise<void> {
    const pageId = id.toLowerCase()
    if (!(await this.pages.deleteStatusPage(userId, pageId)))
      throw new DomainError('not_found', 'No status page with this id for this API key.')
    await this.parts.statusIncidents?.deletePageIncidents(pageId)
    await this.parts.statusSubscribers?.deletePageSubscribers(pageId)
  }
}
