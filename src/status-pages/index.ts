/**
 * Public status pages, their badges and their API (docs/decisions.md#the-public-face). The door: `statusPageRoutes`
 * gives the composition root (src/serve) the routes it mounts (the key-authenticated API under /api/public/v1/status-pages and the
 * public /status/... pages); `StatusPageService` is what the dashboard and tests use; the
 * UptimePort is how the pages read monitoring history without keeping their own.
 */
import type { ServerOptions } from '../server/context.js'
import { writeCount } from '../store/writes.js'
import type { RateLimiter } from '../server/rate-limit.js'
import { statusPageApiRoutes } from './api-routes.js'
import { PublicPages, statusPagePublicRoutes } from './public-routes.js'
import { StatusPageService } from './service.js'
import { NO_HISTORY, type UptimePort } from './uptime.js'

export { StatusPageService, StatusPageError, statusPageView } from './service.js'
export { PublicPages, matches as etagMatches } from './public-routes.js'
export { buildPublicPage, overallState, publicState } from './model.js'
export { renderStatusPage, duration, pct } from './render.js'
export { drawBadge } from './badges.js'
export { NO_HISTORY, dayOf, daysBetween, type UptimePort, type UptimeWindows } from './uptime.js'

/** Every status-page route. */
export function statusPageRoutes(opts: ServerOptions, limiter: RateLimiter, history?: UptimePort) {
  const pages = opts.store.statusPages
  const service = new StatusPageService(pages, opts.store.monitors)
  const uptime = history ?? NO_HISTORY
  return {
    ...statusPageApiRoutes(opts, service, limiter),
    ...statusPagePublicRoutes(
      new PublicPages({ pages, monitors: opts.store.monitors, uptime, writes: writeCount(opts.store) }),
    ),
  }
}
