/**
 * The maintenance-window routes of docs/decisions.md#monitoring-depth: bearer key, the same envelope
 * and rate limits as the monitor routes. Another user's window is 404, exactly like an unknown one;
 * bad input (an unknown time zone, ends_at before starts_at, a monitor not the caller's) is a 400
 * naming the field, before anything is saved.
 */
import type { H3Event } from 'h3'
import {
  MAINTENANCE_PATHS,
  MaintenanceCreate,
  MaintenancePatch,
  type MaintenanceList,
  type MaintenanceWindow,
} from '../../contract/monitoring.js'
import { isUuid } from '../../monitors/ids.js'
import { maintenanceView, type MaintenanceService } from '../../monitors/maintenance/index.js'
import { parseWith, readJson } from '../../http/body.js'
import type { ServerOptions } from '../context.js'
import { badRequest } from '../../http/errors.js'
import { keyGuard } from '../guard.js'
import type { RateLimiter } from '../../http/rate-limit.js'

export function maintenanceRoutes(
  opts: ServerOptions,
  service: MaintenanceService,
  limiter: RateLimiter,
  now: () => number = Date.now,
) {
  const guard = keyGuard(opts, limiter)

  function windowId(event: H3Event): string {
    const id = String(event.context.params?.id ?? '')
    if (!isUuid(id)) throw badRequest('The maintenance window id must be a UUID.')
    return id.toLowerCase()
  }

  async function body(event: H3Event): Promise<unknown> {
    const b = await readJson(event)
    if (!b || typeof b !== 'object' || Array.isArray(b)) throw badRequest('The body must be a JSON object.')
    return b
  }

  const view = (w: Parameters<typeof maintenanceView>[0]) => maintenanceView(w, now())

  return {
    [MAINTENANCE_PATHS.windows]: {
      POST: async (event: H3Event): Promise<Response> => {
        const key = await guard(event, 'api')
        const input = parseWith(MaintenanceCreate, await body(event), 'maintenance window')
        const w = await service.create(key.user_id, input)
        return new Response(JSON.stringify(view(w)), {
          status: 201,
          headers: { 'content-type': 'application/json; charset=utf-8' },
        })
      },
      GET: async (event: H3Event): Promise<MaintenanceList> => {
        const key = await guard(event, 'api')
        return { maintenance_windows: (await service.list(key.user_id)).map(view) }
      },
    },
    [MAINTENANCE_PATHS.window]: {
      GET: async (event: H3Event): Promise<MaintenanceWindow> => {
        const key = await guard(event, 'api')
        return view(await service.get(key.user_id, windowId(event)))
      },
      PATCH: async (event: H3Event): Promise<MaintenanceWindow> => {
        const key = await guard(event, 'api')
        const id = windowId(event)
        const input = parseWith(MaintenancePatch, await body(event), 'maintenance window change')
        return view(await service.update(key.user_id, id, input))
      },
      DELETE: async (event: H3Event): Promise<Response> => {
        const key = await guard(event, 'api')
        const id = windowId(event)
        await service.remove(key.user_id, id)
        return new Response(null, { status: 204 })
      },
    },
  }
}
