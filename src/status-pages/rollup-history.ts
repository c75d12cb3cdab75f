/**
 * The status pages' UptimePort over the monitors' rollups (docs/decisions.md#monitoring-depth and
 * #the-public-face): the same hourly and daily buckets and incidents the uptime API reads, so
 * the public pages, badges and the API never disagree and no second copy of history is kept.
 * Each read covers the page's monitors in one store call (one query on PostgreSQL).
 * Maintenance: the owner's windows open now or coming (maintenance/), each by its current or next
 * opening.
 */
import type { MaintenanceService } from '../monitors/maintenance/index.js'
import { percent, uptimeWindows } from '../monitors/uptime/index.js'
import type { HistoryStore } from '../store/history.js'
import type { UptimePort } from './uptime.js'

export function rollupUptime(
  monitors: HistoryStore,
  now: () => number = Date.now,
  maintenance?: MaintenanceService,
): UptimePort {
  return {
    async windows(ms) {
      return uptimeWindows(
        monitors,
        ms.map((m) => m.id),
        now(),
      )
    },
    async days(ms, fromMs, count) {
      // two arrays a monitor, not 90 bucket objects
      const counts = await monitors.rollupCountsOf(
        ms.map((m) => m.id),
        'day',
        fromMs,
        count,
      )
      const out = new Map<string, (number | null)[]>()
      for (const [id, c] of counts) {
        const days = new Array<number | null>(count)
        for (let i = 0; i < count; i++) days[i] = percent(c.runs[i], c.failed_runs[i])
        out.set(id, days)
      }
      return out
    },
    async incidents(ms, sinceMs) {
      const found = await monitors.incidentsOf(
        ms.map((m) => m.id),
        sinceMs,
      )
      const out = new Map<string, { started_at: string; ended_at: string | null }[]>()
      for (const [id, list] of found)
        out.set(
          id,
          list.map((i) => ({ started_at: i.started_at, ended_at: i.ended_at })),
        )
      return out
    },
    async maintenance(userId, nowMs) {
      return maintenance ? maintenance.upcoming(userId, nowMs) : []
    },
  }
}
