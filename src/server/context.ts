import type { Store } from '../store/types.js'

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
  /** One line per request; omit to disable. */
  log?: (line: string) => void
}

export const DEFAULT_LIMITS: Limits = { runLimit: 10, runWindowSec: 60, apiLimit: 120, apiWindowSec: 60 }
