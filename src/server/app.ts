/**
 * The h3 app: one route table (path -> method -> handler), one error handler that renders every
 * failure (unknown route, wrong method, bad body, thrown exception) in the spec's envelope, a
 * request id on every response, and one access-log line per request.
 */
import { randomUUID } from 'node:crypto'
import { H3, type H3Event } from 'h3'
import { PATHS } from '../contract/routes.js'
import { fileJsonSchema, schemaUrl } from '../contract/file-schema.js'
import type { ServerOptions } from './context.js'
import { renderDocs } from './docs.js'
import { ServiceError } from '../http/errors.js'
import { BASE_HEADERS, renderError, SAFETY_HEADERS } from './render-error.js'
import type { ErrorEnvelope } from '../contract/schemas.js'
import { buildOpenApi, type DocLimits } from './openapi/index.js'
import { CheckCapacity, DEFAULT_CAPACITY } from '../capacity/index.js'
import { FailureBudget } from '../runs/index.js'
import { accessLine } from '../http/access-log.js'
import { attachClientAddress, clientAddress } from '../http/client-address.js'
import { RateLimiter } from '../http/rate-limit.js'
import { adminRoutes } from './routes/admin.js'
import { monitorRoutes } from './routes/monitors.js'
import { maintenanceRoutes } from './routes/maintenance.js'
import { pushRoutes } from './routes/push.js'
import { publicRoutes } from './routes/public.js'
import { accountApiRoutes } from './routes/accounts.js'
import { metricsRoutes } from './routes/metrics.js'
import { ReadinessCheck, readinessRoutes, storeProbe } from './readiness.js'
import { PAGE_HEADERS } from '../http/page-headers.js'

export { BASE_HEADERS, renderError, SAFETY_HEADERS } from './render-error.js'

type Handler = (event: H3Event) => unknown
export type RouteTable = Record<string, Partial<Record<string, Handler>>>

/** What a mounted face (the dashboard) gets from the app: shared limiter, checks in flight, failure budget. */
export interface MountKit {
  opts: ServerOptions
  limiter: RateLimiter
  inFlight: Set<Promise<unknown>>
  failures: FailureBudget
}

/** More routes beside the API's, given by the composition root (src/serve). */
export type Mount = (kit: MountKit) => RouteTable

/**
 * The request's id, made on first use: h3 may fail (a path that cannot be decoded) before
 * `onRequest` runs, and that error response still needs one.
 */
function requestIdOf(event: H3Event): string {
  event.context.requestId ??= randomUUID()
  return String(event.context.requestId)
}

/**
 * The envelope for a request Node's HTTP parser refused before h3 saw it (an unknown method,
 * oversized headers): written raw on the socket, as `clientError` handlers must.
 */
export function rawErrorResponse(parserCode: string | undefined): string {
  const tooLarge = parserCode === 'HPE_HEADER_OVERFLOW'
  const status = tooLarge ? 431 : 400
  const requestId = randomUUID()
  const body = JSON.stringify({
    ok: false,
    error: {
      code: 'invalid_url',
      message: tooLarge
        ? 'The request headers are too large.'
        : 'Bad request: the HTTP request could not be parsed.',
      request_id: requestId,
    },
  } satisfies ErrorEnvelope)
  const head = [
    `HTTP/1.1 ${status} ${tooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}`,
    ...Object.entries(BASE_HEADERS).map(([k, v]) => `${k}: ${v}`),
    `x-request-id: ${requestId}`,
    `content-length: ${Buffer.byteLength(body)}`,
    'connection: close',
  ]
  return `${head.join('\r\n')}\r\n\r\n${body}`
}

export interface App {
  app: H3
  /** Checks running now; shutdown waits for them. */
  inFlight: Set<Promise<unknown>>
  limiter: RateLimiter
  /** Caps on checks in flight; scheduled runs take their slots from the same one. */
  capacity: CheckCapacity
  /** Free failures per key (swept with the limiter). */
  failures: FailureBudget
}

