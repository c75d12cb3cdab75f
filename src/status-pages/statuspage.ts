/**
 * A page in Atlassian Statuspage's public API shape (docs/status-pages.md), so tools that read Statuspage
 * read us: `api/v2/summary.json` (page, components, unresolved incidents, scheduled maintenance,
 * status) and `api/v2/status.json` (page, status). Monitors are components; sections are group
 * components; maintenance windows are scheduled maintenances.
 */
import type {
  IncidentImpact,
  PublicMaintenance,
  PublicState,
  PublicStatusIncident,
} from '../contract/status-pages.js'
import type { PageView } from './model.js'

type ComponentStatus =
  'operational' | 'degraded_performance' | 'partial_outage' | 'major_outage' | 'under_maintenance'

const COMPONENT_STATUS: Record<PublicState, ComponentStatus> = {
  up: 'operational',
  degraded: 'degraded_performance',
  down: 'major_outage',
  maintenance: 'under_maintenance',
  // Statuspage has no "not known yet": a paused or new monitor reads operational
  paused: 'operational',
  pending: 'operational',
}

const INDICATOR_TEXT: Record<IncidentImpact, string> = {
  none: 'All Systems Operational',
  minor: 'Minor Service Outage',
  major: 'Partial System Outage',
  critical: 'Major System Outage',
}
const RANK: IncidentImpact[] = ['none', 'minor', 'major', 'critical']
const worst = (a: IncidentImpact, b: IncidentImpact) => (RANK.indexOf(a) >= RANK.indexOf(b) ? a : b)

/** The page's indicator: the worse of its monitors' states and its open incidents' impacts. */
export function indicatorOf(v: PageView): IncidentImpact {
  const states = v.monitors.map((m) => m.state).filter((s) => s !== 'paused' && s !== 'pending')
  const down = states.filter((s) => s === 'down').length
  let level: IncidentImpact =
    down > 0 && down === states.length
      ? 'critical'
      : down > 0
        ? 'major'
        : states.includes('degraded')
          ? 'minor'
          : 'none'
  for (const i of v.status_incidents) if (i.resolved_at === null) level = worst(level, i.impact)
  return level
}

interface Context {
  id: string
  url: string
  created_at: string
  updated_at: string
}

function pageOf(v: PageView, c: Context) {
  return { id: c.id, name: v.title, url: c.url, time_zone: 'Etc/UTC', updated_at: v.generated_at }
}

function statusOf(v: PageView) {
  const indicator = indicatorOf(v)
  return { indicator, description: INDICATOR_TEXT[indicator] }
}

function components(v: PageView, c: Context) {
  const groups = v.sections.filter((s) => s.monitor_ids.length > 0)
  const groupOf = new Map<string, string>()
  const out: Record<string, unknown>[] = []
  const base = {
    page_id: c.id,
    description: null,
    showcase: false,
    start_date: null,
    only_show_if_degraded: false,
  }
  groups.forEach((s, i) => {
    const id = `${c.id}-group-${i + 1}`
    for (const m of s.monitor_ids) groupOf.set(m, id)
    const states = v.monitors
      .filter((m) => s.monitor_ids.includes(m.id))
      .map((m) => COMPONENT_STATUS[m.state])
    const worstState = ['major_outage', 'partial_outage', 'degraded_performance', 'under_maintenance'].find(
      (x) => states.includes(x as ComponentStatus),
    )
    out.push({
      ...base,
      id,
      name: s.name,
      status: worstState ?? 'operational',
      created_at: c.created_at,
      updated_at: c.updated_at,
      position: out.length + 1,
      group_id: null,
      group: true,
      components: s.monitor_ids,
    })
  })
  for (const m of v.monitors)
    out.push({
      ...base,
      id: m.id,
      name: m.name,
      status: COMPONENT_STATUS[m.state],
      created_at: c.created_at,
      updated_at: v.generated_at,
      position: out.length + 1,
      group_id: groupOf.get(m.id) ?? null,
      group: false,
    })
  return out
}

function incidentOf(i: PublicStatusIncident, v: PageView, c: Context) {
  const monitoring = i.updates.find((u) => u.status === 'monitoring')
  return {
    id: i.id,
    name: i.title,
    status: i.status,
    created_at: i.created_at,
    updated_at: i.updated_at,
    monitoring_at: monitoring?.created_at ?? null,
    resolved_at: i.resolved_at,
    impact: i.impact,
    shortlink: c.url,
    started_at: i.created_at,
    page_id: c.id,
    incident_updates: i.updates.map((u) => ({
      id: u.id,
      status: u.status,
      body: u.message,
      incident_id: i.id,
      created_at: u.created_at,
      updated_at: u.created_at,
      display_at: u.created_at,
      affected_components: null,
      deliver_notifications: true,
      custom_tweet: null,
      tweet_id: null,
    })),
    components: components(v, c).filter((x) => i.monitor_ids.includes(String(x.id))),
  }
}

function maintenanceOf(w: PublicMaintenance, i: number, v: PageView, c: Context) {
  const id = `${c.id}-maintenance-${w.starts_at}-${i}`
  return {
    id,
    name: w.name,
    status: w.active ? 'in_progress' : 'scheduled',
    created_at: c.updated_at,
    updated_at: c.updated_at,
    monitoring_at: null,
    resolved_at: null,
    impact: 'maintenance',
    shortlink: c.url,
    started_at: w.starts_at,
    page_id: c.id,
    incident_updates: [],
    components: components(v, c).filter((x) => w.monitor_ids.includes(String(x.id))),
    scheduled_for: w.starts_at,
    scheduled_until: w.ends_at,
  }
}

export function statuspageSummary(v: PageView, c: Context) {
  return {
    page: pageOf(v, c),
    components: components(v, c),
    incidents: v.status_incidents.filter((i) => i.resolved_at === null).map((i) => incidentOf(i, v, c)),
    scheduled_maintenances: v.maintenance.map((w, i) => maintenanceOf(w, i, v, c)),
    status: statusOf(v),
  }
}

export function statuspageStatus(v: PageView, c: Context) {
  return { page: pageOf(v, c), status: statusOf(v) }
}
