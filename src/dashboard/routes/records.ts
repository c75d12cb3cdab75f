/**
 * The routes of one user's records whose forms tick monitors (maintenance windows, status pages),
 * over the service the API calls: the list with its create form, a record's edit form, and delete
 * after a confirmation. A form the service refuses (a DomainError) comes back with its error and
 * what was sent (400); a saved one redirects (post/redirect/get). Without the service the pages say
 * the feature is not available and its forms are 404.
 */
import type { H3Event } from 'h3'
import type { SignedIn } from '../../accounts/index.js'
import { seeOther } from '../http.js'
import { param, refusal, type Kit, type Routes } from '../kit.js'
import { listItems } from '../monitors.js'
import type { MonitorView } from '../views.js'
import type { Node } from '../pages/html.js'
import type { PageContext } from '../pages/layout.js'

/** A service's calls in the form's terms, for one user: undefined and false for another user's record. */
export interface RecordCalls<R, I> {
  list(userId: string): Promise<R[]>
  get(userId: string, id: string): Promise<R | undefined>
  create(userId: string, input: I): Promise<R>
  update(userId: string, id: string, input: I): Promise<R | undefined>
  remove(userId: string, id: string): Promise<boolean>
}

/** A record's form: the user's monitors to tick, and what was sent with the error that refused it. */
export interface RecordForm<I> {
  monitors: MonitorView[]
  values?: I
  error?: string
}

export interface RecordRoutesOf<R extends { id: string }, I> {
  port: RecordCalls<R, I> | undefined
  /** The form's fields. */
  inputOf(form: URLSearchParams): I
  /** The list, where a record is created (its delete page is `${list}/:id/delete`). */
  list: string
  /** A record's edit page, with `:id`. */
  edit: string
  /** Where a created or saved record is shown. */
  shown(r: R): string
  listPage(ctx: PageContext, records: R[] | null, f: RecordForm<I>): Node
  /** A record's edit page; `at` is the request, for what else the page shows. */
  editPage(
    ctx: PageContext,
    r: R,
    f: RecordForm<I>,
    at: { event: H3Event; s: SignedIn },
  ): Node | Promise<Node>
  deletePage(ctx: PageContext, r: R): Node
}

export function recordRoutes<R extends { id: string }, I>(k: Kit, o: RecordRoutesOf<R, I>): Routes {
  const { port } = o
  const { monitors } = k.deps
  const monitorsOf = async (s: SignedIn) =>
    monitors ? await listItems(monitors, s.account.user_id, 100) : []
  const recordOf = async (event: H3Event, s: SignedIn) =>
    port && (await port.get(s.account.user_id, param(event, 'id')))
  /** The service's answer to a form, or the form again with its refusal. */
  const submit = async (
    s: SignedIn,
    values: I,
    save: () => Promise<Response>,
    again: (f: RecordForm<I>) => Promise<Node> | Node,
  ) => {
    try {
      return await save()
    } catch (err) {
      const error = refusal(err)
      return k.page(await again({ monitors: await monitorsOf(s), values, error }), 400)
    }
  }

  const list = k.authed(async (event, s) =>
    k.page(
      o.listPage(k.ctx(event, s), port ? await port.list(s.account.user_id) : null, {
        monitors: await monitorsOf(s),
      }),
    ),
  )
  const create = k.signedPost(async (event, form, s) => {
    if (!port) return k.notFound(event, s)
    const values = o.inputOf(form)
    return submit(
      s,
      values,
      async () => seeOther(o.shown(await port.create(s.account.user_id, values))),
      async (f) => o.listPage(k.ctx(event, s), await port.list(s.account.user_id), f),
    )
  })
  const edit = k.authed(async (event, s) => {
    const r = await recordOf(event, s)
    if (!r) return k.notFound(event, s)
    return k.page(await o.editPage(k.ctx(event, s), r, { monitors: await monitorsOf(s) }, { event, s }))
  })
  const save = k.signedPost(async (event, form, s) => {
    const r = await recordOf(event, s)
    if (!port || !r) return k.notFound(event, s)
    const values = o.inputOf(form)
    return submit(
      s,
      values,
      async () => {
        const saved = await port.update(s.account.user_id, r.id, values)
        return saved ? seeOther(o.shown(saved)) : k.notFound(event, s)
      },
      (f) => o.editPage(k.ctx(event, s), r, f, { event, s }),
    )
  })
  const confirmDelete = k.authed(async (event, s) => {
    const r = await recordOf(event, s)
    if (!r) return k.notFound(event, s)
    return k.page(o.deletePage(k.ctx(event, s), r))
  })
  const remove = k.signedPost(async (event, _form, s) => {
    const r = await recordOf(event, s)
    if (!port || !r) return k.notFound(event, s)
    await port.remove(s.account.user_id, r.id)
    return seeOther(o.list)
  })

  return {
    [o.list]: { GET: list, POST: create },
    [o.edit]: { GET: edit, POST: save },
    [`${o.list}/:id/delete`]: { GET: confirmDelete, POST: remove },
  }
}
