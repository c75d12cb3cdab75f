/**
 * The public view of a status page (docs/decisions.md#the-public-face), built once and rendered twice (HTML and JSON).
 * The view keeps each monitor's 90 daily percents as a plain array beside the page's 90 dates; the
 * JSON's `{date, uptime_percent}` entries (4,500 objects a page) are made only when the JSON is asked for.
 * Only what the public may see goes in: names, states, uptime, maintenance, incidents. Never an
 * API key, an email, a check id or any other account detail, and a monitor's URL only when the
 * page has `show_urls` — nor its host as its name: a monitor its owner did not name (named after
 * its URL's host) shows as "Monitor <n>", its place on the page (`publicName`).
 */
import {
  INCIDENT_DAYS,
  PUBLIC_STATES,
  STATUS_DAYS,
  STATUS_INCIDENT_DAYS,
  type PublicStatusIncident,
  type Section,
  type OverallState,
  type PublicIncident,
  type PublicMaintenance,
  type PublicMonitor,
  type PublicState,
  type PublicStatusPage,
} from '../contract/status-pages.js'
import type { MonitorRecord } from '../store/monitors.js'
import { isHostName } from '../monitors/names.js'
import type { StatusIncidentRecord } from '../store/status-incidents.js'
import type { StatusPageRecord } from '../store/status-pages.js'
import { dayOf, type UptimePort, type UptimeWindows } from './uptime.js'

const DAY_MS = 86_400_000

/** A monitor's state as the public sees it. */
export function publicState(m: MonitorRecord): PublicState {
  if (m.paused) return 'paused'
  const s = m.state as string
  return (PUBLIC_STATES as readonly string[]).includes(s) ? (s as PublicState) : 'pending'
}

/** The page's headline state: the worst of its monitors'. */
export function overallState(states: PublicState[]): OverallState {
  const live = states.filter((s) => s !== 'paused' && s !== 'pending')
  if (live.length === 0) return 'unknown'
  const down = live.filter((s) => s === 'down').length
  if (down > 0) return down === live.length ? 'major_outage' : 'partial_outage'
  if (live.includes('degraded')) return 'degraded'
  if (live.includes('maintenance')) return 'maintenance'
  return 'operational'
}

/** Average of the known daily figures (days without runs do not count). */
function mean(values: (number | null)[] | undefined): number | null {
  let sum = 0
  let n = 0
  for (const v of values ?? [])
    if (v !== null) {
      sum += v
      n++
    }
  return n === 0 ? null : round(sum / n)
}

export const round = (p: number) => Math.round(p * 100) / 100
const r = (v: number | null) => (v === null ? null : round(v))

/**
 * The name the public sees for the monitor at `index` (0-based) on the page: its own, unless that
 * is its URL's host and the page hides URLs; then a neutral label by its place on the page.
 */
export function publicName(
  page: Pick<StatusPageRecord, 'show_urls'>,
  m: MonitorRecord,
  index: number,
): string {
  return !page.show_urls && isHostName(m.name, m.url) ? `Monitor ${index + 1}` : m.name
}

/** A monitor as the view holds it: the public fields but its days as percents (dates: the page's). */
export type MonitorView = Omit<PublicMonitor, 'days'> & { percents: (number | null)[] }

/** The view of a page: the public JSON but each monitor's days as percents over `dates`. */
export type PageView = Omit<PublicStatusPage, 'monitors'> & { dates: string[]; monitors: MonitorView[] }

function monitorView(
  page: StatusPageRecord,
  m: MonitorRecord,
  name: string,
  windows: UptimeWindows | undefined,
  days: (number | null)[] | undefined,
  count: number,
): MonitorView {
  return {
    id: m.id,
    name,
    ...(page.show_urls ? { url: m.url } : {}),
    state: publicState(m),
    uptime: windows
      ? { '24h': r(windows['24h']), '7d': r(windows['7d']), '30d': r(windows['30d']) }
      : { '24h': null, '7d': null, '30d': null },
    uptime_90d: mean(days),
    percents: percentList(days, count),
  }
}

/** A monitor's `count` daily percents, rounded (whole percents, most days, need no rounding). */
function percentList(days: (number | null)[] | undefined, count: number): (number | null)[] {
  const out = new Array<number | null>(count)
  for (let i = 0; i < count; i++) {
    const p = days?.[i] ?? null
    out[i] = p === null || p === 100 ? p : round(p)
  }
  return out
}

/** The public JSON of a view: each monitor's percents paired with the page's dates. */
export function publicPage(v: PageView): PublicStatusPage {
  return {
    slug: v.slug,
    title: v.title,
    description: v.description,
    state: v.state,
    generated_at: v.generated_at,
    monitors: v.monitors.map(({ percents, ...m }) => ({
      ...m,
      days: v.dates.map((date, i) => ({ date, uptime_percent: percents[i] })),
    })),
    maintenance: v.maintenance,
    incidents: v.incidents,
    status_incidents: v.status_incidents,
    sections: v.sections,
  }
}

