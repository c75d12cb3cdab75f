/** Maintenance windows through the dashboard's port: list and create, edit, delete with a confirmation. */
import type { H3Event } from 'h3'
import type { SignedIn } from '../../accounts/service.js'
import { seeOther } from '../http.js'
import { field, param, type Kit, type Routes } from '../kit.js'
import { MaintenanceRejected, type MaintenanceInput } from '../maintenance-port.js'
import { maintenanceDeletePage, maintenanceEditPage, maintenancePage } from '../pages/maintenance.js'

/** The form as the port takes it; a number that is not one stays NaN for the schema to name. */
function inputOf(form: URLSearchParams): MaintenanceInput {
  return {
    name: field(form, 'name').trim(),
    monitor_ids: field(form, 'scope') === 'selected' ? form.getAll('monitor_ids') : 'all',
    kind: field(form, 'kind') === 'weekly' ? 'weekly' : 'once',
    timezone: field(form, 'timezone').trim(),
    starts_local: field(form, 'starts_local'),
    ends_local: field(form, 'ends_local'),
    days: form.getAll('days'),
    start: field(form, 'start').trim(),
    duration_minutes: Number(field(form, 'duration_minutes')),
  }
}

function checkTicked(values: MaintenanceInput): void {
  if (values.monitor_ids !== 'all' && values.monitor_ids.length === 0)
    throw new MaintenanceRejected('monitor_ids: tick at least one monitor, or choose all monitors')
}

export function maintenanceRoutes(k: Kit): Routes {
  const { maintenance, monitors } = k.deps
  const monitorsOf = async (s: SignedIn) => (monitors ? await monitors.list(s.account.user_id, 100) : [])
  const windowOf = async (event: H3Event, s: SignedIn) =>
    maintenance && (await maintenance.get(s.account.user_id, param(event, 'id')))

  const list = k.authed(async (event, s) =>
    k.page(
      maintenancePage(k.ctx(event, s), {
        windows: maintenance ? await maintenance.list(s.account.user_id) : null,
        monitors: await monitorsOf(s),
      }),
    ),
  )
  const create = k.signedPost(async (event, form, s) => {
    if (!maintenance) return k.notFound(event, s)
    const values = inputOf(form)
    try {
      checkTicked(values)
      await maintenance.create(s.account.user_id, values)
      return seeOther('/maintenance')
    } catch (err) {
      if (!(err instanceof MaintenanceRejected)) throw err
      const [windows, mine] = await Promise.all([maintenance.list(s.account.user_id), monitorsOf(s)])
      return k.page(
        maintenancePage(k.ctx(event, s), { windows, monitors: mine, values, error: err.message }),
        400,
      )
    }
  })
  const edit = k.authed(async (event, s) => {
    const w = await windowOf(event, s)
    if (!w) return k.notFound(event, s)
    return k.page(maintenanceEditPage(k.ctx(event, s), w, { monitors: await monitorsOf(s) }))
  })
  const save = k.signedPost(async (event, form, s) => {
    const w = await windowOf(event, s)
    if (!maintenance || !w) return k.notFound(event, s)
    const values = inputOf(form)
    try {
      checkTicked(values)
      const saved = await maintenance.update(s.account.user_id, w.id, values)
      return saved ? seeOther('/maintenance') : k.notFound(event, s)
    } catch (err) {
      if (!(err instanceof MaintenanceRejected)) throw err
      const f = { monitors: await monitorsOf(s), values, error: err.message }
      return k.page(maintenanceEditPage(k.ctx(event, s), w, f), 400)
    }
  })
  const confirmDelete = k.authed(async (event, s) => {
    const w = await windowOf(event, s)
    if (!w) return k.notFound(event, s)
    return k.page(maintenanceDeletePage(k.ctx(event, s), w))
  })
  const remove = k.signedPost(async (event, _form, s) => {
    const w = await windowOf(event, s)
    if (!maintenance || !w) return k.notFound(event, s)
    await maintenance.remove(s.account.user_id, w.id)
    return seeOther('/maintenance')
  })

  return {
    '/maintenance': { GET: list, POST: create },
    '/maintenance/:id/edit': { GET: edit, POST: save },
    '/maintenance/:id/delete': { GET: confirmDelete, POST: remove },
  }
}
