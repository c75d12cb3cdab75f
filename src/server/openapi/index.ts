/**
 * /openapi.json, generated from the same zod declarations the routes validate and serialise with
 * (src/contract), so the document cannot drift from the code. OpenAPI 3.1 uses JSON Schema
 * 2020-12, which is what zod emits.
 */
import { z } from 'zod'
import { ERROR_EXAMPLES, EXAMPLES } from '../../contract/examples.js'
import * as contract from '../../contract/schemas.js'
import type { ErrorCode } from '../../contract/schemas.js'
import { MAX_BODY_BYTES, MAX_URL_LENGTH, PATHS } from '../../contract/routes.js'
import '../../contract/accounts.js'
import { accountPaths } from './accounts.js'
import { monitorPaths } from './monitors.js'
import { statusPagePaths } from './status-pages.js'
import { maintenancePaths } from './maintenance.js'
import '../../contract/status-pages.js'

type Json = Record<string, any>

/** The running server's limits, stated in the document and on /docs (not fixed numbers). */
export interface DocLimits {
  runLimit: number
  runWindowSec: number
  apiLimit: number
  apiWindowSec: number
  maxConcurrentChecks: number
  maxConcurrentChecksPerUser: number
  failureLimit: number
  failureWindowSec: number
}

export const DEFAULT_DOC_LIMITS: DocLimits = {
  runLimit: 10,
  runWindowSec: 60,
  apiLimit: 120,
  apiWindowSec: 60,
  maxConcurrentChecks: 64,
  maxConcurrentChecksPerUser: 16,
  failureLimit: 30,
  failureWindowSec: 3600,
}

const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` })
const json = (schema: Json, example?: unknown) => ({
  'application/json': { schema, ...(example !== undefined ? { example } : {}) },
})
/** A JSON body of a contract schema, with its example. */
const body = (schemaId: string) => json(ref(schemaId), EXAMPLES[schemaId])

const ERRORS: Record<number, { description: string; codes: ErrorCode[] }> = {
  400: {
    description:
      'Invalid URL or invalid request (malformed JSON, wrong content type, unknown field, bad parameter). Nothing charged.',
    codes: ['invalid_url'],
  },
  401: { description: 'Missing, invalid or revoked key.', codes: ['invalid_api_key', 'revoked_api_key'] },
  402: { description: 'Not enough credits; the check was not run.', codes: ['insufficient_credits'] },
  404: { description: 'No such check or monitor for this key, or no such route.', codes: ['not_found'] },
  405: {
    description: 'Method not allowed on this path (see the Allow header).',
    codes: ['method_not_allowed'],
  },
  409: {
    description:
      'The name is taken: another status page has this slug (or it is a reserved word), or another of your monitors has this ref.',
    codes: ['conflict'],
  },
  429: {
    description: 'Too many requests (or failed checks) in the current window; wait Retry-After seconds.',
    codes: ['rate_limited'],
  },
  500: { description: 'Unexpected failure; a generic, safe message.', codes: ['internal_error'] },
  502: {
    description:
      'No useful result could be made (DNS failure, refused, timeout, TLS impossible). Nothing charged.',
    codes: ['check_failed'],
  },
  503: {
    description:
      'Try again after Retry-After seconds; nothing charged. `server_busy`: every check slot of the server (or of this user) stayed taken for the brief wait. `service_unavailable`: a dependency of the server (the database, Redis, the disk) is down, full or did not answer in time.',
    codes: ['server_busy', 'service_unavailable'],
  },
}

const header = (name: string) => ({ $ref: `#/components/headers/${name}` })

/** Every response header the server sends, declared once (components.headers). */
const HEADERS: Json = {
  'X-Request-Id': {
    description: 'Id of this request, for support; also in `error.request_id` of an error body.',
    required: true,
    schema: { type: 'string', format: 'uuid' },
    example: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
  },
  RateLimit: {
    description: 'IETF draft RateLimit fields: the policy, remaining requests and seconds to reset.',
    required: true,
    schema: { type: 'string', pattern: '^"[a-z]+";r=\\d+;t=\\d+$' },
    example: '"run";r=3;t=42',
  },
  'RateLimit-Policy': {
    description: 'IETF draft RateLimit-Policy: the quota and window (seconds) of the policy that applies.',
    required: true,
    schema: { type: 'string', pattern: '^"[a-z]+";q=\\d+;w=\\d+$' },
    example: '"run";q=10;w=60',
  },
  'Retry-After': {
    description: 'Seconds to wait before retrying.',
    required: true,
    schema: { type: 'string', pattern: '^[1-9]\\d*$' },
    example: '42',
  },
  'WWW-Authenticate': {
    description: 'The Bearer challenge (RFC 6750); `error="invalid_token"` when a key was sent.',
    required: true,
    schema: { type: 'string', pattern: '^Bearer ' },
    example: 'Bearer realm="sitehealth"',
  },
  Allow: {
    description: 'The methods the path supports.',
    required: true,
    schema: { type: 'string' },
    example: 'POST',
  },
}

