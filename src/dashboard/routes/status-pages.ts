/** Status pages through the dashboard's port: list and create, edit, delete with a confirmation. */
import { field, type Kit, type Routes } from '../kit.js'
import { statusPageDeletePage, statusPageEditPage, statusPagesPage } from '../pages/status-pages.js'
import { StatusPageRejected, type StatusPageInput } from '../status-pages-port.js'
import { recordRoutes } from './records.js'

/** The form as the port takes it. */
function inputOf(form: URLSearchParams): StatusPageInput {
  return {
    slug: field(form, 'slug').trim().toLowerCase(),
    title: field(form, 'title').trim(),
    description: field(form, 'description').trim(),
    monitor_ids: form.getAll('monitor_ids'),
    show_urls: form.get('show_urls') === '1',
  }
}

export function statusPageRoutes(k: Kit): Routes {
  return recordRoutes(k, {
    port: k.deps.statusPages,
    rejected: StatusPageRejected,
    inputOf,
    list: '/status-pages',
    edit: '/status-pages/:id',
    shown: (p) => `/status-pages/${p.id}`,
    listPage: (ctx, pages, f) => statusPagesPage(ctx, { pages, ...f }),
    editPage: statusPageEditPage,
    deletePage: statusPageDeletePage,
  })
}
