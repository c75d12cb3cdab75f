/**
 * The dashboard at `/` (docs/decisions.md#accounts-and-the-dashboard): server-rendered pages over
 * the same store, engine and account service the API uses. Every state-changing request is a form
 * POST checked for CSRF and answered with a redirect (post/redirect/get) or the form again with its
 * error. One file per area, all on the kit (../kit.ts).
 */
import { createKit, param, type DashboardDeps, type Handler, type Routes } from '../kit.js'
import { accountRoutes } from './account.js'
import { adminRoutes } from './admin.js'
import { authRoutes } from './auth.js'
import { checkRoutes, homeRoute } from './checks.js'
import { deviceRoutes } from './device.js'
import { inviteRoutes } from './invites.js'
import { keyRoutes } from './keys.js'
import { maintenanceRoutes } from './maintenance.js'
import { monitorRoutes } from './monitors.js'
import { statusPageRoutes } from './status-pages.js'

export function dashboardRoutes(deps: DashboardDeps): Routes {
  const k = createKit(deps)
  const asset: Handler = (event) => k.assets.serve(param(event, 'file')) ?? k.notFound(event, undefined)
  const table: Routes = {
    ...homeRoute(k),
    ...authRoutes(k),
    ...inviteRoutes(k),
    ...checkRoutes(k),
    ...monitorRoutes(k),
    ...maintenanceRoutes(k),
    ...statusPageRoutes(k),
    ...keyRoutes(k),
    ...accountRoutes(k),
    ...deviceRoutes(k),
    ...adminRoutes(k),
    '/assets/:file': { GET: asset },
  }
  for (const methods of Object.values(table))
    for (const m of Object.keys(methods)) methods[m] = k.wrap(methods[m]!)
  return table
}