type Auth = 'key' | 'admin' | 'none'

/** The headers a response carries: a request id always; rate-limit fields on key routes past auth. */
function headersFor(status: number, auth: Auth): Json {
  const out: Json = { 'X-Request-Id': header('X-Request-Id') }
  if (auth === 'key' && status !== 401) {
    // a 500 can come before the rate limiter ran: there the fields are optional
    const optional = status === 500
    out.RateLimit = optional ? { ...HEADERS.RateLimit, required: false } : header('RateLimit')
    out['RateLimit-Policy'] = optional
      ? { ...HEADERS['RateLimit-Policy'], required: false }
      : header('RateLimit-Policy')
  }
  if (status === 401) out['WWW-Authenticate'] = header('WWW-Authenticate')
  if (status === 429 || status === 503) out['Retry-After'] = header('Retry-After')
  if (status === 405) out.Allow = header('Allow')
  return out
}

function errorResponse(status: number, auth: Auth): Json {
  const e = ERRORS[status]
  const examples: Json = {}
  for (const code of e.codes)
    for (const [name, ex] of Object.entries(ERROR_EXAMPLES[code])) examples[`${code}_${name}`] = ex
  return {
    description: `${e.description} Codes: ${e.codes.join(', ')}.`,
    headers: headersFor(status, auth),
    content: { 'application/json': { schema: ref('ErrorEnvelope'), examples } },
  }
}

/** Error responses of a key route (rate-limit fields included). */
function errors(...statuses: number[]): Json {
  return Object.fromEntries(statuses.map((s) => [String(s), errorResponse(s, 'key')]))
}

/** Error responses of an admin or open route. */
function errorsOf(auth: Auth, ...statuses: number[]): Json {
  return Object.fromEntries(statuses.map((s) => [String(s), errorResponse(s, auth)]))
}

/** A success response; `headers` false for routes without rate limits (open and admin routes). */
function ok(schemaId: string, description: string, status = '200', headers = true): Json {
  return {
    [status]: {
      description,
      content: body(schemaId),
      headers: headersFor(Number(status), headers ? 'key' : 'none'),
    },
  }
}

/** A 204 of a key route: no body, the same headers. */
function noContent(description: string): Json {
  return { '204': { description, headers: headersFor(204, 'key') } }
}

function components(): Json {
  // Touch the module so every schema with an id is registered before we read the registry.
  void contract.SIGNAL_NAMES
  const { schemas } = z.toJSONSchema(z.globalRegistry, {
    target: 'draft-2020-12',
    uri: (id) => `#/components/schemas/${id}`,
  }) as { schemas: Record<string, Json> }
  for (const s of Object.values(schemas)) {
    delete s.$schema
    delete s.$id
  }
  return schemas
}

