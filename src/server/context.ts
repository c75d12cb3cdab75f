import type { LabRunner } from '../checks/lab-outcome.js'
import type { CheckCapacity } from '../capacity/index.js'
import type { Monitoring } from '../monitors/runtime.js'
import type { Store } from '../store/types.js'
import type { Accounts } from '../accounts/index.js'
import type { FailurePolicy } from '../runs/index.js'
import type { Limits, RateLimiter } from '../http/rate-limit.js'
import type { Metrics } from '../metrics/index.js'
import type { TrustProxy } from '../http/client-address.js'
import type { ReadinessProbe } from './readiness.js'

export { DEFAULT_LIMITS, type Limits } from '../http/rate-limit.js'

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
  /** Monitors and alerts (docs/decisions.md#monitors-and-alerts); their routes exist when it is given. */
  monitoring?: Monitoring
  /** Prometheus series, with the token /metrics asks for (`serve --metrics-token`); off when unset. */
  metrics?: { registry: Metrics; token: string }
  /** Shared rate-limit windows (memory, PostgreSQL or Redis); in memory when omitted. */
  limiter?: RateLimiter
  /** Dependencies readiness probes besides the store (Redis, when the limiter uses it). */
  readinessProbes?: ReadinessProbe[]
  /** Which proxies may name the client in X-Forwarded-For (`serve --trust-proxy`); none when omitted. */
  trustProxy?: TrustProxy
  /** One line per request; omit to disable. */
  log?: (line: string) => void
  /** The lab browser (`serve --lab-browser`, src/lab/): on-demand checks are measured there. */
  lab?: LabRunner
  /** Caps on checks in flight, shared with scheduled runs (default: 64 server-wide, 16 per user). */
  capacity?: CheckCapacity
  /** How long an API run waits for a free slot before 503, ms (default 5000). */
  capacityWaitMs?: number
  /** Free failures (check_failed) per key per window (default 30 per hour). */
  failurePolicy?: FailurePolicy
}
