/** Status pages through the dashboard's port: list and create, edit, delete with a confirmation. */
import type { H3Event } from 'h3'
import type { SignedIn } from '../../accounts/service.js'
import { seeOther } from '../http.js'
import { field, param, type Kit, type Routes } from '../kit.js'
import { statusPageDeletePage, statusPageEditPage, statusPagesPage } from '../pages/status-pages.js'
import { StatusPageRejected, type StatusPageInput } from '../status-pages-port.js'

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
  const { statusPages, monitors } = k.deps
  const monitorsOf = async (s: SignedIn) => (monitors ? await monitors.list(s.account.user_id, 100) : [])
  const pageOf = async (event: H3Event, s: SignedIn) =>
    statusPages && (await statusPages.get(s.account.user_id, param(event, 'id')))

  const list = k.authed(async (event, s) =>
    k.page(
      statusPagesPage(k.ctx(event, s), {
        pages: statusPages ? await statusPages.list(s.account.user_id) : null,
        monitors: await monitorsOf(s),
      }),
    ),
  )
  const create = k.signedPost(async (event, form, s) => {
    if (!statusPages) return k.notFound(event, s)
    const values = inputOf(form)
    try {
      const p = await statusPages.create(s.account.user_id, values)
      return seeOther(`/status-pages/${p.id}`)
    } catch (err) {
      if (!(err instanceof StatusPageRejected)) throw err
      const [pages, mine] = await Promise.all([statusPages.list(s.account.user_id), monitorsOf(s)])
      return k.page(
        statusPagesPage(k.ctx(event, s), { pages, monitors: mine, values, error: err.message }),
        400,
      )
    }
  })
  const one = k.authed(async (event, s) => {
    const p = await pageOf(event, s)
    if (!p) return k.notFound(event, s)
    return k.page(statusPageEditPage(k.ctx(event, s), p, { monitors: await monitorsOf(s) }))
  })
  const update = k.signedPost(async (event, form, s) => {
    const p = await pageOf(event, s)
    if (!statusPages || !p) return k.notFound(event, s)
    const values = inputOf(form)
    try {
      await statusPages.update(s.account.user_id, p.id, values)
      return seeOther(`/status-pages/${p.id}`)
    } catch (err) {
      if (!(err instanceof StatusPageRejected)) throw err
      const f = { monitors: await monitorsOf(s), values, error: err.message }
      return k.page(statusPageEditPage(k.ctx(event, s), p, f), 400)
    }
  })
  const confirmDelete = k.authed(async (event, s) => {
    const p = await pageOf(event, s)
    if (!p) return k.notFound(event, s)
    return k.page(statusPageDeletePage(k.ctx(event, s), p))
  })
  const remove = k.signedPost(async (event, _form, s) => {
    const p = await pageOf(event, s)
    if (!statusPages || !p) return k.notFound(event, s)
    await statusPages.remove(s.account.user_id, p.id)
    return seeOther('/status-pages')
  })

  return {
    '/status-pages': { GET: list, POST: create },
    '/status-pages/:id': { GET: one, POST: update },
    '/status-pages/:id/delete': { GET: confirmDelete, POST: remove },
  }
}
