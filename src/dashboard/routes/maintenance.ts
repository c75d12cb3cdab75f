/** Maintenance windows on the maintenance service (the API's): list and create, edit, delete with a confirmation. */
import type { MaintenanceWindow } from '../../contract/monitoring.js'
import { maintenanceView, type MaintenanceService } from '../../monitors/maintenance/index.js'
import { isUuid } from '../../shared/index.js'
import { field, unlessMissing, type Kit, type Routes } from '../kit.js'
import { maintenanceBody, maintenancePatch, type MaintenanceInput } from '../maintenance.js'
import { maintenanceDeletePage, maintenanceEditPage, maintenancePage } from '../pages/maintenance.js'
import { recordRoutes, type RecordCalls } from './records.js'

/** The form's fields; a number that is not one stays NaN for the schema to name. */
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

/** The service's calls in the form's terms, with the API's view of a window. */
function calls(
  service: MaintenanceService,
  now = Date.now,
): RecordCalls<MaintenanceWindow, MaintenanceInput> {
  const mine = async (userId: string, id: string) =>
    isUuid(id) ? unlessMissing(service.get(userId, id)) : undefined
  return {
    list: async (userId) => (await service.list(userId)).map((w) => maintenanceView(w, now())),
    get: async (userId, id) => {
      const w = await mine(userId, id)
      return w && maintenanceView(w, now())
    },
    create: async (userId, input) =>
      maintenanceView(await service.create(userId, maintenanceBody(input)), now()),
    update: async (userId, id, input) => {
      const prev = await mine(userId, id)
      if (!prev) return undefined
      // deleted meanwhile: not found
      const saved = await unlessMissing(
        service.update(userId, prev.id, maintenancePatch(prev, maintenanceBody(input))),
      )
      return saved && maintenanceView(saved, now())
    },
    remove: async (userId, id) => {
      if (!(await mine(userId, id))) return false
      await service.remove(userId, id)
      return true
    },
  }
}

export function maintenanceRoutes(k: Kit): Routes {
  const service = k.deps.monitors?.maintenance
  return recordRoutes(k, {
    port: service && calls(service),
    inputOf,
    list: '/maintenance',
    edit: '/maintenance/:id/edit',
    shown: () => '/maintenance',
    listPage: (ctx, windows, f) => maintenancePage(ctx, { windows, ...f }),
    editPage: maintenanceEditPage,
    deletePage: maintenanceDeletePage,
  })
}