export function buildOpenApi(limits: DocLimits = DEFAULT_DOC_LIMITS): Json {
  const key = [{ apiKey: [] }]
  const admin = [{ adminToken: [] }]
  const run = {
    summary: 'Run and save a check',
    description: `Runs a live health check of a public http or https URL (at most ${MAX_URL_LENGTH} characters; no other body field is accepted), saves the result and consumes 1 credit. Invalid or blocked URLs (400), failed checks (502), requests without credits (402) and runs refused while the server is busy (503) cost nothing. Limits on this server: ${limits.runLimit} runs per ${limits.runWindowSec} s per key, shared with the other run route; at most ${limits.failureLimit} failed checks per ${limits.failureWindowSec} s per key (then 429); at most ${limits.maxConcurrentChecks} checks in flight on the server and ${limits.maxConcurrentChecksPerUser} per user (past that a run waits briefly, then 503).`,
    security: key,
    requestBody: { required: true, content: body('RunRequest') },
    responses: {
      ...ok('RunResult', 'The check result; the check is saved and 1 credit consumed.'),
      ...errors(400, 401, 402, 429, 500, 502, 503),
    },
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'sitehealth API',
      version: '1.0.0',
      description: `Website health checks: reachability, HTTPS and certificate, response time, security headers and performance, as signals, a health score, a risk level and a summary. Authenticated routes take \`Authorization: Bearer <API key>\`.

Limits of this server: ${limits.runLimit} run-check requests per ${limits.runWindowSec} s per key (both run routes share one counter), ${limits.apiLimit} other requests per ${limits.apiWindowSec} s per key, sliding windows; at most ${limits.failureLimit} failed checks per ${limits.failureWindowSec} s per key; ${limits.maxConcurrentChecks} checks in flight on the server and ${limits.maxConcurrentChecksPerUser} per user. Request bodies up to ${MAX_BODY_BYTES / 1024} KiB. Every response carries \`X-Request-Id\`; every response of a key route past authentication carries \`RateLimit\` and \`RateLimit-Policy\`. A method a path does not support gets 405 \`method_not_allowed\` with \`Allow\` (components.responses.MethodNotAllowed); an unknown path gets 404 \`not_found\`.`,
    },
    servers: [{ url: '/', description: 'This deployment (the served document names its absolute origin).' }],
    tags: [
      { name: 'service', description: 'Health and metadata; no key needed.' },
      { name: 'checks', description: 'Run, list and read checks.' },
      { name: 'credits', description: 'The credit balance.' },
      { name: 'admin', description: 'Key issuance and credit grants for self-hosters (admin token).' },
      { name: 'monitors', description: 'Scheduled checks of a URL, with alerts to channels.' },
      {
        name: 'maintenance',
        description: 'Maintenance windows: runs go on, alerts stay quiet, uptime does not count them.',
      },
      { name: 'status pages', description: 'Public status pages and README badges of your monitors.' },
    ],
    paths: {
      [PATHS.health]: {
        get: {
          tags: ['service'],
          operationId: 'getHealth',
          summary: 'Service health',
          security: [],
          responses: { ...ok('Health', 'The service is up.', '200', false), ...errorsOf('none', 500) },
        },
      },
      [PATHS.ready]: {
        get: {
          tags: ['service'],
          operationId: 'getReadiness',
          summary: 'Readiness: can this instance serve requests now',
          description:
            'Probes the store (PostgreSQL: `SELECT 1`; the embedded store: a small durable write in its data dir) and Redis when rate limits live there, each for at most one second; one report serves every caller for a second. Use it for a load balancer or orchestrator readiness probe, and `/health` for liveness: `/health` never touches a dependency, so a shared database outage does not take every instance out. The report names dependencies and fixed phrases only, never an address or a driver message.',
          security: [],
          responses: {
            ...ok(
              'Readiness',
              'Ready, or degraded (Redis down: the in-process limiter decides).',
              '200',
              false,
            ),
            '503': {
              description:
                'Unavailable: the store does not answer or cannot write. The report with `ok: false` and the error envelope (`service_unavailable`).',
              headers: headersFor(503, 'none'),
              content: body('Readiness'),
            },
            ...errorsOf('none', 500),
          },
        },
      },
      [PATHS.meta]: {
        get: {
          tags: ['service'],
          operationId: 'getMeta',
          summary: 'Service metadata',
          security: [],
          responses: { ...ok('Meta', 'What the service does.', '200', false), ...errorsOf('none', 500) },
        },
      },
      [PATHS.run]: { post: { ...run, tags: ['checks'], operationId: 'runCheck' } },
      [PATHS.runAlias]: {
        post: {
          ...run,
          tags: ['checks'],
          operationId: 'runCheckAlias',
          summary: 'Run and save a check (alias)',
        },
      },
      [PATHS.credits]: {
        get: {
          tags: ['credits'],
          operationId: 'getCredits',
          summary: 'Credit balance',
          security: key,
          responses: { ...ok('CreditBalance', 'The balance.'), ...errors(401, 429, 500) },
        },
      },
      [PATHS.recent]: {
        get: {
          tags: ['checks'],
          operationId: 'listRecentChecks',
          summary: 'Recent saved checks, newest first',
          description:
            'Cursor paging: pass `next_cursor` as `cursor` to get the next, older page; it is null on the last page.',
          security: key,
          parameters: [
            {
              name: 'limit',
              in: 'query',
              required: false,
              description: 'Page size.',
              schema: { type: 'integer', enum: [10, 25, 50], default: 10 },
              example: 25,
            },
            {
              name: 'cursor',
              in: 'query',
              required: false,
              description: '`next_cursor` of the previous page.',
              schema: { type: 'string', format: 'date-time' },
              example: '2026-11-23T09:01:52.087Z',
            },
          ],
          responses: { ...ok('RecentChecks', 'One page of checks.'), ...errors(400, 401, 429, 500) },
        },
      },
      '/api/public/v1/checks/{id}': {
        get: {
          tags: ['checks'],
          operationId: 'getCheck',
          summary: 'One saved check',
          security: key,
          parameters: [
            {
              name: 'id',
              in: 'path',
              required: true,
              schema: { type: 'string', format: 'uuid' },
              example: '0193a5c4-8f2e-7b1a-9c3d-2e4f5a6b7c8d',
            },
          ],
          responses: { ...ok('SavedCheck', 'The saved check.'), ...errors(400, 401, 404, 429, 500) },
        },
      },
      [PATHS.adminKeys]: {
        post: {
          tags: ['admin'],
          operationId: 'createKey',
          summary: 'Create an API key (the secret is shown once)',
          security: admin,
          requestBody: { required: true, content: body('KeyCreateRequest') },
          responses: {
            ...ok('KeyCreated', 'The new key.', '201', false),
            ...errorsOf('admin', 400, 401, 429, 500),
          },
        },
        get: {
          tags: ['admin'],
          operationId: 'listKeys',
          summary: 'List API keys (never the secrets)',
          security: admin,
          responses: { ...ok('KeyList', 'All keys.', '200', false), ...errorsOf('admin', 401, 429, 500) },
        },
      },
      '/api/admin/v1/keys/{id}/revoke': {
        post: {
          tags: ['admin'],
          operationId: 'revokeKey',
          summary: 'Revoke an API key',
          security: admin,
          parameters: [
            {
              name: 'id',
              in: 'path',
              required: true,
              schema: { type: 'string' },
              example: '5f0c2b9e-3d41-4a8e-9b7a-6c1d2e3f4a5b',
            },
          ],
          responses: {
            ...ok('KeyRevoked', 'Revoked.', '200', false),
            ...errorsOf('admin', 401, 404, 429, 500),
          },
        },
      },
      '/api/admin/v1/users/{user}/credits': {
        post: {
          tags: ['admin'],
          operationId: 'grantCredits',
          summary: 'Grant credits to a user',
          security: admin,
          parameters: [
            {
              name: 'user',
              in: 'path',
              required: true,
              description: 'User id: 1-64 letters, digits, dots, dashes or underscores.',
              schema: { type: 'string', pattern: '^[A-Za-z0-9._-]{1,64}$' },
              example: 'acme',
            },
          ],
          requestBody: { required: true, content: body('CreditGrantRequest') },
          responses: {
            ...ok('CreditGrantResult', 'The new balance.', '200', false),
            ...errorsOf('admin', 400, 401, 429, 500),
          },
        },
      },
      ...accountPaths({ ok, errors, body }),
      ...monitorPaths({ ok, errors, json, ref, body, noContent }),
      ...maintenancePaths({ ok, errors, json, ref, body, noContent }),
      ...statusPagePaths({
        ok,
        errors,
        json,
        ref,
        body,
        noContent,
        openErrors: (...s: number[]) => errorsOf('none', ...s),
      }),
    },
    components: {
      schemas: components(),
      headers: HEADERS,
      responses: {
        MethodNotAllowed: {
          description:
            'The path exists but does not support this method; `Allow` lists the methods it does support.',
          headers: headersFor(405, 'none'),
          content: {
            'application/json': {
              schema: ref('ErrorEnvelope'),
              example: ERROR_EXAMPLES.method_not_allowed.method.value,
            },
          },
        },
      },
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: 'An API key: `shk_live_…`.' },
        adminToken: {
          type: 'http',
          scheme: 'bearer',
          description: 'The admin token (SITEHEALTH_ADMIN_TOKEN or <data-dir>/admin-token).',
        },
      },
    },
  }
}
