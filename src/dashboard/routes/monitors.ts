/**
 * Monitors on the monitor service (../monitors.ts): list, create, one monitor's page, pause and
 * resume, run now, edit (settings, assertions, channels) and delete after a confirmation.
 */
import type { H3Event } from 'h3'
import type { SignedIn } from '../../accounts/index.js'
import { PUSH_PATH } from '../../contract/monitoring.js'
import { MonitorCreate, type MonitorType } from '../../contract/monitors.js'
import { typeFace, typeFaces, type MonitorTypeFace } from '../../contract/monitor-types/index.js'
import { splitTags } from '../../contract/tags.js'
import type { MonitorService } from '../../monitors/index.js'
import { RunRefused } from '../../runs/index.js'
import { DEFAULT_CAPACITY_WAIT_MS } from '../../server/guard.js'
import { validInput } from '../../shared/index.js'
import { seeOther } from '../http.js'
import { field, param, refusal, refusalStatus, type Kit, type Routes } from '../kit.js'
import {
  channelsPatch,
  editPatch,
  fullView,
  historyOf,
  listItems,
  mine as mineOf,
  readFields,
  type MonitorEdit,
} from '../monitors.js'
import { monitorDeletePage, monitorEditPage } from '../pages/monitor-edit.js'
import { BAR_RUNS, createPath, monitorPage, monitorsPage } from '../pages/monitors.js'

/** The edit form as ../monitors.ts takes it; numbers that are not numbers stay NaN for the schema to name. */
function editOf(form: URLSearchParams, type: MonitorType): MonitorEdit {
  const min = field(form, 'min_score').trim()
  return {
    name: field(form, 'name').trim(),
    interval_seconds: Number(field(form, 'interval_seconds')),
    down_after: Number(field(form, 'down_after')),
    min_score: min === '' ? null : Number(min),
    assertions: field(form, 'assertions')
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean),
    tags: splitTags(field(form, 'tags')),
    // the type's own fields that were sent
    own: Object.fromEntries(
      typeFace(type)
        .form.fields.filter((f) => f.edit && form.has(f.name))
        .map((f) => [f.name, field(form, f.name).trim()]),
    ),
  }
}

/** A create form as typed (trimmed); a field left out holds its initial value. */
const typedOf = (form: URLSearchParams, face: MonitorTypeFace): Record<string, string> =>
  Object.fromEntries(
    face.form.fields.map((f) => [f.name, form.has(f.name) ? field(form, f.name).trim() : (f.initial ?? '')]),
  )

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1)

type PageOf = (
  event: H3Event,
  s: SignedIn,
  service: MonitorService,
  id: string,
  o?: { notice?: string; secret?: string; error?: string; pushUrl?: string },
  status?: number,
) => Promise<Response>

export function monitorRoutes(k: Kit): Routes {
  const { monitors } = k.deps

  const monitorsView = k.authed(async (event, s) =>
    k.page(
      monitorsPage(k.ctx(event, s), {
        monitors: monitors ? await listItems(monitors, s.account.user_id, 50, BAR_RUNS) : null,
      }),
    ),
  )
  /** The monitor's page, with a notice, a one-time secret or an error above it. */
  const pageOf: PageOf = async (event, s, service, id, o = {}, status = 200) => {
    const record = await mineOf(service, s.account.user_id, id)
    if (!record) return k.notFound(event, s)
    const m = await fullView(service, record)
    const { runs, events, maintenance } = await historyOf(service, s.account.user_id, record)
    const pushBase = k.deps.opts.publicUrl ?? event.url.origin
    return k.page(monitorPage(k.ctx(event, s), m, runs, events, { ...o, maintenance, pushBase }), status)
  }

  /** A type's create form: its monitor's page (a pushed type's shows the push URL, once), or the form again. */
  const createOf = (face: MonitorTypeFace) =>
    k.signedPost(async (event, form, s) => {
      if (!monitors) return k.notFound(event, s)
      const values = typedOf(form, face)
      try {
        const body = validInput(
          MonitorCreate,
          { type: face.type, ...readFields(face.form.fields, values) },
          'monitor',
        )
        const { monitor, pushToken } = await monitors.create(s.account.user_id, body)
        if (!face.pushed) return seeOther(`/monitors/${monitor.id}`)
        // the push URL is shown on this one answer, never again: no redirect to lose it
        const base = (k.deps.opts.publicUrl ?? event.url.origin).replace(/\/+$/, '')
        const pushUrl = base + PUSH_PATH.replace(':token', pushToken!)
        const notice = `${capitalise(face.noun)} monitor created.`
        return pageOf(event, s, monitors, monitor.id, { notice, pushUrl })
      } catch (err) {
        const list = await listItems(monitors, s.account.user_id, 50, BAR_RUNS)
        const failed = { type: face.type, error: refusal(err), values }
        return k.page(monitorsPage(k.ctx(event, s), { monitors: list, form: failed }), ...refusalStatus(err))
      }
    })

  const monitorOne = k.authed(async (event, s) =>
    monitors ? pageOf(event, s, monitors, param(event, 'id')) : k.notFound(event, s),
  )
  const monitorPause = (paused: boolean) =>
    k.signedPost(async (event, _form, s) => {
      const m = monitors && (await mineOf(monitors, s.account.user_id, param(event, 'id')))
      if (!monitors || !m) return k.notFound(event, s)
      await monitors.update(s.account.user_id, m.id, { paused })
      return seeOther(`/monitors/${m.id}`)
    })
  const runNow = k.signedPost(async (event, _form, s) => {
    if (!monitors) return k.notFound(event, s)
    const m = await mineOf(monitors, s.account.user_id, param(event, 'id'))
    if (!m) return k.notFound(event, s)
    let error: string | undefined
    try {
      const outcome = await monitors.run(m, 'manual', undefined, { waitMs: DEFAULT_CAPACITY_WAIT_MS })
      if (outcome.kind === 'no_credits') error = 'No credits left to run it: nothing was run or charged.'
    } catch (err) {
      // too many checks at once on the server: say so, nothing was charged
      if (!(err instanceof RunRefused)) throw err
      error = err.message
    }
    if (error) return pageOf(event, s, monitors, m.id, { error }, 409)
    return seeOther(`/monitors/${m.id}`)
  })
  return {
    // each type's create form, where its page posts it (the default type's to /monitors itself)
    ...Object.fromEntries(typeFaces().map((face) => [createPath(face.type), { POST: createOf(face) }])),
    '/monitors': { GET: monitorsView, POST: createOf(typeFace(undefined)) },
    '/monitors/:id': { GET: monitorOne },
    '/monitors/:id/pause': { POST: monitorPause(true) },
    '/monitors/:id/resume': { POST: monitorPause(false) },
    '/monitors/:id/run': { POST: runNow },
    ...monitorEditRoutes(k, pageOf),
  }
}

