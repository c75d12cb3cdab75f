/**
 * The public status page as HTML (docs/decisions.md#the-public-face): server-rendered from the same view as the JSON,
 * works without JavaScript, one inline stylesheet allowed by hash. Plain string templates with
 * escaping (not a component renderer): a page of 50 monitors has 4,500 day bars, and this is the
 * page a crowd reloads during an outage. Dates and percents are digits: only names and texts the
 * user typed are escaped.
 */
import type {
  OverallState,
  PublicIncident,
  PublicMaintenance,
  PublicState,
} from '../contract/status-pages.js'
import { esc, time } from './html.js'
import type { MonitorView, PageView } from './model.js'
import { openIncidentsHtml, pastIncidentsHtml } from './render-incidents.js'
import { STATUS_CSS } from './style.js'

export { esc, utc } from './html.js'

export const OVERALL_TEXT: Record<OverallState, string> = {
  operational: 'All systems operational',
  degraded: 'Some systems degraded',
  partial_outage: 'Partial outage',
  major_outage: 'Major outage',
  maintenance: 'Under maintenance',
  unknown: 'Status not known yet',
}

export const STATE_TEXT: Record<PublicState, string> = {
  up: 'Up',
  down: 'Down',
  degraded: 'Degraded',
  maintenance: 'Maintenance',
  paused: 'Paused',
  pending: 'Pending',
}

/** "99.95%", "100%"; "no data" for null. */
export const pct = (p: number | null) => (p === null ? 'no data' : `${Math.round(p * 100) / 100}%`)

/**
 * The 100% bar of each of the page's dates, made once a page: every monitor shows the same 90
 * days, and most of its bars are 100% (no class). `all` is every date's 100% bar in one string
 * (flattened by the first slice), `at[i]` where bar i starts in it: a run of 100% days is one
 * slice, and few pieces make the page cheap to flatten and encode (a piece a bar cost more).
 */
interface FullBars {
  all: string
  at: number[]
}

function fullBars(dates: string[]): FullBars {
  const at: number[] = []
  let all = ''
  for (const date of dates) {
    at.push(all.length)
    all += `<li><i>${date}: 100%</i>`
  }
  at.push(all.length)
  return { all, at }
}

/**
 * A monitor's day bars: each its date and percent as text, and a colour class (none for 100%, the
 * usual day, so 4,500 bars cost a few bytes each; `</li>` is optional in HTML and left out too).
 */
function barsHtml(percents: (number | null)[], dates: string[], full: FullBars): string {
  let out = ''
  let run = -1 // the first of the current run of 100% days
  for (let i = 0; i <= percents.length; i++) {
    const p = i < percents.length ? percents[i] : undefined
    if (p === 100) {
      if (run < 0) run = i
      continue
    }
    if (run >= 0) {
      out += full.all.slice(full.at[run], full.at[i])
      run = -1
    }
    if (p === undefined) break
    const date = dates[i]
    if (p === null) out += `<li class=n><i>${date}: no data</i>`
    else
      out += `<li${p > 100 ? '' : p >= 99 ? ' class=y' : p >= 95 ? ' class=o' : ' class=r'}><i>${date}: ${pct(p)}</i>`
  }
  return out
}

/** "2 d 3 h", "1 h 30 min", "4 min 10 s", "45 s". */
export function duration(seconds: number): string {
  const d = Math.floor(seconds / 86_400)
  const h = Math.floor((seconds % 86_400) / 3600)
  const m = Math.floor((seconds % 3600) / 60)
  const s = seconds % 60
  if (d > 0) return h > 0 ? `${d} d ${h} h` : `${d} d`
  if (h > 0) return m > 0 ? `${h} h ${m} min` : `${h} h`
  if (m > 0) return s > 0 ? `${m} min ${s} s` : `${m} min`
  return `${s} s`
}

function monitorHtml(m: MonitorView, i: number, dates: string[], full: FullBars, h: 3 | 4): string {
  const bars = barsHtml(m.percents, dates, full)
  const first = dates[0] ?? ''
  return (
    `<li><div class=hd><h${h} id=m${i}>${esc(m.name)}</h${h}><span class="st s-${m.state}">${STATE_TEXT[m.state]}</span></div>` +
    (m.url !== undefined ? `<p class=u>${esc(m.url)}</p>` : '') +
    `<p class=u>Uptime: ${pct(m.uptime['24h'])} (24 h), ${pct(m.uptime['30d'])} (30 d), ` +
    `${pct(m.uptime_90d)} (${dates.length} d)</p>` +
    `<ol class=b aria-label="Daily uptime of ${esc(m.name)}, ${esc(first)} to today (UTC)">${bars}</ol>` +
    `<div class=ax aria-hidden=true><span>${dates.length} days ago</span><span>Today</span></div></li>`
  )
}

/** Maintenance on now and coming, as announcements above the services. */
function maintenanceHtml(list: PublicMaintenance[], names: Map<string, string>): string {
  if (list.length === 0) return ''
  const items = list.map(
    (w) =>
      `<li class=an><strong>${w.active ? 'Maintenance in progress' : 'Scheduled maintenance'}: ${esc(w.name)}</strong>` +
      `<p>${time(w.starts_at)} to ${time(w.ends_at)}` +
      (w.monitor_ids.length
        ? `; affects ${esc(w.monitor_ids.map((id) => names.get(id) ?? '').join(', '))}`
        : '') +
      '</p></li>',
  )
  return `<section aria-labelledby=mh><h2 id=mh>Maintenance</h2><ul class=l>${items.join('')}</ul></section>`
}

