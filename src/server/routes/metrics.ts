/**
 * `GET /metrics` (docs/decisions.md#the-public-face): the Prometheus text format, behind the bearer
 * token of `serve --metrics-token`. The token is compared in constant time (both sides hashed to
 * the same length first, so neither its content nor its length leaks through timing). Without a
 * token the route does not exist (404, like any unknown path).
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import type { H3Event } from 'h3'
import { ServiceError } from '../errors.js'
import type { Metrics } from '../../metrics/index.js'

export const METRICS_PATH = '/metrics'

const digest = (s: string) => createHash('sha256').update(s).digest()

export function metricsRoutes(metrics: Metrics, token: string) {
  const want = digest(token)
  const allowed = (event: H3Event) => {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(event.req.headers.get('authorization') ?? '')
    return m !== null && timingSafeEqual(digest(m[1]), want)
  }
  return {
    [METRICS_PATH]: {
      GET: async (event: H3Event): Promise<Response> => {
        if (!allowed(event))
          throw new ServiceError(
            401,
            'invalid_api_key',
            'Send the metrics token of this server: `Authorization: Bearer <serve --metrics-token>`.',
            { 'www-authenticate': 'Bearer realm="sitehealth metrics"' },
          )
        return new Response(await metrics.text(), {
          headers: { 'content-type': metrics.contentType, 'cache-control': 'no-store' },
        })
      },
    },
  }
}
