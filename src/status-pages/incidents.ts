/**
 * Incidents a page's owner posts (docs/status-pages.md), as plain functions over the store: create one with
 * its first update, append updates (`resolved` resolves it), change, publish a draft, delete.
 * Drafts are the owner's alone; an auto-incident page opens one when a monitor on it goes down.
 * Subscribers hear of what is published through `onPublished` (subscribers.ts), never of drafts.
 */
import type {
  IncidentStatus,
  StatusIncident,
  StatusIncidentCreate,
  StatusIncidentPatch,
  StatusIncidentUpdateCreate,
  SubscriberEvent,
} from '../contract/status-pages.js'
import { nextId } from '../monitors/ids.js'
import type { MonitorRecord } from '../store/monitors.js'
import type { StatusIncidentRecord, StatusIncidentStore } from '../store/status-incidents.js'
import type { StatusPageRecord } from '../store/status-pages.js'
import type { StatusPageService } from './service.js'
import { DomainError } from '../shared/index.js'
import { publicName } from './model.js'

/** Told of an incident made public or changed while public. */
export type IncidentListener = (
  page: StatusPageRecord,
  incident: StatusIncidentRecord,
  event: SubscriberEvent,
) => void

export function incidentView(i: StatusIncidentRecord): StatusIncident {
  return {
    id: i.id,
    status_page_id: i.page_id,
    title: i.title,
    status: i.status,
    impact: i.impact,
    monitor_ids: i.monitor_ids,
    draft: i.draft,
    created_at: i.created_at,
    updated_at: i.updated_at,
    resolved_at: i.resolved_at,
    updates: [...i.updates].reverse(),
  }
}

const notFound = () => new DomainError('not_found', 'No incident with this id on this status page.')

export class IncidentService {
  private readonly listeners = new Set<IncidentListener>()

  constructor(
    private readonly pages: StatusPageService,
    readonly store: StatusIncidentStore,
    private readonly now: () => number = Date.now,
  ) {}

  onPublished(listener: IncidentListener): void {
    this.listeners.add(listener)
  }

  private tell(page: StatusPageRecord, i: StatusIncidentRecord, event: SubscriberEvent): void {
    if (i.draft) return
    for (const l of this.listeners) l(page, i, event)
  }

  /** Each id one of the page's monitors, each once. */
  private checkMonitors(page: StatusPageRecord, ids: string[]): string[] {
    const out = [...new Set(ids.map((x) => x.toLowerCase()))]
    const bad = out.findIndex((id) => !page.monitor_ids.includes(id))
    if (bad >= 0)
      throw new DomainError(
        'invalid',
        `Invalid incident (monitor_ids.${bad}): ${ids[bad]} is not on this page.`,
      )
    return out
  }

  private resolvedAt(status: IncidentStatus, prev: string | null, at: string): string | null {
    return status === 'resolved' ? (prev ?? at) : null
  }

  async create(userId: string, pageId: string, body: StatusIncidentCreate): Promise<StatusIncidentRecord> {
    const page = await this.pages.get(userId, pageId)
    const at = new Date(this.now()).toISOString()
    const status = body.status ?? 'investigating'
    const record: StatusIncidentRecord = {
      id: nextId(this.now()),
      page_id: page.id,
      user_id: userId,
      title: body.title,
      status,
      impact: body.impact ?? 'minor',
      monitor_ids: this.checkMonitors(page, body.monitor_ids ?? []),
      draft: body.draft ?? false,
      created_at: at,
      updated_at: at,
      resolved_at: this.resolvedAt(status, null, at),
      updates: [{ id: nextId(this.now()), status, message: body.message, created_at: at }],
    }
    const saved = await this.store.createIncident(record)
    this.tell(page, saved, 'incident.created')
    return saved
  }

  async list(userId: string, pageId: string): Promise<StatusIncidentRecord[]> {
    const page = await this.pages.get(userId, pageId)
    return this.store.listIncidents(page.id)
  }

  async get(userId: string, pageId: string, id: string): Promise<StatusIncidentRecord> {
    const page = await this.pages.get(userId, pageId)
    const i = await this.store.getIncident(page.id, id.toLowerCase())
    if (!i) throw notFound()
    return i
  }

  async update(userId: string, pageId: string, id: string, patch: StatusIncidentPatch) {
    const page = await this.pages.get(userId, pageId)
    const prev = await this.store.getIncident(page.id, id.toLowerCase())
    if (!prev) throw notFound()
    const at = new Date(this.now()).toISOString()
    const status = patch.status ?? prev.status
    const next: StatusIncidentRecord = {
      ...prev,
      title: patch.title ?? prev.title,
      status,
      impact: patch.impact ?? prev.impact,
      monitor_ids: patch.monitor_ids ? this.checkMonitors(page, patch.monitor_ids) : prev.monitor_ids,
      draft: patch.draft ?? prev.draft,
      updated_at: at,
      resolved_at: this.resolvedAt(status, prev.resolved_at, at),
    }
    const saved = await this.store.updateIncident(next)
    if (!saved) throw notFound()
    // publishing a draft announces it; an edit of a public one tells no one
    if (prev.draft && !saved.draft) this.tell(page, saved, 'incident.created')
    return saved
  }

  async addUpdate(userId: string, pageId: string, id: string, body: StatusIncidentUpdateCreate) {
    const page = await this.pages.get(userId, pageId)
    const prev = await this.store.getIncident(page.id, id.toLowerCase())
    if (!prev) throw notFound()
    const at = new Date(this.now()).toISOString()
    const saved = await this.store.appendIncidentUpdate(
      page.id,
      prev.id,
      { id: nextId(this.now()), status: body.status, message: body.message, created_at: at },
      {
        status: body.status,
        updated_at: at,
        resolved_at: this.resolvedAt(body.status, prev.resolved_at, at),
      },
    )
    if (!saved) throw notFound()
    this.tell(page, saved, body.status === 'resolved' ? 'incident.resolved' : 'incident.updated')
    return saved
  }

  async remove(userId: string, pageId: string, id: string): Promise<void> {
    const page = await this.pages.get(userId, pageId)
    if (!(await this.store.deleteIncident(page.id, id.toLowerCase()))) throw notFound()
  }

  /**
   * A monitor went down: each of its owner's pages that shows it and says `auto_incidents` gets a
   * draft, unless an incident still open there names the monitor already.
   */
  async openDrafts(m: MonitorRecord): Promise<StatusIncidentRecord[]> {
    const pages = await this.pages.list(m.user_id)
    const opened: StatusIncidentRecord[] = []
    for (const page of pages) {
      if (!page.auto_incidents || !page.monitor_ids.includes(m.id)) continue
      const open = await this.store.listIncidents(page.id)
      if (open.some((i) => i.status !== 'resolved' && i.monitor_ids.includes(m.id))) continue
      // the page's public label, never a name that is the URL's host (model.ts, publicName)
      const name = publicName(page, m, page.monitor_ids.indexOf(m.id)) || 'A service'
      opened.push(
        await this.create(m.user_id, page.id, {
          title: `${name} is down`,
          status: 'investigating',
          impact: 'major',
          message: `${name} is not answering. We are looking into it.`,
          monitor_ids: [m.id],
          draft: true,
        }),
      )
    }
    return opened
  }
}
