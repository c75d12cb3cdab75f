/**
 * `GET /metrics` (docs/decisions.md#the-public-face): the Prometheus text format, behind the bearer
 * token of `serve --metrics-token` (at least 32 characters: `serve` refuses a weaker one). The
 * token is compared in constant time (both sides hashed to the same length first, so neither its
 * content nor its length leaks through timing). Wrong tokens count per client address: past
 * METRICS_FAILURES in a window, every request from that address gets 429 until the window ends,
 * the right token included (otherwise a guesser would still learn which guess was right), as for
 * the admin token. Without a token the route does not exist (404, like any unknown path).
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import type { H3Event } from 'h3'
import { clientAddress } from '../../http/client-address.js'
import { ServiceError } from '../../http/errors.js'
import type { Policy, RateLimiter } from '../../http/rate-limit.js'
import type { Metrics } from '../../metrics/index.js'

export const METRICS_PATH = '/metrics'

/** Wrong metrics tokens per client address: a scraper with the right one never sends one. */
export const METRICS_FAILURES: Policy = { name: 'metrics-fail', limit: 10, windowMs: 60_000 }

const digest = (s: string) => createHash('sha256').update(s).digest()

export function metricsRoutes(metrics: Metrics, token: string, limiter: RateLimiter) {
  const want = digest(token)
  const allowed = (event: H3Event) => {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(event.req.headers.get('authorization') ?? '')
    return m !== null && timingSafeEqual(digest(m[1]), want)
  }
  const tooMany = (resetSec: number) =>
    new ServiceError(
      429,
      'rate_limited',
      `Too many wrong metrics tokens from this client: at most ${METRICS_FAILURES.limit} per ${METRICS_FAILURES.windowMs / 1000} s. Retry in ${resetSec} s.`,
      { 'retry-after': String(resetSec) },
    )
  return {
    [METRICS_PATH]: {
      GET: async (event: H3Event): Promise<Response> => {
        const client = clientAddress(event)
        const waiting = await limiter.refused(client, METRICS_FAILURES)
        if (waiting) throw tooMany(waiting.resetSec)
        if (!allowed(event)) {
          const d = await limiter.hit(client, METRICS_FAILURES)
          if (!d.allowed) throw tooMany(d.resetSec)
          throw new ServiceError(
            401,
            'invalid_api_key',
            'Send the metrics token of this server: `Authorization: Bearer <serve --metrics-token>`.',
            { 'www-authenticate': 'Bearer realm="sitehealth metrics"' },
          )
        }
        return new Response(await metrics.text(), {
          headers: { 'content-type': metrics.contentType, 'cache-control': 'no-store' },
        })
      },
    },
  }
}
