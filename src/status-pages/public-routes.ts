/**
 * The public, unauthenticated side of status pages (docs/decisions.md#the-public-face): `GET /status/{slug}` (HTML),
 * `GET /status/{slug}.json`, and the badges `GET /status/{slug}/badges/{monitor_id}/{kind}.svg`.
 *
 * Caching: the view of a page is built from the page, its monitors and their rollups, and kept
 * for CACHE_TTL_MS keyed by a fingerprint of what a visitor would see change at once (the page's
 * last edit, each monitor's name, state and URL): a monitor going down or an edit shows at the
 * next request, uptime figures within the TTL. With `writes` (this process's write count,
 * store/writes.ts), a view whose count has not moved is served without reading the store at all;
 * when it moved, the fingerprint is read again. Other instances' writes (PostgreSQL) are not
 * counted: they show when the view expires, within CACHE_TTL_MS (the pages' max-age too). Responses carry a strong ETag of their body and
 * `Cache-Control: public, max-age=30`; a matching `If-None-Match` gets 304 with no body.
 */
import { createHash } from 'node:crypto'
import type { H3Event } from 'h3'
import {
  BADGE_KINDS,
  BADGE_WINDOWS,
  INCIDENT_DAYS,
  STATUS_PAGE_PATHS,
  type BadgeKind,
  type BadgeWindow,
} from '../contract/status-pages.js'
import type { MonitorDefinitionStore, MonitorRecord } from '../store/monitors.js'
import type { StatusIncidentRecord, StatusIncidentStore } from '../store/status-incidents.js'
import type { StatusPageRecord, StatusPageStore } from '../store/status-pages.js'
import { badRequest, notFound } from '../http/errors.js'
import { drawBadge } from './badges.js'
import { atomFeed, rssFeed } from './feeds.js'
import { statuspageStatus, statuspageSummary } from './statuspage.js'
import { buildPublicPage, publicPage, type PageView } from './model.js'
import { renderNotFound, renderStatusPage } from './render.js'
import { STATUS_CSP } from './style.js'
import type { UptimePort } from './uptime.js'

export const CACHE_TTL_MS = 30_000
const MAX_CACHED = 1000
/** docs/decisions.md#the-public-face, as written there. */
const PAGE_CACHE = 'public, max-age=30'
const UTF8 = new TextEncoder()
const BADGE_CACHE = 'max-age=60'

interface View {
  fingerprint: string
  /** The write count read before the view's first read of the store. */
  writes: number | undefined
  expires: number
  model: PageView
  /** The page, encoded once: every request of the view sends these bytes as they are. */
  html: Uint8Array<ArrayBuffer>
  htmlTag: string
  /** The JSON body and its tag, made on the first request for them. */
  json(): { body: string; tag: string }
  /** Latest health score per monitor id (score badges). */
  scores: Map<string, number | null>
  /** The page as stored (its owner, its id: feeds, subscriptions). */
  page: StatusPageRecord
}

export interface PublicPagesOptions {
  pages: StatusPageStore
  monitors: MonitorDefinitionStore
  /** The incidents posted on pages; none shown without it. */
  incidents?: StatusIncidentStore
  uptime: UptimePort
  now?: () => number
  ttlMs?: number
  /** This process's writes to monitors and pages (store/writes.ts); without it every request reads. */
  writes?: () => number
  /** The subscribe forms the page shows (none without subscribers; email only with SMTP). */
  forms?: { email: boolean }
}

/** A strong validator of the body; not a secret, so the faster SHA-1 serves (27 characters). */
const etagOf = (body: string | Uint8Array) => `"${createHash('sha1').update(body).digest('base64url')}"`

