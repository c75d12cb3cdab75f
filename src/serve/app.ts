/**
 * The app as `serve` composes it: the API (src/server) with the dashboard and the status pages
 * mounted beside it, the dashboard given the same services the API's routes call (accounts,
 * monitors, status pages), the status pages their monitoring history.
 */
import { dashboardRoutes } from '../dashboard/index.js'
import { MaintenanceService } from '../monitors/maintenance/index.js'
import { createApp, type App, type Mount } from '../server/app.js'
import type { ServerOptions } from '../server/context.js'
import {
  openStatusPages,
  rollupUptime,
  statusPageRoutes,
  type SubscriberOptions,
  type UptimePort,
} from '../status-pages/index.js'

export interface ComposeOptions extends ServerOptions {
  /** Monitoring history for status pages and badges; by default the monitors' rollups and incidents. */
  uptime?: UptimePort
  /** Status-page subscribers (the secret key, SMTP); without them there are none. */
  subscribers?: Omit<SubscriberOptions, 'baseUrl' | 'allowPrivateTargets' | 'log'>
}

/** The app, and what of it must stop with the server (the subscribers' sender). */
export type ComposedApp = App & { close(): Promise<void> }

export function composeApp(o: ComposeOptions): ComposedApp {
  // the same object serve fills in after listening (publicUrl), so never a copy of it
  const opts: ServerOptions = o
  const uptime = o.uptime ?? historyPort(opts)
  const monitors = opts.monitoring?.service
  const accounts = opts.accounts
  const parts = openStatusPages(
    opts.store,
    Date.now,
    o.subscribers && {
      ...o.subscribers,
      allowPrivateTargets: opts.allowPrivateTargets,
      baseUrl: () => opts.publicUrl ?? '',
      log: opts.log,
    },
  )
  // a maintenance window made on a page's monitors reaches the page's subscribers
  const subscribers = parts.subscribers
  if (subscribers)
    opts.monitoring?.service.maintenance.onCreated((w) => {
      subscribers.service
        .maintenance(w)
        .catch((err) => opts.log?.(`status subscribers: ${(err as Error).message}`))
    })
  // a monitor going down opens draft incidents on the pages that ask for them (docs/status-pages.md)
  opts.monitoring?.service.alerts.onRaised((m, events) => {
    parts.monitorEvents(m, events).catch((err) => opts.log?.(`status incidents: ${(err as Error).message}`))
  })
  const mounts: Mount[] = accounts
    ? [
        ({ limiter, inFlight, failures }) =>
          dashboardRoutes({
            opts,
            accounts,
            monitors,
            statusPages: parts,
            limiter,
            inFlight,
            failures,
          }),
      ]
    : []
  mounts.push(({ limiter }) => statusPageRoutes(opts, limiter, uptime, parts))
  return { ...createApp(opts, mounts), close: async () => parts.subscribers?.close() }
}

/** The monitors' rollups and incidents, and their owner's maintenance windows. */
function historyPort(opts: ServerOptions): UptimePort | undefined {
  const monitors = opts.store.monitors
  if (!monitors) return undefined
  const maintenance =
    opts.monitoring?.service.maintenance ?? new MaintenanceService(opts.store.maintenance, monitors)
  return rollupUptime(monitors, Date.now, maintenance)
}
