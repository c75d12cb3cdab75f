/**
 * The posted incidents of a public status page as HTML (docs/status-pages.md): the open ones at the top
 * with their updates newest first, the past ones (90 days) further down with their updates in a
 * <details> (no JavaScript). Every text the owner typed is escaped; line breaks are kept.
 */
import {
  STATUS_INCIDENT_DAYS,
  type IncidentImpact,
  type IncidentStatus,
  type PublicStatusIncident,
} from '../contract/status-pages.js'
import { esc, time } from './html.js'

export const INCIDENT_STATUS_TEXT: Record<IncidentStatus, string> = {
  investigating: 'Investigating',
  identified: 'Identified',
  monitoring: 'Monitoring',
  resolved: 'Resolved',
}

export const IMPACT_TEXT: Record<IncidentImpact, string> = {
  none: 'No impact',
  minor: 'Minor impact',
  major: 'Major impact',
  critical: 'Critical impact',
}

/** The owner's text, escaped, its line breaks kept. */
const paragraph = (text: string) => esc(text).replace(/\r?\n/g, '<br>')

function updatesHtml(i: PublicStatusIncident): string {
  return (
    '<ol class=up>' +
    i.updates
      .map(
        (u) =>
          `<li><strong>${INCIDENT_STATUS_TEXT[u.status]}</strong> <span class=mu>${time(u.created_at)}</span>` +
          `<p>${paragraph(u.message)}</p></li>`,
      )
      .join('') +
    '</ol>'
  )
}

function incidentHead(i: PublicStatusIncident, names: Map<string, string>, level: 3 | 4): string {
  const affected = i.monitor_ids.map((id) => names.get(id)).filter((n): n is string => n !== undefined)
  return (
    `<h${level}>${esc(i.title)}</h${level}>` +
    `<p class=mu>${IMPACT_TEXT[i.impact]} &middot; ${INCIDENT_STATUS_TEXT[i.status]}` +
    (affected.length ? ` &middot; Affects ${esc(affected.join(', '))}` : '') +
    '</p>'
  )
}

/** The open incidents, at the top of the page; nothing when there are none. */
export function openIncidentsHtml(list: PublicStatusIncident[], names: Map<string, string>): string {
  const open = list.filter((i) => i.resolved_at === null)
  if (open.length === 0) return ''
  const items = open.map(
    (i) => `<li class="inc i-${i.impact}">${incidentHead(i, names, 3)}${updatesHtml(i)}</li>`,
  )
  return `<section aria-labelledby=oih><h2 id=oih>Current incidents</h2><ul class=l>${items.join('')}</ul></section>`
}

/** The incidents resolved in the last 90 days, their updates folded. */
export function pastIncidentsHtml(list: PublicStatusIncident[], names: Map<string, string>): string {
  const past = list.filter((i) => i.resolved_at !== null)
  const body = past.length
    ? '<ul class=l>' +
      past
        .map(
          (i) =>
            `<li>${incidentHead(i, names, 3)}<p class=mu>Resolved ${time(i.resolved_at!)}</p>` +
            `<details><summary>Updates (${i.updates.length})</summary>${updatesHtml(i)}</details></li>`,
        )
        .join('') +
      '</ul>'
    : `<p class=mu>No incidents posted in the last ${STATUS_INCIDENT_DAYS} days.</p>`
  return `<section aria-labelledby=pih><h2 id=pih>Past incidents, last ${STATUS_INCIDENT_DAYS} days</h2>${body}</section>`
}
