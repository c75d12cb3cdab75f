/**
 * The public view of a status page (docs/decisions.md#the-public-face), built once and rendered twice (HTML and JSON).
 * Only what the public may see goes in: names, states, uptime, maintenance, incidents. Never an
 * API key, an email, a check id or any other account detail, and a monitor's URL only when the
 * page has `show_urls`.
 */
import {
  INCIDENT_DAYS,
  PUBLIC_STATES,
  STATUS_DAYS,
  type OverallState,
  type PublicIncident,
  type PublicMaintenance,
  type PublicMonitor,
  type PublicState,
  type PublicStatusPage,
} from '../contract/status-pages.js'
import type { MonitorRecord } from '../store/monitors.js'
import type { StatusPageRecord } from '../store/status-pages.js'
import { dayOf, type UptimePort } from './uptime.js'

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
function mean(values: (number | null)[]): number | null {
  const known = values.filter((v): v is number => v !== null)
  if (known.length === 0) return null
  return round(known.reduce((a, b) => a + b, 0) / known.length)
}

export const round = (p: number) => Math.round(p * 100) / 100

async function monitorView(
  page: StatusPageRecord,
  m: MonitorRecord,
  uptime: UptimePort,
  now: number,
): Promise<PublicMonitor> {
  const [windows, days] = await Promise.all([
    uptime.windows(m),
    uptime.days(m, dayOf(now - (STATUS_DAYS - 1) * DAY_MS), dayOf(now)),
  ])
  const r = (v: number | null) => (v === null ? null : round(v))
  return {
    id: m.id,
    name: m.name,
    ...(page.show_urls ? { url: m.url } : {}),
    state: publicState(m),
    uptime: { '24h': r(windows['24h']), '7d': r(windows['7d']), '30d': r(windows['30d']) },
    uptime_90d: mean(days.map((d) => d.uptime_percent)),
    days: days.map((d) => ({ date: d.date, uptime_percent: r(d.uptime_percent) })),
  }
}

async function incidentsOf(monitors: MonitorRecord[], uptime: UptimePort, now: number) {
  const since = now - INCIDENT_DAYS * DAY_MS
  const lists = await Promise.all(
    monitors.map(async (m) =>
      (await uptime.incidents(m, since)).map((i): PublicIncident => ({
        monitor_id: m.id,
        monitor_name: m.name,
        started_at: i.started_at,
        ended_at: i.ended_at,
        duration_seconds: Math.max(
          0,
          Math.round(((i.ended_at ? Date.parse(i.ended_at) : now) - Date.parse(i.started_at)) / 1000),
        ),
      })),
    ),
  )
  return lists.flat().sort((a, b) => (a.started_at < b.started_at ? 1 : -1))
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
    const ids = s.monitor_ids === 'all' ? [...shown] : s.monitor_ids.filter((id) => shown.has(id))
    if (ids.length === 0) continue
    out.push({
      name: s.name,
      starts_at: s.starts_at,
      ends_at: s.ends_at,
      active: Date.parse(s.starts_at) <= now,
      monitor_ids: monitors.map((m) => m.id).filter((id) => ids.includes(id)),
    })
  }
  return out.sort((a, b) => (a.starts_at < b.starts_at ? -1 : 1))
}

/** `monitors`: the page's monitors that still exist, in page order. */
export async function buildPublicPage(
  page: StatusPageRecord,
  monitors: MonitorRecord[],
  uptime: UptimePort,
  now: number,
): Promise<PublicStatusPage> {
  const [views, incidents, maintenance] = await Promise.all([
    Promise.all(monitors.map((m) => monitorView(page, m, uptime, now))),
    incidentsOf(monitors, uptime, now),
    maintenanceOf(page, monitors, uptime, now),
  ])
  // a monitor inside an open window reads `maintenance`, as in the API
  const quiet = new Set(maintenance.filter((w) => w.active).flatMap((w) => w.monitor_ids))
  for (const v of views) if (quiet.has(v.id) && v.state !== 'paused') v.state = 'maintenance'
  return {
    slug: page.slug,
    title: page.title,
    description: page.description,
    state: overallState(views.map((v) => v.state)),
    generated_at: new Date(now).toISOString(),
    monitors: views,
    maintenance,
    incidents,
  }
}