/** Edit (settings, assertions, channels) and delete after a confirmation. */
function monitorEditRoutes(k: Kit, pageOf: PageOf): Routes {
  const { monitors } = k.deps
  const record = async (event: H3Event, s: SignedIn) =>
    monitors && (await mineOf(monitors, s.account.user_id, param(event, 'id')))
  const mine = async (event: H3Event, s: SignedIn) => {
    const r = await record(event, s)
    return r && monitors && fullView(monitors, r)
  }

  const editView = k.authed(async (event, s) => {
    const m = await mine(event, s)
    if (!m) return k.notFound(event, s)
    return k.page(monitorEditPage(k.ctx(event, s), m))
  })
  const editSave = k.signedPost(async (event, form, s) => {
    const m = await mine(event, s)
    if (!monitors || !m) return k.notFound(event, s)
    const values = editOf(form, m.type)
    try {
      await monitors.update(s.account.user_id, m.id, editPatch(m.type, values))
      return seeOther(`/monitors/${m.id}`)
    } catch (err) {
      return k.page(monitorEditPage(k.ctx(event, s), m, { values, error: refusal(err) }), 400)
    }
  })
  const channelsSave = k.signedPost(async (event, form, s) => {
    const r = await record(event, s)
    if (!monitors || !r) return k.notFound(event, s)
    const m = await fullView(monitors, r)
    const target = field(form, 'target').trim()
    const change = {
      remove: form.getAll('remove'),
      ...(target ? { add: { type: field(form, 'type'), target } } : {}),
    }
    try {
      const { secrets } = await monitors.update(s.account.user_id, m.id, channelsPatch(monitors, r, change))
      const secret = [...secrets.values()][0]
      // a new webhook's secret is shown on this one answer, never again: no redirect to lose it
      if (secret) return pageOf(event, s, monitors, m.id, { notice: 'Channels saved.', secret })
      return seeOther(`/monitors/${m.id}`)
    } catch (err) {
      return k.page(monitorEditPage(k.ctx(event, s), m, { error: refusal(err) }), 400)
    }
  })
  const deleteView = k.authed(async (event, s) => {
    const m = await mine(event, s)
    if (!m) return k.notFound(event, s)
    return k.page(monitorDeletePage(k.ctx(event, s), m))
  })
  const deleteDo = k.signedPost(async (event, _form, s) => {
    const m = await mine(event, s)
    if (!monitors || !m) return k.notFound(event, s)
    await monitors.remove(s.account.user_id, m.id)
    return seeOther('/monitors')
  })

  return {
    '/monitors/:id/edit': { GET: editView, POST: editSave },
    '/monitors/:id/channels': { POST: channelsSave },
    '/monitors/:id/delete': { GET: deleteView, POST: deleteDo },
  }
}