function incidentsHtml(list: PublicIncident[], days: number): string {
  const items = list.map(
    (x) =>
      `<li><strong>${esc(x.monitor_name)}</strong> was down from ${time(x.started_at)} ` +
      (x.ended_at
        ? `to ${time(x.ended_at)} (${duration(x.duration_seconds)})`
        : `and still is (${duration(x.duration_seconds)} so far)`) +
      '</li>',
  )
  const body = items.length
    ? `<ul class=l>${items.join('')}</ul>`
    : `<p class=mu>No downtime in the last ${days} days.</p>`
  return `<section aria-labelledby=ih><h2 id=ih>Downtime, last ${days} days</h2>${body}</section>`
}

/** Joined with +, not Array#join: that would copy the 4,500 bars once more than encoding does. */
function monitorsHtml(p: PageView): string {
  const full = fullBars(p.dates)
  const list = (ids: Set<string> | undefined, h: 3 | 4) => {
    let out = ''
    for (let i = 0; i < p.monitors.length; i++)
      if (!ids || ids.has(p.monitors[i].id)) out += monitorHtml(p.monitors[i], i, p.dates, full, h)
    return `<ul class=m>${out}</ul>`
  }
  const groups = p.sections.filter((s) => s.monitor_ids.length > 0)
  if (groups.length === 0) return list(undefined, 3)
  const placed = new Set(groups.flatMap((s) => s.monitor_ids))
  const rest = new Set(p.monitors.map((m) => m.id).filter((id) => !placed.has(id)))
  const named = [...groups.map((s) => ({ name: s.name, ids: new Set(s.monitor_ids) }))]
  if (rest.size > 0) named.push({ name: 'Other services', ids: rest })
  return named
    .map(
      (g, i) => `<section aria-labelledby=g${i}><h3 id=g${i}>${esc(g.name)}</h3>${list(g.ids, 4)}</section>`,
    )
    .join('')
}

/** The subscribe forms (docs/status-pages.md): plain HTML forms posting to the page's own address. */
function subscribeHtml(slug: string, forms: { email: boolean }): string {
  const action = `${esc(slug)}/subscribers`
  const email = forms.email
    ? `<form class=sb method=post action="${action}"><label for=se>Email address` +
      '<input id=se type=email name=email required maxlength=254 autocomplete=email></label>' +
      '<button type=submit>Subscribe by email</button></form>'
    : ''
  return (
    '<section aria-labelledby=subh><h2 id=subh>Get updates</h2>' +
    '<p class=mu>Hear of incidents, their updates and maintenance. Every message has a link to unsubscribe.</p>' +
    email +
    `<form class=sb method=post action="${action}"><label for=sw>Webhook URL` +
    '<input id=sw type=url name=webhook_url required maxlength=2048 placeholder="https://"></label>' +
    '<button type=submit>Subscribe a webhook</button></form></section>'
  )
}

export function renderStatusPage(p: PageView, incidentDays: number, forms?: { email: boolean }): string {
  const names = new Map(p.monitors.map((m) => [m.id, m.name]))
  const monitors = p.monitors.length ? monitorsHtml(p) : '<p class=mu>No monitors on this page yet.</p>'
  return (
    '<!doctype html><html lang=en><head><meta charset=utf-8>' +
    '<meta name=viewport content="width=device-width,initial-scale=1"><meta name=color-scheme content="light dark">' +
    `<title>${esc(p.title)}</title><style>${STATUS_CSS}</style>` +
    `<link rel=alternate type="application/rss+xml" title="${esc(p.title)} (RSS)" href="${esc(p.slug)}/feed.rss">` +
    `<link rel=alternate type="application/atom+xml" title="${esc(p.title)} (Atom)" href="${esc(p.slug)}/feed.atom">` +
    '</head><body><div class=w>' +
    `<header><h1>${esc(p.title)}</h1>${p.description ? `<p class=d>${esc(p.description)}</p>` : ''}</header><main>` +
    `<section class="ov s-${p.state}" aria-labelledby=oh><h2 id=oh>${OVERALL_TEXT[p.state]}</h2>` +
    `<p>Updated ${time(p.generated_at)}</p></section>` +
    openIncidentsHtml(p.status_incidents, names) +
    maintenanceHtml(p.maintenance, names) +
    `<section aria-labelledby=sh><h2 id=sh>Services</h2>${monitors}</section>` +
    pastIncidentsHtml(p.status_incidents, names) +
    incidentsHtml(p.incidents, incidentDays) +
    (forms ? subscribeHtml(p.slug, forms) : '') +
    `</main><footer><p><a href="${esc(p.slug)}.json">This page as JSON</a> &middot; ` +
    `<a href="${esc(p.slug)}/feed.rss">RSS</a> &middot; <a href="${esc(p.slug)}/feed.atom">Atom</a> &middot; ` +
    'Monitored with sitehealth</p></footer>' +
    '</div></body></html>'
  )
}

/** The page for a slug nobody has. */
export function renderNotFound(): string {
  return (
    '<!doctype html><html lang=en><head><meta charset=utf-8>' +
    '<meta name=viewport content="width=device-width,initial-scale=1"><meta name=color-scheme content="light dark">' +
    `<title>Status page not found</title><style>${STATUS_CSS}</style></head><body><div class=w><main>` +
    '<h1>Status page not found</h1><p class=d>There is no status page at this address.</p></main></div></body></html>'
  )
}
