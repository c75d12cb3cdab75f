/**
 * Public status pages, their badges and their API (docs/decisions.md#the-public-face), with the
 * incidents posted on them (docs/status-pages.md). The door: `statusPageRoutes` gives the composition root
 * (src/serve) the routes it mounts (the key-authenticated API under /api/public/v1/status-pages and
 * the public /status/... pages); `openStatusPages` builds the services once (the dashboard, the
 * monitor-down hook and the routes share them); the UptimePort is how the pages read monitoring
 * history without keeping their own.
 */
import type { ServerOptions } from '../server/context.js'
import type { MonitorRecord } from '../store/monitors.js'
import type { Store } from '../store/types.js'
import { writeCount } from '../store/writes.js'
import type { RateLimiter } from '../http/rate-limit.js'
import { apiKit, statusPageApiRoutes } from './api-routes.js'
import { incidentApiRoutes } from './incident-routes.js'
import { IncidentService } from './incidents.js'
import { PublicPages, statusPagePublicRoutes } from './public-routes.js'
import { StatusPageService } from './service.js'
import { NO_HISTORY, type UptimePort } from './uptime.js'
import {
  openSubscribers,
  subscriberRoutes,
  type SubscriberOptions,
  type Subscribers,
} from './subscribers/index.js'

export { StatusPageService, statusPageView } from './service.js'
export { IncidentService, incidentView, type IncidentListener } from './incidents.js'
export { IMPACT_TEXT, INCIDENT_STATUS_TEXT } from './render-incidents.js'
export { PublicPages, matches as etagMatches } from './public-routes.js'
export { buildPublicPage, overallState, publicState } from './model.js'
export { renderStatusPage, duration, pct } from './render.js'
export { drawBadge } from './badges.js'
export { PageDomains, withPageDomains, domainPath, hostName } from './domains.js'
export {
  SubscriberService,
  SubscriberSender,
  Outbox,
  LinkSigner,
  type Job,
  SUBSCRIBE_POLICIES,
  type SubscriberOptions,
  type Subscribers,
} from './subscribers/index.js'
export { rollupUptime } from './rollup-history.js'
export { NO_HISTORY, dayOf, daysBetween, type UptimePort, type UptimeWindows } from './uptime.js'

/** The services of status pages over one store, made once. */
export interface StatusPages {
  service: StatusPageService
  incidents: IncidentService
  /** Subscribers, when serve gave their options (the secret key, SMTP). */
  subscribers?: Subscribers
  /** A monitor's events were raised: opens draft incidents where pages ask for them. */
  monitorEvents(m: MonitorRecord, events: { event: string }[]): Promise<void>
}

export function openStatusPages(
  store: Store,
  now: () => number = Date.now,
  subscriberOptions?: SubscriberOptions,
): StatusPages {
  const service = new StatusPageService(store.statusPages, store.monitors, now, store)
  const incidents = new IncidentService(service, store.statusIncidents, now)
  const subscribers = subscriberOptions && openSubscribers(store, service, { now, ...subscriberOptions })
  // published incidents, their updates and resolutions reach the page's subscribers
  if (subscribers)
    incidents.onPublished((page, incident, event) => {
      subscribers.service
        .incident(page, incident, event)
        .catch((err) => subscriberOptions?.log?.(`status subscribers: ${(err as Error).message}`))
    })
  return {
    service,
    incidents,
    subscribers,
    async monitorEvents(m, events) {
      if (events.some((e) => e.event === 'monitor.down')) await incidents.openDrafts(m)
    },
  }
}

/** Every status-page route. */
export function statusPageRoutes(
  opts: ServerOptions,
  limiter: RateLimiter,
  history?: UptimePort,
  parts: StatusPages = openStatusPages(opts.store),
) {
  const pages = opts.store.statusPages
  const uptime = history ?? NO_HISTORY
  const kit = apiKit(opts, limiter)
  const publicPages = new PublicPages({
    pages,
    monitors: opts.store.monitors,
    incidents: opts.store.statusIncidents,
    uptime,
    writes: writeCount(opts.store),
    forms: parts.subscribers && { email: parts.subscribers.sender.canMail },
  })
  return {
    ...statusPageApiRoutes(kit, parts.service),
    ...incidentApiRoutes(kit, parts.incidents),
    ...(parts.subscribers ? subscriberRoutes(kit, limiter, parts.subscribers.service) : {}),
    ...statusPagePublicRoutes(publicPages, () => opts.publicUrl),
  }
}
