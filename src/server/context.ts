import type { CheckCapacity } from '../capacity/index.js'
import type { Monitoring } from '../monitors/runtime.js'
import type { Store } from '../store/types.js'
import type { Accounts } from '../accounts/service.js'
import type { DashboardMonitors } from '../dashboard/monitors-port.js'
import type { FailurePolicy } from './failure-budget.js'
import type { RateLimiter } from './rate-limit.js'
import type { UptimePort } from '../status-pages/uptime.js'
import type { Metrics } from '../metrics/index.js'

export interface Limits {
  /** Run-check requests per key per window (routes 3 and 4 share it). */
  runLimit: number
  runWindowSec: number
  /** Other authenticated requests per key per window. */
  apiLimit: number
  apiWindowSec: number
}

export interface ServerOptions {
  store: Store
  /** Credits a new user starts with. */
  initialCredits: number
  allowPrivateTargets: boolean
  /** Admin bearer token. */
  adminToken: string
  /** Absolute base URL for meta's docs/openapi links; else the request's origin. */
  publicUrl?: string
  limits: Limits
  /** Whole-check budget, ms. */
  checkTimeoutMs: number
  /** Accounts and the dashboard at `/` (docs/decisions.md#accounts-and-the-dashboard); without it neither is served. */
  accounts?: Accounts
  /** The dashboard's view of monitors (docs/decisions.md#monitors-and-alerts), when the server runs them. */
  dashboardMonitors?: DashboardMonitors
  /** Monitors and alerts (docs/decisions.md#monitors-and-alerts); their routes exist when it is given. */
  monitoring?: Monitoring
  /** Prometheus series, with the token /metrics asks for (`serve --metrics-token`); off when unset. */
  metrics?: { registry: Metrics; token: string }
  /** Monitoring history for status pages and badges (rollups, incidents, maintenance). */
  uptime?: UptimePort
  /** Shared rate-limit windows (memory, PostgreSQL or Redis); in memory when omitted. */
  limiter?: RateLimiter
  /** One line per request; omit to disable. */
  log?: (line: string) => void
  /** Caps on checks in flight, shared with scheduled runs (default: 64 server-wide, 16 per user). */
  capacity?: CheckCapacity
  /** How long an API run waits for a free slot before 503, ms (default 5000). */
  capacityWaitMs?: number
  /** Free failures (check_failed) per key per window (default 30 per hour). */
  failurePolicy?: FailurePolicy
}

export const DEFAULT_LIMITS: Limits = { runLimit: 10, runWindowSec: 60, apiLimit: 120, apiWindowSec: 60 }
