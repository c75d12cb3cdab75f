/**
 * The monitor routes of docs/decisions.md#monitors-and-alerts. Same bearer keys, envelope and rate limits as the public
 * API: running a monitor now counts against the run limit and is charged like a run; every other
 * route counts against the general limit. Another user's monitor is 404, exactly like an unknown
 * one. Bad input is a 400 before anything is created.
 */
import { getQuery, type H3Event } from 'h3'
import {
  MonitorCreate,
  MonitorPatch,
  MONITOR_PATHS,
  type Monitor,
  type MonitorEvents,
  type MonitorList,
  type MonitorRuns,
  type MonitorRun,
} from '../../contract/monitors.js'
import { UptimeQuery, type UptimeReport } from '../../contract/monitoring.js'
import { MAX_TAGS, tagProblem } from '../../contract/tags.js'
import type { RunResult } from '../../contract/schemas.js'
import { asSentence } from '../../checks/index.js'
import { toRunResult } from '../mapping.js'
import { isUuid } from '../../monitors/ids.js'
import type { Monitoring } from '../../monitors/runtime.js'
import type { MonitorService } from '../../monitors/service.js'
import { eventView, monitorView, runView, type MonitorViewExtras } from '../../monitors/views.js'
import type { MonitorRecord, PageOptions } from '../../store/monitors.js'
import { NO_CREDITS } from '../../runs/index.js'
import { parseWith, readJson } from '../../http/body.js'
import { pageQuery } from '../page-query.js'
import type { ServerOptions } from '../context.js'
import { ServiceError, badRequest } from '../../http/errors.js'
import type { FailureBudget } from '../../runs/index.js'
import { DEFAULT_CAPACITY_WAIT_MS, keyGuard, refusedAsServiceError } from '../guard.js'
import type { RateLimiter } from '../../http/rate-limit.js'
import { pushUrlOf } from './push.js'

const UUID_CURSOR = { valid: isUuid, normalize: (c: string) => c.toLowerCase() }
const page = (event: H3Event): PageOptions => pageQuery(event, UUID_CURSOR)

/** The `tag` query parameters of the monitor list (contract/tags.ts): each a tag, every one matched. */
function tagQuery(event: H3Event): string[] {
  const tags = event.url.searchParams.getAll('tag')
  if (tags.length > MAX_TAGS) throw badRequest(`Invalid query (tag): at most ${MAX_TAGS} tags.`)
  for (const t of tags) {
    const problem = tagProblem(t)
    if (problem) throw badRequest(`Invalid query (tag): ${problem}; got ${JSON.stringify(t)}.`)
  }
  return tags
}

function monitorId(event: H3Event): string {
  const id = String(event.context.params?.id ?? '')
  if (!isUuid(id)) throw badRequest('The monitor id must be a UUID.')
  return id.toLowerCase()
}

/** A monitor's history: its runs, its events and its uptime (all free reads). */
function historyRoutes(service: MonitorService, guard: ReturnType<typeof keyGuard>) {
  return {
    [MONITOR_PATHS.runs]: {
      GET: async (event: H3Event): Promise<MonitorRuns> => {
        const key = await guard(event, 'api')
        const m = await service.get(key.user_id, monitorId(event))
        const { items, next } = await service.monitors.listRuns(m.id, page(event))
        return { runs: items.map(runView), next_cursor: next }
      },
    },
    [MONITOR_PATHS.events]: {
      GET: async (event: H3Event): Promise<MonitorEvents> => {
        const key = await guard(event, 'api')
        const m = await service.get(key.user_id, monitorId(event))
        const { items, next } = await service.monitors.listEvents(m.id, page(event))
        return { events: items.map(eventView), next_cursor: next }
      },
    },
    [MONITOR_PATHS.uptime]: {
      GET: async (event: H3Event): Promise<UptimeReport> => {
        const key = await guard(event, 'api')
        const id = monitorId(event)
        const q = parseWith(UptimeQuery, getQuery(event), 'uptime query')
        return service.uptime(key.user_id, id, q)
      },
    },
  }
}
async function body(event: H3Event): Promise<unknown> {
  const b = await readJson(event)
  if (!b || typeof b !== 'object' || Array.isArray(b)) throw badRequest('The body must be a JSON object.')
  return b
}

