/** Human views of status pages (`sitehealth status-pages …`). */
import type { StatusPage, StatusPageList } from '../../contract/status-pages.js'
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
