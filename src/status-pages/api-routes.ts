/**
 * The status-page routes of the API (docs/decisions.md#the-public-face): bearer key, the same envelope and rate limits
 * as the monitor routes. Another user's page is 404, exactly like an unknown one; a slug taken (or
 * reserved) is 409 `conflict`; bad input is a 400 naming the field, before anything is saved.
 */
import type { H3Event } from 'h3'
import {
  STATUS_PAGE_PATHS,
  StatusPageCreate,
  StatusPagePatch,
  type StatusPage,
  type StatusPageList,
} from '../contract/status-pages.js'
import { isUuid } from '../monitors/ids.js'
import { parseWith, readJson } from '../http/body.js'
import type { ServerOptions } from '../server/context.js'
import { badRequest } from '../http/errors.js'
import { keyGuard } from '../server/guard.js'
import type { RateLimiter } from '../http/rate-limit.js'
import { statusPageView, type StatusPageService } from './service.js'

/** What every key route of status pages shares: the guard, the ids in the path, errors, bodies. */
export function apiKit(opts: ServerOptions, limiter: RateLimiter) {
  const guard = keyGuard(opts, limiter)
  const base = (event: H3Event) => opts.publicUrl ?? event.url.origin

  /** A UUID path parameter, lowercase; 400 naming it otherwise. */
  function param(event: H3Event, name: string, what: string): string {
    const id = String(event.context.params?.[name] ?? '')
    if (!isUuid(id)) throw badRequest(`The ${what} id must be a UUID.`)
    return id.toLowerCase()
  }
  const pageId = (event: H3Event) => param(event, 'id', 'status page')

  async function body(event: H3Event): Promise<unknown> {
    const b = await readJson(event)
    if (!b || typeof b !== 'object' || Array.isArray(b)) throw badRequest('The body must be a JSON object.')
    return b
  }

  const created = (value: unknown) =>
    new Response(JSON.stringify(value), {
      status: 201,
      headers: { 'content-type': 'application/json; charset=utf-8' },
    })

  return { guard, base, param, pageId, body, created }
}

export type ApiKit = ReturnType<typeof apiKit>

export function statusPageApiRoutes(k: ApiKit, service: StatusPageService) {
  const { guard, base, pageId, body, created } = k
  return {
    [STATUS_PAGE_PATHS.statusPages]: {
      POST: async (event: H3Event): Promise<Response> => {
        const key = await guard(event, 'api')
        const input = parseWith(StatusPageCreate, await body(event), 'status page')
        const page = await service.create(key.user_id, input)
        return created(statusPageView(page, base(event)))
      },
      GET: async (event: H3Event): Promise<StatusPageList> => {
        const key = await guard(event, 'api')
        const pages = await service.list(key.user_id)
        return { status_pages: pages.map((p) => statusPageView(p, base(event))) }
      },
    },
    [STATUS_PAGE_PATHS.statusPage]: {
      GET: async (event: H3Event): Promise<StatusPage> => {
        const key = await guard(event, 'api')
        return statusPageView(await service.get(key.user_id, pageId(event)), base(event))
      },
      PATCH: async (event: H3Event): Promise<StatusPage> => {
        const key = await guard(event, 'api')
        const id = pageId(event)
        const input = parseWith(StatusPagePatch, await body(event), 'status page change')
        return statusPageView(await service.update(key.user_id, id, input), base(event))
      },
      DELETE: async (event: H3Event): Promise<Response> => {
        const key = await guard(event, 'api')
        const id = pageId(event)
        await service.remove(key.user_id, id)
        return new Response(null, { status: 204 })
      },
    },
  }
}
