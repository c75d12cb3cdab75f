/**
 * The dashboard's door to monitors (its DashboardMonitors port) over the monitor service: the same
 * checks of input as the API (the contract's schema, then the service's rules), the same views,
 * and another user's monitor is as unknown as a missing one.
 */
import { MonitorCreate } from '../contract/monitors.js'
import { MonitorRejected, type DashboardMonitors } from '../dashboard/monitors-port.js'
import { isUuid } from '../monitors/ids.js'
import { MonitorInputError, type MonitorService } from '../monitors/service.js'
import { eventView, monitorView, runView } from '../monitors/views.js'

export function dashboardMonitors(service: MonitorService): DashboardMonitors {
  /** The user's monitor, or undefined (a malformed id included). */
  const mine = async (userId: string, id: string) => {
    if (!isUuid(id)) return undefined
    try {
      return await service.get(userId, id)
    } catch (err) {
      if (err instanceof MonitorInputError && err.notFound) return undefined
      throw err
    }
  }
  return {
    async list(userId, limit) {
      const { items } = await service.monitors.listMonitors(userId, { limit })
      return items.map((m) => monitorView(m))
    },
    async create(userId, body) {
      const parsed = MonitorCreate.safeParse(body)
      if (!parsed.success) {
        const issue = parsed.error.issues[0]
        throw new MonitorRejected(`${issue.path.join('.') || 'monitor'}: ${issue.message}`)
      }
      try {
        return monitorView((await service.create(userId, parsed.data)).monitor)
      } catch (err) {
        if (err instanceof MonitorInputError) throw new MonitorRejected(err.message)
        throw err
      }
    },
    async get(userId, id) {
      const m = await mine(userId, id)
      return m && monitorView(m)
    },
    async setPaused(userId, id, paused) {
      if (!(await mine(userId, id))) return undefined
      return monitorView((await service.update(userId, id, { paused })).monitor)
    },
    async runs(userId, id, limit) {
      const m = await mine(userId, id)
      if (!m) return []
      const { items } = await service.monitors.listRuns(m.id, { limit })
      return items.map((r) => ({ ...runView(r), error: r.error?.message ?? null }))
    },
    async events(userId, id, limit) {
      const m = await mine(userId, id)
      if (!m) return []
      const { items } = await service.monitors.listEvents(m.id, { limit })
      return items.map(eventView)
    },
  }
}
