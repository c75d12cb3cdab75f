/**
 * Monitors on the monitor service (../monitors.ts): list, create, one monitor's page, pause and
 * resume, run now, edit (settings, assertions, channels) and delete after a confirmation.
 */
import type { H3Event } from 'h3'
import type { SignedIn } from '../../accounts/index.js'
import { PUSH_PATH } from '../../contract/monitoring.js'
import { MonitorCreate } from '../../contract/monitors.js'
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
  type MonitorEdit,
} from '../monitors.js'
import { monitorDeletePage, monitorEditPage } from '../pages/monitor-edit.js'
import { BAR_RUNS, monitorPage, monitorsPage } from '../pages/monitors.js'

/** The edit form as ../monitors.ts takes it; numbers that are not numbers stay NaN for the schema to name. */
function editOf(form: URLSearchParams): MonitorEdit {
  const min = field(form, 'min_score').trim()
  return {
    name: field(form, 'name').trim(),
    url: field(form, 'url').trim(),
    interval_seconds: Number(field(form, 'interval_seconds')),
    down_after: Number(field(form, 'down_after')),
    min_score: min === '' ? null : Number(min),
    assertions: field(form, 'assertions')
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean),
    tags: splitTags(field(form, 'tags')),
    // only a heartbeat monitor's form has the field
    ...(form.has('grace_minutes') ? { grace_seconds: minutesOf(field(form, 'grace_minutes')) } : {}),
  }
}

/** A refused create's headers: Retry-After when the account's create rate said wait. */
const minutesOf = (typed: string) => (typed.trim() === '' ? NaN : Number(typed) * 60)

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
  const monitorCreate = k.signedPost(async (event, form, s) => {
    if (!monitors) return k.notFound(event, s)
    const url = field(form, 'url').trim()
    const name = field(form, 'name').trim() || undefined
    const interval = Number(form.get('interval_seconds') ?? 300)
    const tags = field(form, 'tags').trim()
    try {
      const body = validInput(
        MonitorCreate,
        { url, name, interval_seconds: interval, ...(tags ? { tags: splitTags(tags) } : {}) },
        'monitor',
      )
      const { monitor } = await monitors.create(s.account.user_id, body)
      return seeOther(`/monitors/${monitor.id}`)
    } catch (err) {
      const error = refusal(err)
      const list = await listItems(monitors, s.account.user_id, 50, BAR_RUNS)
      const page = monitorsPage(k.ctx(event, s), { monitors: list, error, url, name, tags })
      return k.page(page, ...refusalStatus(err))
    }
  })

  /** The monitor's page, with a notice, a one-time secret or an error above it. */
  const pageOf: PageOf = async (event, s, service, id, o = {}, status = 200) => {
    const record = await mineOf(service, s.account.user_id, id)
    if (!record) return k.notFound(event, s)
    const m = await fullView(service, record)
    const { runs, events, maintenance } = await historyOf(service, s.account.user_id, record)
    const pushBase = k.deps.opts.publicUrl ?? event.url.origin
    return k.page(monitorPage(k.ctx(event, s), m, runs, events, { ...o, maintenance, pushBase }), status)
  }

  const heartbeatCreate = k.signedPost(async (event, form, s) => {
    if (!monitors) return k.notFound(event, s)
    const name = field(form, 'name').trim()
    const interval_seconds = Number(field(form, 'interval_seconds'))
    const grace_minutes = field(form, 'grace_minutes').trim()
    try {
      const grace_seconds = grace_minutes === '' ? NaN : Number(grace_minutes) * 60
      const body = validInput(
        MonitorCreate,
        { type: 'heartbeat', name, interval_seconds, grace_seconds },
        'monitor',
      )
      const { monitor, pushToken } = await monitors.create(s.account.user_id, body)
      const push_token = pushToken!
      // the push URL is shown on this one answer, never again: no redirect to lose it
      const base = (k.deps.opts.publicUrl ?? event.url.origin).replace(/\/+$/, '')
      const pushUrl = base + PUSH_PATH.replace(':token', push_token)
      return pageOf(event, s, monitors, monitor.id, { notice: 'Heartbeat monitor created.', pushUrl })
    } catch (err) {
      const error = refusal(err)
      const list = await listItems(monitors, s.account.user_id, 50, BAR_RUNS)
      const heartbeat = { error, name, interval_seconds, grace_minutes }
      return k.page(monitorsPage(k.ctx(event, s), { monitors: list, heartbeat }), ...refusalStatus(err))
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
    '/monitors': { GET: monitorsView, POST: monitorCreate },
    '/monitors/heartbeat': { POST: heartbeatCreate },
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
    const values = editOf(form)
    try {
      await monitors.update(s.account.user_id, m.id, editPatch(values))
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