/** `/openapi.json` and `/docs`, written for this server's limits, and the schema of `sitehealth.yaml`. */
function documentationRoutes(
  opts: ServerOptions,
  capacity: CheckCapacity,
  failures: FailureBudget,
): RouteTable {
  const docLimits: DocLimits = {
    runLimit: opts.limits.runLimit,
    runWindowSec: opts.limits.runWindowSec,
    apiLimit: opts.limits.apiLimit,
    apiWindowSec: opts.limits.apiWindowSec,
    maxConcurrentChecks: capacity.maxConcurrent,
    maxConcurrentChecksPerUser: capacity.maxPerUser,
    failureLimit: failures.policy.limit,
    failureWindowSec: Math.round(failures.policy.windowMs / 1000),
  }
  const openapi = buildOpenApi(docLimits)
  const docsHtml = renderDocs(openapi, docLimits)
  const fileSchema = fileJsonSchema()
  const originOf = (event: H3Event) => (opts.publicUrl ?? event.url.origin).replace(/\/+$/, '')

  return {
    [PATHS.openapi]: {
      GET: (event) => ({ ...openapi, servers: [{ url: originOf(event) }] }),
    },
    [PATHS.fileSchema]: {
      GET: (event) =>
        new Response(JSON.stringify({ $id: schemaUrl(originOf(event)), ...fileSchema }), {
          headers: {
            'content-type': 'application/schema+json',
            'cache-control': 'public, max-age=3600',
            // editors fetch it from their own origin-less context
            'access-control-allow-origin': '*',
            'x-content-type-options': 'nosniff',
          },
        }),
    },
    [PATHS.docs]: {
      GET: () =>
        new Response(docsHtml, {
          headers: {
            'content-type': 'text/html; charset=utf-8',
            'content-security-policy':
              "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'none'",
            'x-content-type-options': 'nosniff',
            // the same privacy headers as the dashboard's pages
            'referrer-policy': PAGE_HEADERS['referrer-policy'],
            'permissions-policy': PAGE_HEADERS['permissions-policy'],
          },
        }),
    },
  }
}

export function createApp(opts: ServerOptions, mounts: Mount[] = []): App {
  const limiter = opts.limiter ?? new RateLimiter()
  const inFlight = new Set<Promise<unknown>>()
  opts.capacity ??= new CheckCapacity(DEFAULT_CAPACITY)
  const capacity = opts.capacity
  const failures = new FailureBudget(opts.failurePolicy)

  const scheduler = opts.monitoring?.scheduler
  const readiness = new ReadinessCheck([storeProbe(opts.store), ...(opts.readinessProbes ?? [])], {
    failedTicks: scheduler && (() => scheduler.failedTicks),
    log: opts.log,
  })

  const table: RouteTable = {
    ...publicRoutes(opts, limiter, inFlight, failures),
    ...readinessRoutes(readiness),
    ...adminRoutes(opts),
    ...(opts.accounts ? accountApiRoutes(opts, opts.accounts, limiter) : {}),
    ...Object.assign({}, ...mounts.map((mount) => mount({ opts, limiter, inFlight, failures }))),
    ...(opts.monitoring ? monitorRoutes(opts, opts.monitoring, limiter, inFlight, failures) : {}),
    ...(opts.monitoring ? maintenanceRoutes(opts, opts.monitoring.service.maintenance, limiter) : {}),
    ...(opts.monitoring ? pushRoutes(opts.monitoring.service, limiter) : {}),
    ...(opts.metrics ? metricsRoutes(opts.metrics.registry, opts.metrics.token, limiter) : {}),
    ...documentationRoutes(opts, capacity, failures),
  }

  const metrics = opts.metrics?.registry
  const app = new H3({
    silent: true,
    onRequest(event) {
      requestIdOf(event)
      attachClientAddress(event, opts.trustProxy)
      event.context.startedAt = performance.now()
      event.context.extraHeaders = {} as Record<string, string>
    },
    onError(error, event) {
      return errorResponse(error, event, opts)
    },
    onResponse(response, event) {
      response.headers.set('x-request-id', requestIdOf(event))
      for (const [k, v] of Object.entries(SAFETY_HEADERS))
        if (!response.headers.has(k)) response.headers.set(k, v)
      for (const [k, v] of Object.entries((event.context.extraHeaders ?? {}) as Record<string, string>))
        response.headers.set(k, v)
      if (metrics) {
        const started = event.context.startedAt as number | undefined
        const seconds = started === undefined ? 0 : (performance.now() - started) / 1000
        metrics.observeRequest(
          event.req.method,
          (event.context.route as string) ?? 'unmatched',
          response.status,
          seconds,
        )
      }
      if (opts.log) {
        // the raw path: a path that cannot be decoded is logged as sent
        const path = event.req.url.replace(/^[a-z]+:\/\/[^/]+/i, '')
        const started = event.context.startedAt as number | undefined
        opts.log(
          accessLine(
            event.req.method,
            path,
            response.status,
            started,
            requestIdOf(event),
            opts.trustProxy && clientAddress(event),
          ),
        )
      }
    },
  })

  for (const [path, methods] of Object.entries(table)) {
    const allow = Object.keys(methods)
      .concat(methods.GET ? ['HEAD'] : [])
      .join(', ')
    app.all(path, (event) => {
      event.context.route = path
      const method = event.req.method
      const handler = methods[method] ?? (method === 'HEAD' ? methods.GET : undefined)
      if (!handler)
        throw new ServiceError(
          405,
          'method_not_allowed',
          `${method} is not allowed on ${path}; use ${allow}.`,
          {
            allow,
          },
        )
      return handler(event)
    })
  }
  return { app, inFlight, limiter, capacity, failures }
}

function errorResponse(error: unknown, event: H3Event, opts: ServerOptions): Response {
  const { status, headers, body } = renderError(error, requestIdOf(event), opts)
  return new Response(body, { status, headers })
}
