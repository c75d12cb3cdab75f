/**
 * The pieces every area of /openapi.json is written with: schema references, JSON bodies with
 * their examples, the success and error responses of each status with the headers they carry.
 */
import { ERROR_EXAMPLES, EXAMPLES } from '../../contract/examples.js'
import type { ErrorCode } from '../../contract/schemas.js'

export type Json = Record<string, any>

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

export const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` })
export const json = (schema: Json, example?: unknown) => ({
  'application/json': { schema, ...(example !== undefined ? { example } : {}) },
})
/** A JSON body of a contract schema, with its example. */
export const body = (schemaId: string) => json(ref(schemaId), EXAMPLES[schemaId])

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
export const HEADERS: Json = {
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
export function headersFor(status: number, auth: Auth): Json {
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
export function errors(...statuses: number[]): Json {
  return Object.fromEntries(statuses.map((s) => [String(s), errorResponse(s, 'key')]))
}

/** Error responses of an admin or open route. */
export function errorsOf(auth: Auth, ...statuses: number[]): Json {
  return Object.fromEntries(statuses.map((s) => [String(s), errorResponse(s, auth)]))
}

/** A success response; `headers` false for routes without rate limits (open and admin routes). */
export function ok(schemaId: string, description: string, status = '200', headers = true): Json {
  return {
    [status]: {
      description,
      content: body(schemaId),
      headers: headersFor(Number(status), headers ? 'key' : 'none'),
    },
  }
}

/** A 204 of a key route: no body, the same headers. */
export function noContent(description: string): Json {
  return { '204': { description, headers: headersFor(204, 'key') } }
}
