/** Monitors through the dashboard's port: list, create, one monitor's runs and events, pause, resume. */
import { seeOther } from '../http.js'
import { field, param, type Kit, type Routes } from '../kit.js'
import { MonitorRejected } from '../monitors-port.js'
import { monitorPage, monitorsPage } from '../pages/monitors.js'

export function monitorRoutes(k: Kit): Routes {
  const { monitors } = k.deps

  const monitorsView = k.authed(async (event, s) =>
    k.page(
      monitorsPage(k.ctx(event, s), {
        monitors: monitors ? await monitors.list(s.account.user_id, 50) : null,
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
      const list = await monitors.list(s.account.user_id, 50)
      return k.page(monitorsPage(k.ctx(event, s), { monitors: list, error: err.message, url, name }), 400)
    }
  })
  const monitorOne = k.authed(async (event, s) => {
    const m = monitors && (await monitors.get(s.account.user_id, param(event, 'id')))
    if (!monitors || !m) return k.notFound(event, s)
    const [runs, events] = await Promise.all([
      monitors.runs(s.account.user_id, m.id, 50),
      monitors.events(s.account.user_id, m.id, 25),
    ])
    return k.page(monitorPage(k.ctx(event, s), m, runs, events))
  })
  const monitorPause = (paused: boolean) =>
    k.signedPost(async (event, _form, s) => {
      const m = monitors && (await monitors.setPaused(s.account.user_id, param(event, 'id'), paused))
      if (!m) return k.notFound(event, s)
      return seeOther(`/monitors/${m.id}`)
    })

  return {
    '/monitors': { GET: monitorsView, POST: monitorCreate },
    '/monitors/:id': { GET: monitorOne },
    '/monitors/:id/pause': { POST: monitorPause(true) },
    '/monitors/:id/resume': { POST: monitorPause(false) },
  }
}