/**
 * The incidents the public sees: published ones, open first, then those resolved in the last
 * STATUS_INCIDENT_DAYS days, newest first, each with its updates newest first; monitors named
 * only when they are on the page.
 */
export function publicIncidents(
  list: StatusIncidentRecord[],
  shown: Set<string>,
  now: number,
): PublicStatusIncident[] {
  const since = now - STATUS_INCIDENT_DAYS * DAY_MS
  const visible = list.filter(
    (i) => !i.draft && (i.resolved_at === null || Date.parse(i.resolved_at) >= since),
  )
  const newest = (a: StatusIncidentRecord, b: StatusIncidentRecord) => (a.created_at < b.created_at ? 1 : -1)
  const open = visible.filter((i) => i.resolved_at === null).sort(newest)
  const past = visible.filter((i) => i.resolved_at !== null).sort(newest)
  return [...open, ...past].map((i) => ({
    id: i.id,
    title: i.title,
    status: i.status,
    impact: i.impact,
    monitor_ids: i.monitor_ids.filter((id) => shown.has(id)),
    created_at: i.created_at,
    updated_at: i.updated_at,
    resolved_at: i.resolved_at,
    updates: [...i.updates].reverse(),
  }))
}

/** The page's sections over the monitors it still shows. */
function sectionsOf(page: StatusPageRecord, shown: Set<string>): Section[] {
  return (page.sections ?? []).map((s) => ({
    name: s.name,
    monitor_ids: s.monitor_ids.filter((id) => shown.has(id)),
  }))
}

async function incidentsOf(monitors: MonitorRecord[], names: string[], uptime: UptimePort, now: number) {
  const found = await uptime.incidents(monitors, now - INCIDENT_DAYS * DAY_MS)
  return monitors
    .flatMap((m, at) =>
      (found.get(m.id) ?? []).map((i): PublicIncident => ({
        monitor_id: m.id,
        monitor_name: names[at],
        started_at: i.started_at,
        ended_at: i.ended_at,
        duration_seconds: Math.max(
          0,
          Math.round(((i.ended_at ? Date.parse(i.ended_at) : now) - Date.parse(i.started_at)) / 1000),
        ),
      })),
    )
    .sort((a, b) => (a.started_at < b.started_at ? 1 : -1))
}

async function maintenanceOf(
  page: StatusPageRecord,
  monitors: MonitorRecord[],
  uptime: UptimePort,
  now: number,
): Promise<PublicMaintenance[]> {
  const shown = new Set(monitors.map((m) => m.id))
  const spans = await uptime.maintenance(page.user_id, now)
  const out: PublicMaintenance[] = []
  for (const s of spans) {
    if (Date.parse(s.ends_at) <= now) continue
    const ids = s.monitor_ids === 'all' ? shown : new Set(s.monitor_ids.filter((id) => shown.has(id)))
    if (ids.size === 0) continue
    out.push({
      name: s.name,
      starts_at: s.starts_at,
      ends_at: s.ends_at,
      active: Date.parse(s.starts_at) <= now,
      monitor_ids: monitors.filter((m) => ids.has(m.id)).map((m) => m.id),
    })
  }
  return out.sort((a, b) => (a.starts_at < b.starts_at ? -1 : 1))
}

/** `monitors`: the page's monitors that still exist, in page order; `posted`: its incidents. */
export async function buildPublicPage(
  page: StatusPageRecord,
  monitors: MonitorRecord[],
  uptime: UptimePort,
  now: number,
  posted: StatusIncidentRecord[] = [],
): Promise<PageView> {
  // the same 90 days for every monitor: their names made once per page
  const from = Math.floor(now / DAY_MS) * DAY_MS - (STATUS_DAYS - 1) * DAY_MS
  const dates = Array.from({ length: STATUS_DAYS }, (_, i) => dayOf(from + i * DAY_MS))
  const names = monitors.map((m, i) => publicName(page, m, i))
  const [windows, days, incidents, maintenance] = await Promise.all([
    uptime.windows(monitors),
    uptime.days(monitors, from, STATUS_DAYS),
    incidentsOf(monitors, names, uptime, now),
    maintenanceOf(page, monitors, uptime, now),
  ])
  const views = monitors.map((m, i) =>
    monitorView(page, m, names[i], windows.get(m.id), days.get(m.id), STATUS_DAYS),
  )
  // a monitor inside an open window reads `maintenance`, as in the API
  const quiet = new Set(maintenance.filter((w) => w.active).flatMap((w) => w.monitor_ids))
  for (const v of views) if (quiet.has(v.id) && v.state !== 'paused') v.state = 'maintenance'
  return {
    slug: page.slug,
    title: page.title,
    description: page.description,
    state: overallState(views.map((v) => v.state)),
    generated_at: new Date(now).toISOString(),
    dates,
    monitors: views,
    maintenance,
    incidents,
    status_incidents: publicIncidents(posted, new Set(monitors.map((m) => m.id)), now),
    sections: sectionsOf(page, new Set(monitors.map((m) => m.id))),
  }
}
