/**
 * The dashboard's door to monitors (its DashboardMonitors port) over the monitor service: the same
 * checks of input as the API (the contract's schema, then the service's rules), the same views,
 * and another user's monitor is as unknown as a missing one.
 */
import { describeAssertion, parseAssertion, AssertionSyntaxError } from '../assertions/index.js'
import { channelRequestOf, channelTarget } from '../contract/channels.js'
import { ChannelRequest, MonitorCreate, MonitorPatch } from '../contract/monitors.js'
import {
  MonitorRejected,
  type DashboardMonitors,
  type MonitorEdit,
  type MonitorRunView,
  type MonitorView,
} from '../dashboard/monitors-port.js'
import { isUuid } from '../monitors/ids.js'
import type { MonitorService } from '../monitors/service.js'
import { eventView, monitorView, runView } from '../monitors/views.js'
import { RunRefused } from '../runs/index.js'
import { DomainError } from '../shared/domain-error.js'
import { DEFAULT_CAPACITY_WAIT_MS } from '../server/guard.js'
import type { UptimeWindows } from '../contract/monitoring.js'
import type { MonitorRecord } from '../store/monitors.js'
import type { RunRecord } from '../store/run-log.js'

export function dashboardMonitors(service: MonitorService): DashboardMonitors {
  /** The user's monitor, or undefined (a malformed id included). */
  const mine = async (userId: string, id: string) => {
    if (!isUuid(id)) return undefined
    try {
      return await service.get(userId, id)
    } catch (err) {
      if (err instanceof DomainError && err.kind === 'not_found') return undefined
      throw err
    }
  }
  return {
    async list(userId, limit, runs = 0) {
      const { items } = await service.monitors.listMonitors(userId, { limit })
      const [uptime, quiet] = await Promise.all([
        service.uptimeWindows(items.map((m) => m.id)),
        service.maintenance.of(items),
      ])
      return Promise.all(
        items.map(async (m) => ({
          ...viewOf(m, uptime.get(m.id), quiet.has(m.id)),
          recent: runs > 0 ? (await service.monitors.listRuns(m.id, { limit: runs })).items.map(runOf) : [],
        })),
      )
    },
    async create(userId, body) {
      const parsed = MonitorCreate.safeParse(body)
      if (!parsed.success) {
        const issue = parsed.error.issues[0]
        throw new MonitorRejected(`${issue.path.join('.') || 'monitor'}: ${issue.message}`)
      }
      return viewOf((await rejecting(() => service.create(userId, parsed.data))).monitor)
    },
    async createHeartbeat(userId, body) {
      const parsed = valid(MonitorCreate, { type: 'heartbeat', ...body })
      const { monitor, pushToken } = await rejecting(() => service.create(userId, parsed))
      return { monitor: viewOf(monitor), push_token: pushToken! }
    },
    async get(userId, id) {
      const m = await mine(userId, id)
      if (!m) return undefined
      const quiet = (await service.maintenance.of([m])).has(m.id)
      return viewOf(m, (await service.uptimeWindows([m.id])).get(m.id), quiet)
    },
    async update(userId, id, edit) {
      if (!(await mine(userId, id))) return undefined
      return viewOf((await rejecting(() => service.update(userId, id, editPatch(edit)))).monitor)
    },
    async setChannels(userId, id, change) {
      const m = await mine(userId, id)
      if (!m) return undefined
      const patch = valid(MonitorPatch, { channels: channelList(service.channelRequests(m), change) })
      const { monitor, secrets } = await rejecting(() => service.update(userId, id, patch))
      const secret = [...secrets.values()][0]
      return { monitor: viewOf(monitor), ...(secret ? { secret } : {}) }
    },
    async remove(userId, id) {
      if (!(await mine(userId, id))) return false
      await service.remove(userId, id)
      return true
    },
    async runNow(userId, id) {
      const m = await mine(userId, id)
      if (!m) return undefined
      let outcome
      try {
        outcome = await service.run(m, 'manual', undefined, { waitMs: DEFAULT_CAPACITY_WAIT_MS })
      } catch (err) {
        // too many checks at once on the server: say so, nothing was charged
        if (err instanceof RunRefused) throw new MonitorRejected(err.message)
        throw err
      }
      if (outcome.kind === 'no_credits')
        throw new MonitorRejected('No credits left to run it: nothing was run or charged.')
      return viewOf((await mine(userId, id)) ?? m)
    },
    async setPaused(userId, id, paused) {
      if (!(await mine(userId, id))) return undefined
      return viewOf((await service.update(userId, id, { paused })).monitor)
    },
    async runs(userId, id, limit) {
      const m = await mine(userId, id)
      if (!m) return []
      const { items } = await service.monitors.listRuns(m.id, { limit })
      return items.map(runOf)
    },
    async maintenance(userId, id) {
      const m = await mine(userId, id)
      if (!m) return []
      return (await service.maintenance.upcoming(userId))
        .filter((w) => w.monitor_ids === 'all' || w.monitor_ids.includes(m.id))
        .map(({ name, starts_at, ends_at }) => ({ name, starts_at, ends_at }))
    },
    async events(userId, id, limit) {
      const m = await mine(userId, id)
      if (!m) return []
      const { items } = await service.monitors.listEvents(m.id, { limit })
      return items.map(eventView)
    },
  }
}

