/**
 * The app as `serve` composes it: the API (src/server) with the dashboard mounted beside it, the
 * dashboard given its ports (accounts, and monitors through ./dashboard-port.ts).
 */
import { dashboardRoutes, type DashboardMonitors } from '../dashboard/index.js'
import type { Monitoring } from '../monitors/index.js'
import { createApp, type App, type Mount } from '../server/app.js'
import type { ServerOptions } from '../server/context.js'
import { dashboardMonitors } from './dashboard-port.js'

export interface ComposeOptions extends ServerOptions {
  /** The dashboard's view of monitors; by default over `monitoring`'s service when it is given. */
  dashboardMonitors?: DashboardMonitors
}

export function composeApp(o: ComposeOptions): App {
  const { dashboardMonitors: given, ...opts } = o
  const monitors = given ?? monitorsPort(opts.monitoring)
  const accounts = opts.accounts
  const mounts: Mount[] = accounts
    ? [
        ({ limiter, inFlight, failures }) =>
          dashboardRoutes({ opts, accounts, monitors, limiter, inFlight, failures }),
      ]
    : []
  return createApp(opts, mounts)
}

function monitorsPort(monitoring: Monitoring | undefined): DashboardMonitors | undefined {
  return monitoring && dashboardMonitors(monitoring.service)
}
