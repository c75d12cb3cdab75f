/**
 * /openapi.json, generated from the same zod declarations the routes validate and serialise with
 * (src/contract), so the document cannot drift from the code. OpenAPI 3.1 uses JSON Schema
 * 2020-12, which is what zod emits.
 */
import { z } from 'zod'
import * as contract from '../contract/schemas.js'
import { PATHS } from '../contract/routes.js'

type Json = Record<string, any>

const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` })
const json = (schema: Json) => ({ 'application/json': { schema } })

const ERRORS: Record<number, { description: string; codes: string[] }> = {
  400: {
    description: 'Invalid URL or invalid request (malformed JSON, wrong content type, bad parameter).',
    codes: ['invalid_url'],
  },
  401: { description: 'Missing, invalid or revoked key.', codes: ['invalid_api_key', 'revoked_api_key'] },
  402: { description: 'Not enough credits; the check was not run.', codes: ['insufficient_credits'] },
  404: { description: 'No such check for this key, or no such route.', codes: ['not_found'] },
  405: {
    description: 'Method not allowed on this path (see the Allow header).',
    codes: ['method_not_allowed'],
  },
  429: {
    description: 'Too many requests in the current window; wait Retry-After seconds.',
    codes: ['rate_limited'],
  },
  500: { description: 'Unexpected failure; a generic, safe message.', codes: ['internal_error'] },
  502: {
    description:
      'No useful result could be made (DNS failure, refused, timeout, TLS impossible). Nothing charged.',
    codes: ['check_failed'],
  },
}

const rateHeaders = {
  RateLimit: {
    description: 'IETF draft: remaining requests and seconds to reset, e.g. `"run";r=3;t=42`.',
    schema: { type: 'string' },
  },
  'RateLimit-Policy': {
    description: 'IETF draft: the policy, e.g. `"run";q=10;w=60`.',
    schema: { type: 'string' },
  },
  'X-Request-Id': { description: 'Id of this request, for support.', schema: { type: 'string' } },
}

function errors(...statuses: number[]): Json {
  const out: Json = {}
  for (const s of statuses) {
    const e = ERRORS[s]
    out[String(s)] = {
      description: `${e.description} Codes: ${e.codes.join(', ')}.`,
      content: json(ref('ErrorEnvelope')),
      ...(s === 429
        ? {
            headers: {
              'Retry-After': { description: 'Seconds to wait.', schema: { type: 'string' } },
              ...rateHeaders,
            },
          }
        : {}),
    }
  }
  return out
}

function ok(schemaId: string, description: string, status = '200', headers = true): Json {
  return {
    [status]: { description, content: json(ref(schemaId)), ...(headers ? { headers: rateHeaders } : {}) },
  }
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

export function buildOpenApi(): Json {
  const key = [{ apiKey: [] }]
  const admin = [{ adminToken: [] }]
  const run = {
    summary: 'Run and save a check',
    description:
      'Runs a live health check of a public http or https URL, saves the result and consumes 1 credit. Invalid or blocked URLs (400), failed checks (502) and requests without credits (402) cost nothing. Rate limit: 10 per minute per key, shared with the other run route.',
    security: key,
    requestBody: { required: true, content: json(ref('RunRequest')) },
    responses: {
      ...ok('RunResult', 'The check result; the check is saved and 1 credit consumed.'),
      ...errors(400, 401, 402, 429, 500, 502),
    },
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'sitehealth API',
      version: '1.0.0',
      description:
        'Website health checks: reachability, HTTPS and certificate, response time, security headers and performance, as signals, a health score, a risk level and a summary. Authenticated routes take `Authorization: Bearer <API key>`.',
    },
    servers: [{ url: '/', description: 'This deployment (the served document names its absolute origin).' }],
    tags: [
      { name: 'service', description: 'Health and metadata; no key needed.' },
      { name: 'checks', description: 'Run, list and read checks.' },
      { name: 'credits', description: 'The credit balance.' },
      { name: 'admin', description: 'Key issuance and credit grants for self-hosters (admin token).' },
    ],
    paths: {
      [PATHS.health]: {
        get: {
          tags: ['service'],
          operationId: 'getHealth',
          summary: 'Service health',
          security: [],
          responses: ok('Health', 'The service is up.', '200', false),
        },
      },
      [PATHS.meta]: {
        get: {
          tags: ['service'],
          operationId: 'getMeta',
          summary: 'Service metadata',
          security: [],
          responses: ok('Meta', 'What the service does.', '200', false),
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
              schema: { type: 'integer', enum: [10, 25, 50], default: 10 },
            },
            { name: 'cursor', in: 'query', required: false, schema: { type: 'string', format: 'date-time' } },
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
            { name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } },
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
          requestBody: { required: true, content: json(ref('KeyCreateRequest')) },
          responses: { ...ok('KeyCreated', 'The new key.', '201', false), ...errors(400, 401, 500) },
        },
        get: {
          tags: ['admin'],
          operationId: 'listKeys',
          summary: 'List API keys (never the secrets)',
          security: admin,
          responses: { ...ok('KeyList', 'All keys.', '200', false), ...errors(401, 500) },
        },
      },
      '/api/admin/v1/keys/{id}/revoke': {
        post: {
          tags: ['admin'],
          operationId: 'revokeKey',
          summary: 'Revoke an API key',
          security: admin,
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
          responses: { ...ok('KeyRevoked', 'Revoked.', '200', false), ...errors(401, 404, 500) },
        },
      },
      '/api/admin/v1/users/{user}/credits': {
        post: {
          tags: ['admin'],
          operationId: 'grantCredits',
          summary: 'Grant credits to a user',
          security: admin,
          parameters: [{ name: 'user', in: 'path', required: true, schema: { type: 'string' } }],
          requestBody: { required: true, content: json(ref('CreditGrantRequest')) },
          responses: {
            ...ok('CreditGrantResult', 'The new balance.', '200', false),
            ...errors(400, 401, 500),
          },
        },
      },
    },
    components: {
      schemas: components(),
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
