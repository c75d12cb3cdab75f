/** Human views of maintenance windows (`sitehealth maintenance …`). */
import type { MaintenanceList, MaintenanceWindow } from '../../contract/monitoring.js'
import { fields, formatTime } from './format.js'
import { idCell, renderTable } from './table.js'
import type { View } from './view.js'

/** "sat, sun 02:00 for 90 min (Europe/Berlin)" or "2026-12-01 22:00 → 23:00". */
export function whenOf(w: MaintenanceWindow): string {
  if (w.weekly) {
    const { days, start, duration_minutes, timezone } = w.weekly
    return `every ${days.join(', ')} ${start} for ${duration_minutes} min (${timezone})`
  }
  return `${formatTime(w.starts_at!)} → ${formatTime(w.ends_at!)}`
}

const monitorsOf = (w: MaintenanceWindow) => (w.monitor_ids === 'all' ? 'all' : w.monitor_ids.join(', '))
const nextOf = (w: MaintenanceWindow) =>
  w.active
    ? `open now, until ${formatTime(w.next_ends_at!)}`
    : w.next_starts_at
      ? formatTime(w.next_starts_at)
      : 'never again'

export function renderMaintenance(view: View, w: MaintenanceWindow): string {
  const { style } = view
  return [
    `${style.bold(w.name)}  ${whenOf(w)}`,
    ...fields(view, [
      ['monitors', monitorsOf(w)],
      ['next', nextOf(w)],
      ['window id', w.id],
    ]),
  ].join('\n')
}

export function renderMaintenanceList(view: View, list: MaintenanceList, bin = 'sitehealth'): string {
  if (list.maintenance_windows.length === 0)
    return `No maintenance windows. Create one with \`${bin} maintenance create --name Release --all --starts-at 2026-12-01T22:00:00Z --ends-at 2026-12-01T23:00:00Z\`.`
  return renderTable(
    view,
    [
      { header: 'id' },
      { header: 'name', shrink: true, minWidth: 6 },
      { header: 'when', shrink: true, minWidth: 16 },
      { header: 'next', shrink: true, minWidth: 10 },
      { header: 'monitors', dropOrder: 1 },
    ],
    list.maintenance_windows.map((w) => [
      idCell(w.id),
      w.name,
      whenOf(w),
      nextOf(w),
      w.monitor_ids === 'all' ? 'all' : String(w.monitor_ids.length),
    ]),
  )
}
