/**
 * The push route of heartbeat monitors (docs/decisions.md#monitoring-depth): `GET` or `POST
 * /api/push/<token>` records a beat, `?status=down&msg=…` a failure. No key: the token is the
 * credential. Every push counts against its client address first. The token is checked next (the
 * monitor id in it finds the monitor, the hash of the whole token must match): a wrong token is
 * 404, like an unknown route, and counts against the address's tighter budget of failures (429
 * past it), never against the monitor — monitor ids are public on status pages, so bogus pushes
 * naming one must not spend the real job's beats (issue 31). Only a push with the right token
 * counts against its monitor's limit.
 */
import { getQuery, type H3Event } from 'h3'
import { PUSH_PATH, PushQuery, type PushResult } from '../../contract/monitoring.js'
import type { MonitorService } from '../../monitors/service.js'
import { parseWith } from '../../http/body.js'
import { clientAddress } from '../../http/client-address.js'
import { notFound, ServiceError } from '../../http/errors.js'
import type { Policy, RateLimiter } from '../../http/rate-limit.js'

/** Beats per monitor: a job every second still fits. */
export const PUSH_PER_MONITOR: Policy = { name: 'push', limit: 120, windowMs: 60_000 }
/** Pushes per client address, known tokens or not. */
export const PUSH_PER_ADDRESS: Policy = { name: 'push-addr', limit: 600, windowMs: 60_000 }
/** Wrong tokens per client address: a job with the right token never sends one. */
export const PUSH_FAILURES_PER_ADDRESS: Policy = { name: 'push-fail', limit: 30, windowMs: 60_000 }

export const pushUrlOf = (base: string, token: string) =>
  `${base.replace(/\/+$/, '')}${PUSH_PATH.replace(':token', token)}`

const UNKNOWN = 'No heartbeat monitor has this push token.'

export function pushRoutes(service: MonitorService, limiter: RateLimiter) {
  async function limit(event: H3Event, key: string, policy: Policy, what = 'pushes'): Promise<void> {
    const d = await limiter.hit(key, policy)
    Object.assign(event.context.extraHeaders as Record<string, string>, d.headers)
    if (!d.allowed)
      throw new ServiceError(
        429,
        'rate_limited',
        `Too many ${what}: at most ${policy.limit} per ${policy.windowMs / 1000} s. Retry in ${d.resetSec} s.`,
        { 'retry-after': String(d.resetSec) },
      )
  }

  async function push(event: H3Event): Promise<PushResult> {
    const address = clientAddress(event)
    await limit(event, address, PUSH_PER_ADDRESS)
    const token = String(event.context.params?.token ?? '')
    const monitor = await service.heartbeats.monitorOfToken(token)
    if (!monitor) {
      await limit(event, address, PUSH_FAILURES_PER_ADDRESS, 'pushes with a wrong token')
      throw notFound(UNKNOWN)
    }
    const q = parseWith(PushQuery, getQuery(event), 'push')
    await limit(event, monitor.id, PUSH_PER_MONITOR)
    const status = q.status ?? 'up'
    const m = await service.heartbeats.beat(monitor, status, q.msg)
    return { ok: true, monitor_id: m.id, status, received_at: new Date().toISOString() }
  }

  return { [PUSH_PATH]: { GET: push, POST: push } }
}
