/**
 * The plan: what `deploy` changes to make the account match the file. Monitors are matched by
 * ref (monitors without a ref are never touched), status pages by slug, channels inside a
 * monitor by type and target (through the API's fingerprint, since targets come back masked).
 * Only fields the file governs are compared, with the server's defaults for what it leaves out,
 * so a second deploy of the same file plans nothing.
 */
import { channelRequestOf, channelTarget } from '../contract/channels.js'
import { channelFingerprint } from '../contract/fingerprint.js'
import type { AlertsView, ChannelRequest, Monitor, MonitorCreate } from '../contract/monitors.js'
import { normalHost, TIMEOUT_SECONDS, tlsPortOf } from '../contract/monitor-target.js'
import { readResolver, resolverText } from '../contract/dns.js'
import { describeAssertion } from '../assertions/index.js'
import { defaultName } from '../monitors/names.js'
import { DEFAULT_DOWN_AFTER, DEFAULT_RECOVER_AFTER, INTERVAL, PING_COUNT } from '../contract/monitors.js'
import { GRACE } from '../contract/monitoring.js'
import { typeFace } from '../contract/monitor-types/index.js'
import { normalizeTags } from '../contract/tags.js'
import type { StatusPage, StatusPageCreate } from '../contract/status-pages.js'
import type { Loaded, LoadedMonitor } from './load.js'
import type { MaintenanceWindow } from '../contract/monitoring.js'
import { prunable, windowBody, windowChanges, type WindowBody } from './maintenance.js'

export interface Change {
  field: string
  from: unknown
  to: unknown
}

export type PlanItem =
  | { action: 'create'; kind: 'monitor'; key: string; body: MonitorCreate }
  | { action: 'update'; kind: 'monitor'; key: string; id: string; changes: Change[]; body: MonitorCreate }
  | { action: 'delete'; kind: 'monitor'; key: string; id: string }
  | { action: 'create'; kind: 'status_page'; key: string; body: PageBody }
  | { action: 'update'; kind: 'status_page'; key: string; id: string; changes: Change[]; body: PageBody }
  | { action: 'delete'; kind: 'status_page'; key: string; id: string }
  | { action: 'create'; kind: 'maintenance'; key: string; body: WindowBody }
  | { action: 'update'; kind: 'maintenance'; key: string; id: string; changes: Change[]; body: WindowBody }
  | { action: 'delete'; kind: 'maintenance'; key: string; id: string }

/** A status page with its monitors still by ref (ids are known only once monitors exist). */
export type PageBody = Omit<StatusPageCreate, 'monitor_ids'> & { monitor_refs: string[] }

export interface Current {
  monitors: Monitor[]
  status_pages: StatusPage[]
  /** Absent when the server has none to list (older servers). */
  maintenance_windows?: MaintenanceWindow[]
}

export interface Plan {
  items: PlanItem[]
  /** Monitors of the account without a ref: never touched. */
  unmanaged: number
}

const urlOf = (u: string) => {
  try {
    return new URL(u).href
  } catch {
    return u
  }
}

/** What the file asks for one monitor, as a create body with every default filled in. */
export function desiredMonitor(m: LoadedMonitor, loaded: Loaded): MonitorCreate {
  const face = typeFace(m.type)
  const url = face.url ? urlOf(m.url!) : undefined
  return {
    ref: m.ref,
    ...(url === undefined
      ? {
          type: m.type as 'heartbeat',
          name: m.name ?? m.ref,
          ...(face.pushed ? { grace_seconds: m.grace_seconds ?? GRACE.default } : {}),
          ...(face.host ? hostFields(m) : {}),
        }
      : { url, name: m.name ?? defaultName(url) }),
    interval_seconds: m.interval_seconds ?? INTERVAL.default,
    alerts: {
      down_after: m.alerts?.down_after ?? DEFAULT_DOWN_AFTER,
      min_score: m.alerts?.min_score ?? null,
      recover_after: m.alerts?.recover_after ?? DEFAULT_RECOVER_AFTER,
      remind_every_minutes: m.alerts?.remind_every_minutes ?? null,
    },
    ...(url === undefined && face.assertions.length === 0 ? {} : { assertions: m.assertions ?? [] }),
    tags: normalizeTags(m.tags ?? []),
    channels: m.channels.map((name): ChannelRequest => {
      const c = loaded.channels.get(name)!
      return { ...channelRequestOf(c.type, c.target), name, source: c.source } as ChannelRequest
    }),
  }
}

/** The host fields of a type that watches a host, with their defaults (tls: the port of its protocol). */
function hostFields(m: LoadedMonitor) {
  return {
    host: normalHost(m.host ?? ''),
    port: m.port ?? (m.type === 'tls' ? tlsPortOf(m.starttls) : undefined),
    timeout_seconds: m.timeout_seconds ?? TIMEOUT_SECONDS.default,
    ...(m.type === 'tls' ? { starttls: m.starttls ?? null } : {}),
    ...(m.type === 'dns' ? { record_type: m.record_type, resolver: resolverOf(m.resolver) } : {}),
    ...(m.type === 'ping' ? { count: m.count ?? PING_COUNT.default } : {}),
  }
}

/** A resolver as the server keeps it (`9.9.9.9:53` is `9.9.9.9`), so an equal one is no change. */
function resolverOf(text: string | undefined): string | null {
  if (text === undefined) return null
  const r = readResolver(text)
  return 'problem' in r ? text : resolverText(r)
}

const channelKey = (c: { type: string; fingerprint: string; name: string | null; source: string | null }) =>
  `${c.type} ${c.fingerprint} ${c.name ?? ''} ${c.source ?? ''}`