/** Whether an If-None-Match header names this ETag (weak or strong, or `*`). */
export function matches(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false
  return ifNoneMatch.split(',').some((t) => {
    const tag = t.trim().replace(/^W\//, '')
    return tag === '*' || tag === etag
  })
}

const PAGE_HEADERS = {
  'content-security-policy': STATUS_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
}

export class PublicPages {
  private readonly cache = new Map<string, View>()
  private readonly now: () => number
  private readonly ttlMs: number

  constructor(private readonly o: PublicPagesOptions) {
    this.now = o.now ?? Date.now
    this.ttlMs = o.ttlMs ?? CACHE_TTL_MS
  }

  /** The page's monitors that still exist and are its owner's, in page order. */
  private async monitorsOf(page: StatusPageRecord): Promise<MonitorRecord[]> {
    const found = await this.o.monitors.getMonitorsById(page.monitor_ids)
    return found.filter((m) => m.user_id === page.user_id)
  }

  /** The view of a slug, built or from the cache; undefined for a slug nobody has. */
  async view(slug: string): Promise<View | undefined> {
    const writes = this.o.writes?.()
    const now = this.now()
    const cached = this.cache.get(slug)
    if (cached && writes !== undefined && cached.writes === writes && cached.expires > now) return cached
    const page = await this.o.pages.getStatusPageBySlug(slug)
    if (!page) {
      this.cache.delete(slug)
      return undefined
    }
    const monitors = await this.monitorsOf(page)
    const posted: StatusIncidentRecord[] = (await this.o.incidents?.listIncidents(page.id)) ?? []
    const fingerprint = [
      page.id,
      page.updated_at,
      ...monitors.map((m) => `${m.id}|${m.state}|${m.paused}|${m.name}|${m.url}`),
      ...posted.map((i) => `${i.id}|${i.updated_at}|${i.draft}|${i.updates.length}`),
    ].join('\n')
    if (cached && cached.fingerprint === fingerprint && cached.expires > now) {
      cached.writes = writes
      return cached
    }
    const model = await buildPublicPage(page, monitors, this.o.uptime, now, posted)
    const html = UTF8.encode(renderStatusPage(model, INCIDENT_DAYS, this.o.forms))
    let json: { body: string; tag: string } | undefined
    const view: View = {
      fingerprint,
      writes,
      expires: now + this.ttlMs,
      model,
      html,
      htmlTag: etagOf(html),
      json() {
        if (!json) {
          const body = JSON.stringify(publicPage(model))
          json = { body, tag: etagOf(body) }
        }
        return json
      },
      scores: new Map(monitors.map((m) => [m.id, m.last_check?.health_score ?? null])),
      page,
    }
    this.cache.delete(slug)
    this.cache.set(slug, view)
    if (this.cache.size > MAX_CACHED) this.cache.delete(this.cache.keys().next().value!)
    return view
  }
}

function cached(
  event: H3Event,
  body: string | Uint8Array<ArrayBuffer>,
  etag: string,
  type: string,
  cacheControl: string,
): Response {
  const headers = { ...PAGE_HEADERS, 'content-type': type, 'cache-control': cacheControl, etag }
  if (matches(event.req.headers.get('if-none-match'), etag))
    return new Response(null, { status: 304, headers })
  return new Response(body, { status: 200, headers })
}

/**
 * The page's absolute address for this request: `https://<domain>/` when asked for by its own
 * domain (TLS is the proxy's), else the server's public URL (or the request's origin) + /status/slug.
 */
export function pageUrl(event: H3Event, page: StatusPageRecord, publicUrl: string | undefined): string {
  const host = (event.req.headers.get('host') ?? '').toLowerCase().replace(/:\d+$/, '')
  if (page.domain && host === page.domain) return `https://${page.domain}/`
  return (publicUrl ?? event.url.origin).replace(/\/+$/, '') + `/status/${page.slug}`
}

/** The feeds and Statuspage JSON of a page, each made on its first request by address. */
function derived(pages: PublicPages, publicUrl: () => string | undefined) {
  const bodies = new WeakMap<object, Map<string, { body: string; tag: string }>>()
  return async (event: H3Event, kind: 'rss' | 'atom' | 'summary' | 'status'): Promise<Response> => {
    const view = await pages.view(String(event.context.params?.slug ?? ''))
    if (!view) throw notFound('No status page at this address.')
    const url = pageUrl(event, view.page, publicUrl())
    const key = `${kind} ${url}`
    const made = bodies.get(view) ?? new Map<string, { body: string; tag: string }>()
    bodies.set(view, made)
    let hit = made.get(key)
    if (!hit) {
      const m = view.model
      const sub = url.endsWith('/') ? url : `${url}/`
      const feed = {
        id: view.page.id,
        title: m.title,
        description: m.description,
        url,
        self: `${sub}feed.${kind}`,
        generated_at: m.generated_at,
        incidents: m.status_incidents,
      }
      const ctx = {
        id: view.page.id,
        url,
        created_at: view.page.created_at,
        updated_at: view.page.updated_at,
      }
      const body =
        kind === 'rss'
          ? rssFeed(feed)
          : kind === 'atom'
            ? atomFeed(feed)
            : JSON.stringify(kind === 'summary' ? statuspageSummary(m, ctx) : statuspageStatus(m, ctx))
      hit = { body, tag: etagOf(body) }
      made.set(key, hit)
    }
    const type = {
      rss: 'application/rss+xml; charset=utf-8',
      atom: 'application/atom+xml; charset=utf-8',
      summary: 'application/json; charset=utf-8',
      status: 'application/json; charset=utf-8',
    }[kind]
    return cached(event, hit.body, hit.tag, type, PAGE_CACHE)
  }
}

export function statusPagePublicRoutes(
  pages: PublicPages,
  publicUrl: () => string | undefined = () => undefined,
) {
  const serve = derived(pages, publicUrl)
  async function page(event: H3Event): Promise<Response> {
    const raw = String(event.context.params?.slug ?? '')
    const asJson = raw.endsWith('.json')
    const view = await pages.view(asJson ? raw.slice(0, -5) : raw)
    if (!view) {
      if (asJson) throw notFound('No status page at this address.')
      return new Response(renderNotFound(), {
        status: 404,
        headers: { ...PAGE_HEADERS, 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
      })
    }
    if (asJson) {
      const { body, tag } = view.json()
      return cached(event, body, tag, 'application/json; charset=utf-8', PAGE_CACHE)
    }
    return cached(event, view.html, view.htmlTag, 'text/html; charset=utf-8', PAGE_CACHE)
  }

  async function badge(event: H3Event): Promise<Response> {
    const p = event.context.params ?? {}
    const file = String(p.badge ?? '')
    const kind = file.replace(/\.svg$/, '') as BadgeKind
    if (!file.endsWith('.svg') || !BADGE_KINDS.includes(kind))
      throw notFound(`No such badge: use ${BADGE_KINDS.map((k) => `${k}.svg`).join(', ')}.`)
    const window = (event.url.searchParams.get('window') ?? '30d') as BadgeWindow
    if (!BADGE_WINDOWS.includes(window))
      throw badRequest(`Invalid window: use one of ${BADGE_WINDOWS.join(', ')}.`)
    const view = await pages.view(String(p.slug ?? ''))
    const id = String(p.monitor ?? '').toLowerCase()
    const m = view?.model.monitors.find((x) => x.id === id)
    if (!view || !m) throw notFound('No such monitor on this status page.')
    const svg = drawBadge(kind, { ...m, score: view.scores.get(m.id) ?? null }, window)
    return cached(event, svg, etagOf(svg), 'image/svg+xml; charset=utf-8', BADGE_CACHE)
  }

  return {
    [STATUS_PAGE_PATHS.publicPage]: { GET: page },
    [STATUS_PAGE_PATHS.badge]: { GET: badge },
    [STATUS_PAGE_PATHS.feedRss]: { GET: (event: H3Event) => serve(event, 'rss') },
    [STATUS_PAGE_PATHS.feedAtom]: { GET: (event: H3Event) => serve(event, 'atom') },
    [STATUS_PAGE_PATHS.summary]: { GET: (event: H3Event) => serve(event, 'summary') },
    [STATUS_PAGE_PATHS.status]: { GET: (event: H3Event) => serve(event, 'status') },
  }
}
