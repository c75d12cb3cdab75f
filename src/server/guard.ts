/**
 * What every bearer-key route does first, and how a refused run is answered: one copy for the
 * public routes and the monitor routes.
 */
import type { H3Event } from 'h3'
import { CheckCapacity, DEFAULT_CAPACITY } from '../capacity/index.js'
import { RunRefused, type RunDeps } from '../runs/index.js'
import type { KeyRecord } from '../store/types.js'
import { authenticate } from './auth.js'
import type { ServerOptions } from './context.js'
import { ServiceError } from '../http/errors.js'
import { policiesOf, type Policy, type RateLimiter } from '../http/rate-limit.js'

/** An API run waits this long for a free check slot before it is answered 503 (docs/decisions.md#monitors-and-alerts: "briefly"). */
export const DEFAULT_CAPACITY_WAIT_MS = 5_000

/** `run`: run-check requests (routes 3 and 4, a monitor's run-now); `api`: every other request. */
export type PolicyName = 'run' | 'api'

/** Authenticate, then count the request against the key's window (400s and 402s count too). */
export function keyGuard(opts: ServerOptions, limiter: RateLimiter) {
  const policies = policiesOf(opts.limits)
  return async function guard(event: H3Event, which: PolicyName): Promise<KeyRecord> {
    const policy = policies[which]
    const key = await authenticate(event, opts.store)
    const decision = await limiter.hit(key.id, policy)
    Object.assign(event.context.extraHeaders as Record<string, string>, decision.headers)
    if (!decision.allowed) throw rateLimited(policy, decision.resetSec)
    return key
  }
}

/** The 429 of a key over its window (the h3 routes and the /credits fast path). */
export function rateLimited(policy: Policy, resetSec: number): ServiceError {
  return new ServiceError(
    429,
    'rate_limited',
    `Too many requests: at most ${policy.limit} per ${policy.windowMs / 1000} s for this key. Retry in ${resetSec} s.`,
  )
}

/** What running a check needs from the server's options (the capacity is created once, in createApp). */
export function runDeps(opts: ServerOptions): RunDeps {
  opts.capacity ??= new CheckCapacity(DEFAULT_CAPACITY)
  return {
    store: opts.store,
    capacity: opts.capacity,
    allowPrivateTargets: opts.allowPrivateTargets,
    checkTimeoutMs: opts.checkTimeoutMs,
    lab: opts.lab,
    log: opts.log,
    metrics: opts.metrics?.registry,
  }
}

/** The HTTP status of each refusal (the envelope's, and the dashboard page's). */
export const REFUSAL_STATUS: Record<RunRefused['code'], number> = {
  invalid_url: 400,
  rate_limited: 429,
  insufficient_credits: 402,
  server_busy: 503,
  check_failed: 502,
}

/** A refused run as the envelope's error; anything else unchanged. */
export function refusedAsServiceError(err: unknown): unknown {
  if (!(err instanceof RunRefused)) return err
  return new ServiceError(
    REFUSAL_STATUS[err.code],
    err.code,
    err.message,
    err.retryAfterSec !== undefined ? { 'retry-after': String(err.retryAfterSec) } : undefined,
  )
}
