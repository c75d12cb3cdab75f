/**
 * Status pages on the status-page service (the API's): list and create, edit, delete with a
 * confirmation; a page's screen shows its incidents (./status-incidents.ts) and subscribers
 * (./status-subscribers.ts) below its form.
 */
import type { StatusPage } from '../../contract/status-pages.js'
import { isUuid } from '../../shared/index.js'
import { incidentView, statusPageView, type StatusPageService } from '../../status-pages/index.js'
import { field, unlessMissing, type Kit, type Routes } from '../kit.js'
import { statusPageDeletePage, statusPageEditPage, statusPagesPage } from '../pages/status-pages.js'
import { statusPageBody, type StatusPageInput } from '../status-pages.js'
import { recordRoutes, type RecordCalls } from './records.js'
import { statusIncidentRoutes } from './status-incidents.js'
import { statusSubscriberRoutes, subscriberScreen } from './status-subscribers.js'

/** The form's fields. */
function inputOf(form: URLSearchParams): StatusPageInput {
  return {
    slug: field(form, 'slug').trim().toLowerCase(),
    title: field(form, 'title').trim(),
    description: field(form, 'description').trim(),
    monitor_ids: form.getAll('monitor_ids'),
    show_urls: form.get('show_urls') === '1',
    auto_incidents: form.get('auto_incidents') === '1',
  }
}

/** The service's calls in the form's terms, with the API's view (its public URL on `baseUrl`). */
function calls(service: StatusPageService, baseUrl: () => string): RecordCalls<StatusPage, StatusPageInput> {
  const view = (p: Parameters<typeof statusPageView>[0]) => statusPageView(p, baseUrl())
  return {
    list: async (userId) => (await service.list(userId)).map(view),
    get: async (userId, id) => {
      const p = isUuid(id) ? await unlessMissing(service.get(userId, id)) : undefined
      return p && view(p)
    },
    create: async (userId, input) => view(await service.create(userId, statusPageBody(input))),
    update: async (userId, id, input) => {
      if (!isUuid(id)) return undefined
      const p = await unlessMissing(service.update(userId, id, statusPageBody(input)))
      return p && view(p)
    },
    remove: async (userId, id) =>
      isUuid(id) && (await unlessMissing(service.remove(userId, id).then(() => true))) === true,
  }
}

export function statusPageRoutes(k: Kit): Routes {
  const { statusPages, opts } = k.deps
  // the public address of pages: the server's own (set once serve listens), never a client's Host
  const pages = recordRoutes(k, {
    port: statusPages && calls(statusPages.service, () => opts.publicUrl ?? ''),
    inputOf,
    list: '/status-pages',
    edit: '/status-pages/:id',
    shown: (p) => `/status-pages/${p.id}`,
    listPage: (ctx, pages, f) => statusPagesPage(ctx, { pages, ...f }),
    // below the page's form: its incidents and subscribers
    editPage: async (ctx, page, f, { event, s }) => {
      const userId = s.account.user_id
      const [incidents, subscribers] = await Promise.all([
        statusPages!.incidents.list(userId, page.id),
        subscriberScreen(statusPages!.subscribers?.service, userId, page.id, event),
      ])
      return statusPageEditPage(ctx, page, f, { incidents: incidents.map(incidentView), subscribers })
    },
    deletePage: statusPageDeletePage,
  })
  return { ...pages, ...statusIncidentRoutes(k), ...statusSubscriberRoutes(k) }
}