function wantedChannelKeys(body: MonitorCreate): string[] {
  return (body.channels ?? []).map((c) =>
    channelKey({
      type: c.type,
      fingerprint: channelFingerprint(c.type, channelTarget(c)),
      name: c.name ?? null,
      source: c.source ?? null,
    }),
  )
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)

/** The fields that differ between a monitor and what the file wants, old → new. */
export function monitorChanges(cur: Monitor, want: MonitorCreate, paused?: boolean): Change[] {
  const out: Change[] = []
  const push = (field: string, from: unknown, to: unknown) => {
    if (!same(from, to)) out.push({ field, from, to })
  }
  // a monitor keeps its type: a new type needs a new ref (the API refuses url on a heartbeat)
  push('url', cur.url, want.url ?? null)
  if ('grace_seconds' in want) push('grace_seconds', cur.grace_seconds, want.grace_seconds)
  for (const f of [
    'host',
    'port',
    'timeout_seconds',
    'starttls',
    'record_type',
    'resolver',
    'count',
  ] as const)
    if ((want as Record<string, unknown>)[f] !== undefined)
      push(f, cur[f], (want as Record<string, unknown>)[f])
  push('name', cur.name, want.name)
  push('interval_seconds', cur.interval_seconds, want.interval_seconds)
  for (const [k, v] of Object.entries(want.alerts ?? {}))
    push(`alerts.${k}`, (cur.alerts as Partial<AlertsView>)[k as keyof AlertsView] ?? null, v)
  if (want.tags !== undefined) push('tags', cur.tags, want.tags)
  if (want.assertions !== undefined)
    push('assertions', cur.assertions.map(describeAssertion), want.assertions.map(describeAssertion))
  const names = (cs: { name?: string | null; type: string }[]) => cs.map((c) => c.name ?? c.type)
  if (!same(cur.channels.map(channelKey), wantedChannelKeys(want)))
    out.push({ field: 'channels', from: names(cur.channels), to: names(want.channels ?? []) })
  if (paused !== undefined) push('paused', cur.paused, paused)
  return out
}

function pageBody(p: Loaded['status_pages'][number]): PageBody {
  return {
    slug: p.slug,
    title: p.title,
    description: p.description ?? null,
    show_urls: p.show_urls ?? false,
    monitor_refs: p.monitors,
  }
}

function pageChanges(cur: StatusPage, want: PageBody, refOf: Map<string, string>): Change[] {
  const out: Change[] = []
  const push = (field: string, from: unknown, to: unknown) => {
    if (!same(from, to)) out.push({ field, from, to })
  }
  push('title', cur.title, want.title)
  push('description', cur.description, want.description)
  push('show_urls', cur.show_urls, want.show_urls)
  push(
    'monitors',
    cur.monitor_ids.map((id) => refOf.get(id) ?? id),
    want.monitor_refs,
  )
  return out
}

export function makePlan(loaded: Loaded, current: Current, opts: { prune: boolean }): Plan {
  const items: PlanItem[] = []
  const byRef = new Map(current.monitors.filter((m) => m.ref).map((m) => [m.ref!, m]))
  const refOf = new Map(current.monitors.filter((m) => m.ref).map((m) => [m.id, m.ref!]))
  for (const m of loaded.monitors) {
    const body = desiredMonitor(m, loaded)
    const cur = byRef.get(m.ref)
    if (!cur) {
      items.push({ action: 'create', kind: 'monitor', key: m.ref, body })
      continue
    }
    const changes = monitorChanges(cur, body, m.paused)
    if (changes.length > 0)
      items.push({ action: 'update', kind: 'monitor', key: m.ref, id: cur.id, changes, body })
  }
  const pages = new Map(current.status_pages.map((p) => [p.slug, p]))
  for (const p of loaded.status_pages) {
    const body = pageBody(p)
    const cur = pages.get(p.slug)
    if (!cur) items.push({ action: 'create', kind: 'status_page', key: p.slug, body })
    else {
      const changes = pageChanges(cur, body, refOf)
      if (changes.length > 0)
        items.push({ action: 'update', kind: 'status_page', key: p.slug, id: cur.id, changes, body })
    }
  }
  const windows = new Map((current.maintenance_windows ?? []).map((w) => [w.name, w]))
  for (const w of loaded.maintenance) {
    const body = windowBody(w)
    const cur = windows.get(w.name)
    if (!cur) items.push({ action: 'create', kind: 'maintenance', key: w.name, body })
    else {
      const changes = windowChanges(cur, body, refOf)
      if (changes.length > 0)
        items.push({ action: 'update', kind: 'maintenance', key: w.name, id: cur.id, changes, body })
    }
  }
  if (opts.prune) {
    const names = new Set(loaded.maintenance.map((w) => w.name))
    for (const w of current.maintenance_windows ?? [])
      if (prunable(w, names, refOf))
        items.push({ action: 'delete', kind: 'maintenance', key: w.name, id: w.id })
    const slugs = new Set(loaded.status_pages.map((p) => p.slug))
    for (const p of current.status_pages)
      // a page showing a monitor without a ref was not made from a file: leave it
      if (!slugs.has(p.slug) && p.monitor_ids.every((id) => refOf.has(id)))
        items.push({ action: 'delete', kind: 'status_page', key: p.slug, id: p.id })
    const refs = new Set(loaded.monitors.map((m) => m.ref))
    for (const m of current.monitors)
      if (m.ref && !refs.has(m.ref)) items.push({ action: 'delete', kind: 'monitor', key: m.ref, id: m.id })
  }
  return { items, unmanaged: current.monitors.filter((m) => !m.ref).length }
}
