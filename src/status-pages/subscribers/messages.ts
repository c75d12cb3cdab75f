/**
 * What subscribers receive (docs/status-pages.md), as pure functions: the confirmation mail, and a
 * notice of an incident, its update or a maintenance window, as a mail text and as a webhook body.
 * Mail is plain text: what the owner typed goes in as text (a subject loses its line breaks, so
 * it cannot add a header); webhooks get JSON. The unsubscribe link is the only part that differs
 * between two subscribers of one notice, so a notice is made once and each mail adds its link.
 */
import type { StatusIncidentRecord } from '../../store/status-incidents.js'
import type { MaintenanceRecord } from '../../store/maintenance.js'
import type { StatusPageRecord } from '../../store/status-pages.js'
import type { SubscriberEvent } from '../../contract/status-pages.js'
import { IMPACT_TEXT, INCIDENT_STATUS_TEXT } from '../render-incidents.js'
import { utc } from '../html.js'

/** One thing to tell every subscriber of a page. */
export interface Notice {
  event: SubscriberEvent
  subject: string
  /** The mail's text before the unsubscribe lines. */
  text: string
  /** The webhook body's fields beside `event` and `unsubscribe_url`. */
  data: Record<string, unknown>
}

/** A header-safe line: no control characters, at most 200 characters. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]+/g
export const oneLine = (s: string) => s.replace(CONTROL, ' ').trim().slice(0, 200)

export function confirmationMail(page: StatusPageRecord, confirmUrl: string, days: number) {
  return {
    subject: oneLine(`Confirm your subscription to ${page.title}`),
    text:
      `Someone, hopefully you, asked to hear of incidents and maintenance on ${oneLine(page.title)}.\n\n` +
      `To confirm, open this link (valid ${days} days):\n${confirmUrl}\n\n` +
      'If it was not you, ignore this mail: nothing more will be sent to this address.\n',
  }
}

/** The lines every notice mail ends with. */
export function unsubscribeLines(pageTitle: string, unsubscribeUrl: string): string {
  return (
    `\n--\nYou get this mail because you subscribed to ${oneLine(pageTitle)}.\n` +
    `Unsubscribe with one click: ${unsubscribeUrl}\n`
  )
}

export function incidentNotice(
  page: StatusPageRecord,
  pageUrl: string,
  i: StatusIncidentRecord,
  event: SubscriberEvent,
  names: Map<string, string>,
): Notice {
  const latest = i.updates[i.updates.length - 1]
  const status = INCIDENT_STATUS_TEXT[latest?.status ?? i.status]
  const affected = i.monitor_ids.map((id) => names.get(id)).filter((n): n is string => !!n)
  const kind =
    event === 'incident.created' ? 'New incident' : event === 'incident.resolved' ? 'Resolved' : status
  return {
    event,
    subject: oneLine(`[${page.title}] ${kind}: ${i.title}`),
    text:
      `${i.title}\n` +
      `${status} · ${IMPACT_TEXT[i.impact]}${affected.length ? ` · Affects ${affected.join(', ')}` : ''}\n\n` +
      (latest ? `${latest.message}\n\n${utc(latest.created_at)}\n\n` : '') +
      `Follow it on the status page: ${pageUrl}\n`,
    data: {
      status_page: { title: page.title, url: pageUrl },
      incident: {
        id: i.id,
        title: i.title,
        status: i.status,
        impact: i.impact,
        monitor_ids: i.monitor_ids,
        created_at: i.created_at,
        updated_at: i.updated_at,
        resolved_at: i.resolved_at,
        update: latest ?? null,
      },
    },
  }
}

function when(w: MaintenanceRecord): string {
  if (w.weekly) {
    const { days, start, duration_minutes, timezone } = w.weekly
    return `every ${days.join(', ')} at ${start} (${timezone}) for ${duration_minutes} min`
  }
  return `from ${w.starts_at ? utc(w.starts_at) : 'now'} to ${w.ends_at ? utc(w.ends_at) : 'further notice'}`
}

export function maintenanceNotice(
  page: StatusPageRecord,
  pageUrl: string,
  w: MaintenanceRecord,
  affected: string[],
): Notice {
  return {
    event: 'maintenance.scheduled',
    subject: oneLine(`[${page.title}] Scheduled maintenance: ${w.name}`),
    text:
      `Scheduled maintenance: ${w.name}\n${when(w)}` +
      `${affected.length ? `\nAffects ${affected.join(', ')}` : ''}\n\n` +
      `See the status page: ${pageUrl}\n`,
    data: {
      status_page: { title: page.title, url: pageUrl },
      maintenance: {
        id: w.id,
        name: w.name,
        starts_at: w.starts_at,
        ends_at: w.ends_at,
        weekly: w.weekly,
        monitor_ids: w.monitor_ids === 'all' ? page.monitor_ids : w.monitor_ids,
      },
    },
  }
}