function runOf(r: RunRecord): MonitorRunView {
  const v = runView(r)
  return {
    started_at: v.started_at,
    outcome: v.outcome,
    check_id: v.check_id ?? null,
    health_score: v.health_score ?? null,
    response_time_ms: v.response_time_ms ?? null,
    error: r.error?.message ?? null,
    assertions: v.assertions.map((a) => ({ passed: a.passed })),
  }
}

/** The dashboard's view: the API's, with assertions written as the CLI writes them. */
function viewOf(m: MonitorRecord, uptime?: UptimeWindows, inMaintenance = false): MonitorView {
  const v = monitorView(m, { uptime, inMaintenance })
  return { ...v, assertions: v.assertions.map(describeAssertion) }
}

/** Input checked against the contract's schema; the first problem, naming its field, is the error. */
function valid<T>(
  schema: {
    safeParse(
      x: unknown,
    ):
      | { success: true; data: T }
      | { success: false; error: { issues: Array<{ path: PropertyKey[]; message: string }> } }
  },
  input: unknown,
): T {
  const parsed = schema.safeParse(input)
  if (parsed.success) return parsed.data
  const issue = parsed.error.issues[0]
  throw new MonitorRejected(`${issue.path.map(String).join('.') || 'monitor'}: ${issue.message}`)
}

/** The page status of a service's refusal (quota.ts: the monitor cap, the create rate). */
const STATUS: Partial<Record<DomainError['kind'], number>> = { conflict: 409, rate_limited: 429 }

/**
 * A service call whose input errors (a bad URL, a ref taken…) and refusals (the account's monitor
 * cap, its create rate) become MonitorRejected, with the page status they call for.
 */
async function rejecting<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn()
  } catch (err) {
    if (err instanceof DomainError)
      throw new MonitorRejected(err.message, STATUS[err.kind] ?? 400, err.retryAfterSec)
    throw err
  }
}

/** The edit form as a patch: assertions parsed as the CLI parses them, then the contract's schema. */
function editPatch(edit: MonitorEdit): MonitorPatch {
  const assertions = edit.assertions.map((line, i) => {
    try {
      return parseAssertion(line)
    } catch (err) {
      if (err instanceof AssertionSyntaxError) throw new MonitorRejected(`Assertion ${i + 1}: ${err.message}`)
      throw err
    }
  })
  return valid(MonitorPatch, {
    name: edit.name,
    // a heartbeat monitor's form has no URL
    ...(edit.url ? { url: edit.url } : {}),
    interval_seconds: edit.interval_seconds,
    ...(edit.grace_seconds !== undefined ? { grace_seconds: edit.grace_seconds } : {}),
    alerts: { down_after: edit.down_after, min_score: edit.min_score },
    assertions,
  })
}

/**
 * The monitor's channels as requests, less those removed, plus the one added: unchanged channels
 * are sent with their real targets (the service keeps their ids and secrets by equality).
 */
function channelList(
  current: Array<{ id: string; request: ChannelRequest }>,
  change: { remove: string[]; add?: { type: string; target: string } },
): unknown[] {
  const kept = current.filter((c) => !change.remove.includes(c.id)).map((c) => c.request)
  if (!change.add) return kept
  const added = valid(ChannelRequest, channelRequestOf(change.add.type, change.add.target))
  if (kept.some((c) => c.type === added.type && channelTarget(c) === channelTarget(added)))
    throw new MonitorRejected('This monitor already sends its alerts to that channel.')
  return [...kept, added]
}
