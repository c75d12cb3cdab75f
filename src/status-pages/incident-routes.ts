/**
 * The incident routes of a status page (docs/status-pages.md): bearer key, the same envelope and limits as
 * the page routes. Another user's page, and an incident of another page, are 404 like unknown ones.
 */
import type { H3Event } from 'h3'
import {
  STATUS_PAGE_PATHS,
  StatusIncidentCreate,
  StatusIncidentPatch,
  StatusIncidentUpdateCreate,
  type StatusIncident,
  type StatusIncidentList,
} from '../contract/status-pages.js'
import { parseWith } from '../http/body.js'
import type { ApiKit } from './api-routes.js'
import { incidentView, type IncidentService } from './incidents.js'

export function incidentApiRoutes(k: ApiKit, incidents: IncidentService) {
  const { guard, param, pageId, body, created } = k
  const incidentId = (event: H3Event) => param(event, 'incident', 'incident')
  return {
    [STATUS_PAGE_PATHS.incidents]: {
      POST: async (event: H3Event): Promise<Response> => {
        const key = await guard(event, 'api')
        const id = pageId(event)
        const input = parseWith(StatusIncidentCreate, await body(event), 'incident')
        return created(incidentView(await incidents.create(key.user_id, id, input)))
      },
      GET: async (event: H3Event): Promise<StatusIncidentList> => {
        const key = await guard(event, 'api')
        const id = pageId(event)
        return { incidents: (await incidents.list(key.user_id, id)).map(incidentView) }
      },
    },
    [STATUS_PAGE_PATHS.incident]: {
      GET: async (event: H3Event): Promise<StatusIncident> => {
        const key = await guard(event, 'api')
        const [id, iid] = [pageId(event), incidentId(event)]
        return incidentView(await incidents.get(key.user_id, id, iid))
      },
      PATCH: async (event: H3Event): Promise<StatusIncident> => {
        const key = await guard(event, 'api')
        const [id, iid] = [pageId(event), incidentId(event)]
        const input = parseWith(StatusIncidentPatch, await body(event), 'incident change')
        return incidentView(await incidents.update(key.user_id, id, iid, input))
      },
      DELETE: async (event: H3Event): Promise<Response> => {
        const key = await guard(event, 'api')
        const [id, iid] = [pageId(event), incidentId(event)]
        await incidents.remove(key.user_id, id, iid)
        return new Response(null, { status: 204 })
      },
    },
    [STATUS_PAGE_PATHS.incidentUpdates]: {
      POST: async (event: H3Event): Promise<Response> => {
        const key = await guard(event, 'api')
        const [id, iid] = [pageId(event), incidentId(event)]
        const input = parseWith(StatusIncidentUpdateCreate, await body(event), 'incident update')
        return created(incidentView(await incidents.addUpdate(key.user_id, id, iid, input)))
      },
    },
  }
}