export function monitorRoutes(
  opts: ServerOptions,
  monitoring: Monitoring,
  limiter: RateLimiter,
  inFlight: Set<Promise<unknown>>,
  failures: FailureBudget,
) {
  const { service } = monitoring
  const guard = keyGuard(opts, limiter)

  /** Monitors as the wire has them, with their uptime windows (one read for the lot). */
  async function views(ms: MonitorRecord[], x: MonitorViewExtras = {}): Promise<Monitor[]> {
    const [up, quiet] = await Promise.all([
      service.uptimeWindows(ms.map((m) => m.id)),
      service.maintenance.of(ms),
    ])
    return ms.map((m) => monitorView(m, { ...x, uptime: up.get(m.id), inMaintenance: quiet.has(m.id) }))
  }
  const view = async (m: MonitorRecord, x: MonitorViewExtras = {}) => (await views([m], x))[0]

  return {
    [MONITOR_PATHS.monitors]: {
      POST: async (event: H3Event): Promise<Response> => {
        const key = await guard(event, 'api')
        const input = parseWith(MonitorCreate, await body(event), 'monitor')
        const { monitor, secrets, pushToken } = await service.create(key.user_id, input)
        const pushUrl = pushToken && pushUrlOf(opts.publicUrl ?? event.url.origin, pushToken)
        return new Response(JSON.stringify(monitorView(monitor, { secrets, pushUrl })), {
          status: 201,
          headers: { 'content-type': 'application/json; charset=utf-8' },
        })
      },
      GET: async (event: H3Event): Promise<MonitorList> => {
        const key = await guard(event, 'api')
        const { items, next } = await service.monitors.listMonitors(key.user_id, {
          ...page(event),
          tags: tagQuery(event),
        })
        return { monitors: await views(items), next_cursor: next }
      },
    },
    [MONITOR_PATHS.monitor]: {
      GET: async (event: H3Event): Promise<Monitor> => {
        const key = await guard(event, 'api')
        return view(await service.get(key.user_id, monitorId(event)))
      },
      PATCH: async (event: H3Event): Promise<Monitor> => {
        const key = await guard(event, 'api')
        const id = monitorId(event)
        const input = parseWith(MonitorPatch, await body(event), 'monitor change')
        const { monitor, secrets } = await service.update(key.user_id, id, input)
        return view(monitor, { secrets })
      },
      DELETE: async (event: H3Event): Promise<Response> => {
        const key = await guard(event, 'api')
        const id = monitorId(event)
        await service.remove(key.user_id, id)
        return new Response(null, { status: 204 })
      },
    },
    ...historyRoutes(service, guard),
    [MONITOR_PATHS.run]: {
      POST: async (event: H3Event): Promise<RunResult | MonitorRun> => {
        const key = await guard(event, 'run')
        const m = await service.get(key.user_id, monitorId(event))
        // the same steps as the run route: failure budget, credit, a slot of the shared capacity
        const work = service.run(m, 'manual', undefined, {
          waitMs: opts.capacityWaitMs ?? DEFAULT_CAPACITY_WAIT_MS,
          budget: { failures, key: key.id },
        })
        inFlight.add(work)
        let outcome
        try {
          outcome = await work
        } catch (err) {
          throw refusedAsServiceError(err)
        } finally {
          inFlight.delete(work)
        }
        if (outcome.kind === 'saved') return toRunResult(outcome.check, outcome.report, outcome.remaining)
        // a type that keeps no check answers with its run, ok or failed (nothing charged then)
        if (outcome.kind === 'probed') return outcome.run
        if (outcome.kind === 'no_credits') throw new ServiceError(402, 'insufficient_credits', NO_CREDITS)
        throw outcome.code === 'invalid_url'
          ? new ServiceError(400, 'invalid_url', asSentence(outcome.message))
          : new ServiceError(502, 'check_failed', asSentence(outcome.message))
      },
    },
  }
}
