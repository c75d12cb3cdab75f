/**
 * The status pages' UptimePort over the monitors' rollups (docs/decisions.md#monitoring-depth and
 * #the-public-face): the same hourly and daily buckets and incidents the uptime API reads, so
 * the public pages, badges and the API never disagree and no second copy of history is kept.
 * Maintenance: the owner's windows open now or coming (maintenance/), each by its current or next
 * opening.
 */
import type { MaintenanceService } from '../monitors/maintenance/index.js'
import { percent, uptimeWindows } from '../monitors/uptime/index.js'
import { DAY_MS } from '../store/history.js'
import type { MonitorStore } from '../store/monitors.js'
import { daysBetween, dayOf, type UptimePort } from '../status-pages/index.js'

export function rollupUptime(
  monitors: MonitorStore,
  now: () => number = Date.now,
  maintenance?: MaintenanceService,
): UptimePort {
  return {
    async windows(m) {
      return (await uptimeWindows(monitors, [m.id], now())).get(m.id)!
    },
    async days(m, fromDay, toDay) {
      const from = Date.parse(`${fromDay}T00:00:00Z`)
      const to = Date.parse(`${toDay}T00:00:00Z`) + DAY_MS
      const byDay = new Map(
        (await monitors.rollups(m.id, 'day', from, to)).map((b) => [dayOf(b.start), b] as const),
      )
      return daysBetween(fromDay, toDay).map((date) => {
        const b = byDay.get(date)
        return { date, uptime_percent: b ? percent(b.runs, b.failed_runs) : null }
      })
    },
    async incidents(m, sinceMs) {
      return (await monitors.incidents(m.id, sinceMs)).map((i) => ({
        started_at: i.started_at,
        ended_at: i.ended_at,
      }))
    },
    async maintenance(userId, nowMs) {
      return maintenance ? maintenance.upcoming(userId, nowMs) : []
    },
  }
}
