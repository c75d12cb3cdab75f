/**
 * Monitors through the dashboard's port: list, create, one monitor's page, pause and resume, run
 * now, edit (settings, assertions, channels) and delete after a confirmation.
 */
import type { H3Event } from 'h3'
import type { SignedIn } from '../../accounts/index.js'
import { PUSH_PATH } from '../../contract/monitoring.js'
import { seeOther } from '../http.js'
import { field, param, type Kit, type Routes } from '../kit.js'
import { MonitorRejected, type DashboardMonitors, type MonitorEdit } from '../monitors-port.js'
import { monitorDeletePage, monitorEditPage } from '../pages/monitor-edit.js'
import { BAR_RUNS, monitorPage, monitorsPage } from '../pages/monitors.js'

/** The edit form as the port takes it; numbers that are not numbers stay NaN for the schema to name. */
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
    // only a heartbeat monitor's form has the field
    ...(form.has('grace_minutes') ? { grace_seconds: minutesOf(field(form, 'grace_minutes')) } : {}),
  }
}

/** A refused create's headers: Retry-After when the account's create rate said wait. */
const waitOf = (err: MonitorRejected): Record<string, string> =>
  err.retryAfterSec === undefined ? {} : { 'retry-after': String(err.retryAfterSec) }

const minutesOf = (typed: string) => (typed.trim() === '' ? NaN : Number(typed) * 60)

type PageOf = (
  event: H3Event,
  s: SignedIn,
  ports: DashboardMonitors,
  id: string,
  o?: { notice?: string; secret?: string; error?: string; pushUrl?: string },
  status?: number,
) => Promise<Response>

export function monitorRoutes(k: Kit): Routes {
  const { monitors } = k.deps

  const monitorsView = k.authed(async (event, s) =>
    k.page(
      monitorsPage(k.ctx(event, s), {
        monitors: monitors ? await monitors.list(s.account.user_id, 50, BAR_RUNS) : null,
      }),
    ),
  )
  const monitorCreate = k.signedPost(async (event, form, s) => {
    if (!monitors) return k.notFound(event, s)
    const url = field(form, 'url').trim()
    const name = field(form, 'name').trim() || undefined
    const interval = Number(form.get('interval_seconds') ?? 300)
    try {
      const m = await monitors.create(s.account.user_id, { url, name, interval_seconds: interval })
      return seeOther(`/monitors/${m.id}`)
    } catch (err) {
      if (!(err instanceof MonitorRejected)) throw err
      const list = await monitors.list(s.account.user_id, 50, BAR_RUNS)
      const page = monitorsPage(k.ctx(event, s), { monitors: list, error: err.message, url, name })
      return k.page(page, err.status, waitOf(err))
    }
  })

  /** The monitor's page, with a notice, a one-time secret or an error above it. */
  const pageOf: PageOf = async (event, s, ports, id, o = {}, status = 200) => {
    const m = await ports.get(s.account.user_id, id)
    if (!m) return k.notFound(event, s)
    const [runs, events, maintenance] = await Promise.all([
      ports.runs(s.account.user_id, m.id, 50),
      ports.events(s.account.user_id, m.id, 25),
      ports.maintenance(s.account.user_id, m.id),
    ])
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
      const { monitor, push_token } = await monitors.createHeartbeat(s.account.user_id, {
        name,
        interval_seconds,
        grace_seconds,
      })
      // the push URL is shown on this one answer, never again: no redirect to lose it
      const base = (k.deps.opts.publicUrl ?? event.url.origin).replace(/\/+$/, '')
      const pushUrl = base + PUSH_PATH.replace(':token', push_token)
      return pageOf(event, s, monitors, monitor.id, { notice: 'Heartbeat monitor created.', pushUrl })
    } catch (err) {
      if (!(err instanceof MonitorRejected)) throw err
      const list = await monitors.list(s.account.user_id, 50, BAR_RUNS)
      const heartbeat = { error: err.message, name, interval_seconds, grace_minutes }
      return k.page(monitorsPage(k.ctx(event, s), { monitors: list, heartbeat }), err.status, waitOf(err))
    }
  })

  const monitorOne = k.authed(async (event, s) =>
    monitors ? pageOf(event, s, monitors, param(event, 'id')) : k.notFound(event, s),
  )
  const monitorPause = (paused: boolean) =>
    k.signedPost(async (event, _form, s) => {
      const m = monitors && (await monitors.setPaused(s.account.user_id, param(event, 'id'), paused))
      if (!m) return k.notFound(event, s)
      return seeOther(`/monitors/${m.id}`)
    })
  const runNow = k.signedPost(async (event, _form, s) => {
    if (!monitors) return k.notFound(event, s)
    try {
      const m = await monitors.runNow(s.account.user_id, param(event, 'id'))
      if (!m) return k.notFound(event, s)
      return seeOther(`/monitors/${m.id}`)
    } catch (err) {
      if (!(err instanceof MonitorRejected)) throw err
      return pageOf(event, s, monitors, param(event, 'id'), { error: err.message }, 409)
    }
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
  const mine = async (event: H3Event, s: SignedIn) =>
    monitors && (await monitors.get(s.account.user_id, param(event, 'id')))

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
      await monitors.update(s.account.user_id, m.id, values)
      return seeOther(`/monitors/${m.id}`)
    } catch (err) {
      if (!(err instanceof MonitorRejected)) throw err
      return k.page(monitorEditPage(k.ctx(event, s), m, { values, error: err.message }), 400)
    }
  })
  const channelsSave = k.signedPost(async (event, form, s) => {
    const m = await mine(event, s)
    if (!monitors || !m) return k.notFound(event, s)
    const target = field(form, 'target').trim()
    const change = {
      remove: form.getAll('remove'),
      ...(target ? { add: { type: field(form, 'type'), target } } : {}),
    }
    try {
      const r = await monitors.setChannels(s.account.user_id, m.id, change)
      if (!r) return k.notFound(event, s)
      // a new webhook's secret is shown on this one answer, never again: no redirect to lose it
      if (r.secret) return pageOf(event, s, monitors, m.id, { notice: 'Channels saved.', secret: r.secret })
      return seeOther(`/monitors/${m.id}`)
    } catch (err) {
      if (!(err instanceof MonitorRejected)) throw err
      return k.page(monitorEditPage(k.ctx(event, s), m, { error: err.message }), 400)
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
