/** Status pages on the status-page service (the API's): list and create, edit, delete with a confirmation. */
import type { StatusPage } from '../../contract/status-pages.js'
import { isUuid } from '../../shared/index.js'
import { statusPageView, type StatusPageService } from '../../status-pages/index.js'
import { field, unlessMissing, type Kit, type Routes } from '../kit.js'
import { statusPageDeletePage, statusPageEditPage, statusPagesPage } from '../pages/status-pages.js'
import { statusPageBody, type StatusPageInput } from '../status-pages.js'
import { recordRoutes, type RecordCalls } from './records.js'

/** The form's fields. */
function inputOf(form: URLSearchParams): StatusPageInput {
  return {
    slug: field(form, 'slug').trim().toLowerCase(),
    title: field(form, 'title').trim(),
    description: field(form, 'description').trim(),
    monitor_ids: form.getAll('monitor_ids'),
    show_urls: form.get('show_urls') === '1',
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
  return recordRoutes(k, {
    port: statusPages && calls(statusPages, () => opts.publicUrl ?? ''),
    inputOf,
    list: '/status-pages',
    edit: '/status-pages/:id',
    shown: (p) => `/status-pages/${p.id}`,
    listPage: (ctx, pages, f) => statusPagesPage(ctx, { pages, ...f }),
    editPage: statusPageEditPage,
    deletePage: statusPageDeletePage,
  })
}
