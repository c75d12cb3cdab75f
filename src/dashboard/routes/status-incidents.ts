/**
 * A status page's incidents on the incident service (the API's): post one, an incident's screen
 * with its update and edit forms, publish a draft, delete (or discard a draft) after a
 * confirmation. A refused form comes back with its error and what was sent (400); a saved one
 * redirects (post/redirect/get). Another user's page or incident is 404 like an unknown one.
 */
import type { H3Event } from 'h3'
import type { SignedIn } from '../../accounts/index.js'
import {
  type IncidentImpact,
  type IncidentStatus,
  type StatusIncident,
  type StatusPage,
} from '../../contract/status-pages.js'
import { isUuid } from '../../shared/index.js'
import { incidentView, statusPageView, type StatusPages } from '../../status-pages/index.js'
import { seeOther } from '../http.js'
import { field, param, refusal, unlessMissing, type Kit, type Routes } from '../kit.js'
import {
  incidentDeletePage,
  incidentNewPage,
  incidentPage,
  type IncidentForms,
  type PageMonitor,
} from '../pages/status-incidents.js'
import {
  incidentBody,
  incidentPatch,
  incidentUpdateBody,
  type IncidentEditInput,
  type IncidentInput,
  type IncidentUpdateInput,
} from '../status-incidents.js'

/** A select's value as sent: the contract's schema names anything that is not one of its options. */
const statusOf = (form: URLSearchParams) => field(form, 'status') as IncidentStatus
const impactOf = (form: URLSearchParams) => field(form, 'impact') as IncidentImpact

const editOf = (form: URLSearchParams): IncidentEditInput => ({
  title: field(form, 'title').trim(),
  impact: impactOf(form),
  monitor_ids: form.getAll('monitor_ids'),
})

const inputOf = (form: URLSearchParams): IncidentInput => ({
  ...editOf(form),
  status: statusOf(form),
  message: field(form, 'message').trim(),
  draft: field(form, 'draft') === '1',
})

const updateOf = (form: URLSearchParams): IncidentUpdateInput => ({
  status: statusOf(form),
  message: field(form, 'message').trim(),
})

const incidentPath = (page: StatusPage, i: StatusIncident) => `/status-pages/${page.id}/incidents/${i.id}`

/** Where one request stands: who sent it, and their page it names. */
interface At {
  event: H3Event
  s: SignedIn
  page: StatusPage
}

export function statusIncidentRoutes(k: Kit): Routes {
  const parts: StatusPages | undefined = k.deps.statusPages
  const { monitors, opts } = k.deps
  const uid = (s: SignedIn) => s.account.user_id

  const pageOf = async (event: H3Event, s: SignedIn) => {
    const id = param(event, 'id')
    if (!parts || !isUuid(id)) return undefined
    const p = await unlessMissing(parts.service.get(uid(s), id))
    return p && statusPageView(p, opts.publicUrl ?? '')
  }
  const incidentOf = async (at: At) => {
    const iid = param(at.event, 'iid')
    if (!parts || !isUuid(iid)) return undefined
    const i = await unlessMissing(parts.incidents.get(uid(at.s), at.page.id, iid))
    return i && incidentView(i)
  }
  /** The page's monitors by their names, in the page's order. */
  const monitorsOf = async (at: At): Promise<PageMonitor[]> => {
    const found = monitors ? await monitors.monitors.getMonitorsById(at.page.monitor_ids) : []
    const names = new Map(
      found.filter((m) => m.user_id === uid(at.s)).map((m) => [m.id, m.name || m.url || m.id]),
    )
    return at.page.monitor_ids.map((id) => ({ id, name: names.get(id) ?? id }))
  }

  /** A page-scoped handler: 404 for an unknown page or another user's. */
  const onPage =
    (fn: (at: At, form: URLSearchParams) => Promise<Response>) =>
    async (event: H3Event, form: URLSearchParams, s: SignedIn) => {
      const page = await pageOf(event, s)
      return page ? fn({ event, s, page }, form) : k.notFound(event, s)
    }
  /** An incident-scoped handler: 404 for an unknown incident, or one of another page. */
  const onIncident = (fn: (at: At, i: StatusIncident, form: URLSearchParams) => Promise<Response>) =>
    onPage(async (at, form) => {
      const i = await incidentOf(at)
      return i ? fn(at, i, form) : k.notFound(at.event, at.s)
    })
  const view = (fn: Parameters<typeof onIncident>[0]) =>
    k.authed((event, s) => onIncident(fn)(event, new URLSearchParams(), s))
  const action = (fn: Parameters<typeof onIncident>[0]) => k.signedPost(onIncident(fn))

  /** The incident's screen, with a form sent back when one was refused. */
  const screen = async (at: At, i: StatusIncident, f: Omit<IncidentForms, 'monitors'> = {}, status = 200) =>
    k.page(incidentPage(k.ctx(at.event, at.s), at.page, i, { monitors: await monitorsOf(at), ...f }), status)

  const newForm = k.authed((event, s) =>
    onPage(async (at) => k.page(incidentNewPage(k.ctx(event, s), at.page, await monitorsOf(at))))(
      event,
      new URLSearchParams(),
      s,
    ),
  )
  const create = k.signedPost(
    onPage(async (at, form) => {
      const values = inputOf(form)
      try {
        const i = await parts!.incidents.create(uid(at.s), at.page.id, incidentBody(values))
        return seeOther(incidentPath(at.page, incidentView(i)))
      } catch (err) {
        const error = refusal(err)
        const ctx = k.ctx(at.event, at.s)
        return k.page(incidentNewPage(ctx, at.page, await monitorsOf(at), { values, error }), 400)
      }
    }),
  )
  const edit = action(async (at, i, form) => {
    const values = editOf(form)
    try {
      await parts!.incidents.update(uid(at.s), at.page.id, i.id, incidentPatch(values))
      return seeOther(incidentPath(at.page, i))
    } catch (err) {
      return screen(at, i, { edit: { values, error: refusal(err) } }, 400)
    }
  })
  const addUpdate = action(async (at, i, form) => {
    const values = updateOf(form)
    try {
      await parts!.incidents.addUpdate(uid(at.s), at.page.id, i.id, incidentUpdateBody(values))
      return seeOther(incidentPath(at.page, i))
    } catch (err) {
      return screen(at, i, { update: { values, error: refusal(err) } }, 400)
    }
  })
  const publish = action(async (at, i) => {
    await parts!.incidents.update(uid(at.s), at.page.id, i.id, { draft: false })
    return seeOther(incidentPath(at.page, i))
  })
  const confirmDelete = view(async (at, i) => k.page(incidentDeletePage(k.ctx(at.event, at.s), at.page, i)))
  const remove = action(async (at, i) => {
    await unlessMissing(parts!.incidents.remove(uid(at.s), at.page.id, i.id))
    return seeOther(`/status-pages/${at.page.id}#incidents`)
  })

  const base = '/status-pages/:id/incidents'
  return {
    [`${base}/new`]: { GET: newForm },
    [base]: { POST: create },
    [`${base}/:iid`]: { GET: view((at, i) => screen(at, i)), POST: edit },
    [`${base}/:iid/updates`]: { POST: addUpdate },
    [`${base}/:iid/publish`]: { POST: publish },
    [`${base}/:iid/delete`]: { GET: confirmDelete, POST: remove },
  }
}
