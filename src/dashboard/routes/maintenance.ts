/** Maintenance windows through the dashboard's port: list and create, edit, delete with a confirmation. */
import { field, type Kit, type Routes } from '../kit.js'
import { MaintenanceRejected, type MaintenanceInput } from '../maintenance-port.js'
import { maintenanceDeletePage, maintenanceEditPage, maintenancePage } from '../pages/maintenance.js'
import { recordRoutes } from './records.js'

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
  return recordRoutes(k, {
    port: k.deps.maintenance,
    rejected: MaintenanceRejected,
    inputOf,
    check: checkTicked,
    list: '/maintenance',
    edit: '/maintenance/:id/edit',
    shown: () => '/maintenance',
    listPage: (ctx, windows, f) => maintenancePage(ctx, { windows, ...f }),
    editPage: maintenanceEditPage,
    deletePage: maintenanceDeletePage,
  })
}
