/** Human views of status pages (`sitehealth status-pages …`). */
import type {
  StatusIncident,
  StatusIncidentList,
  StatusPage,
  StatusPageList,
} from '../../contract/status-pages.js'
import { fields, formatTime } from './format.js'
import { idCell, renderTable } from './table.js'
import type { View } from './view.js'

export function renderStatusPage(view: View, p: StatusPage): string {
  const { style } = view
  return [
    `${style.bold(p.title)}  ${p.public_url}`,
    ...fields(view, [
      ['public url', p.public_url],
      ['json', `${p.public_url}.json`],
      ['slug', p.slug],
      ['description', p.description ?? '-'],
      ['monitors', p.monitor_ids.length ? p.monitor_ids.join(', ') : '-'],
      ['show urls', p.show_urls ? 'yes' : 'no'],
      ['created', formatTime(p.created_at)],
      ['status page id', p.id],
    ]),
    '',
    `Badge (Markdown): ![status](${p.public_url}/badges/<monitor id>/status.svg)`,
  ].join('\n')
}

export function renderStatusPageList(view: View, list: StatusPageList, bin = 'sitehealth'): string {
  if (list.status_pages.length === 0)
    return `No status pages. Create one with \`${bin} status-pages create --slug acme --title "Acme status" --monitor <monitor id>\`.`
  return renderTable(
    view,
    [
      { header: 'id' },
      { header: 'title', shrink: true, minWidth: 6 },
      { header: 'public url', shrink: true, minWidth: 16 },
      { header: 'monitors', dropOrder: 1 },
    ],
    list.status_pages.map((p) => [idCell(p.id), p.title, p.public_url, String(p.monitor_ids.length)]),
  )
}

/** One incident with its updates, newest first (`status-pages incidents …`). */
export function renderStatusIncident(view: View, i: StatusIncident): string {
  const { style } = view
  return [
    `${style.bold(i.title)}  ${i.status}${i.draft ? ' (draft: only you see it)' : ''}`,
    ...fields(view, [
      ['impact', i.impact],
      ['monitors', i.monitor_ids.length ? i.monitor_ids.join(', ') : '-'],
      ['created', formatTime(i.created_at)],
      ['resolved', i.resolved_at ? formatTime(i.resolved_at) : '-'],
      ['incident id', i.id],
    ]),
    '',
    ...i.updates.map((u) => `  ${formatTime(u.created_at)}  ${style.bold(u.status)}  ${u.message}`),
  ].join('\n')
}

export function renderStatusIncidentList(view: View, list: StatusIncidentList): string {
  if (list.incidents.length === 0) return 'No incidents on this page.'
  return renderTable(
    view,
    [
      { header: 'id' },
      { header: 'title', shrink: true, minWidth: 8 },
      { header: 'status' },
      { header: 'impact', dropOrder: 2 },
      { header: 'created', dropOrder: 1 },
    ],
    list.incidents.map((i) => [
      idCell(i.id),
      i.title,
      i.draft ? `${i.status} (draft)` : i.status,
      i.impact,
      formatTime(i.created_at),
    ]),
  )
}
