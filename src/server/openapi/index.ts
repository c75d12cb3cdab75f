/**
 * /openapi.json, generated from the same zod declarations the routes validate and serialise with
 * (src/contract), so the document cannot drift from the code. OpenAPI 3.1 uses JSON Schema
 * 2020-12, which is what zod emits.
 */
import { z } from 'zod'
import { ERROR_EXAMPLES } from '../../contract/examples.js'
import * as contract from '../../contract/schemas.js'
import { MAX_BODY_BYTES } from '../../contract/routes.js'
import '../../contract/accounts.js'
import { adminPaths } from './admin.js'
import { checkPaths } from './checks.js'
import { servicePaths } from './service.js'
import { accountPaths } from './accounts.js'
import { monitorPaths } from './monitors.js'
import { statusPagePaths } from './status-pages.js'
import { statusIncidentPaths } from './status-incidents.js'
import { statusSubscriberPaths } from './status-subscribers.js'
import { maintenancePaths, pushPaths } from './maintenance.js'
import '../../contract/status-pages.js'
import {
  type DocLimits,
  type Json,
  ref,
  json,
  body,
  HEADERS,
  headersFor,
  errors,
  errorsOf,
  ok,
  noContent,
} from './helpers.js'

export type { DocLimits }

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
      ...servicePaths(),
      ...checkPaths(limits),
      ...adminPaths(),
      ...accountPaths({ ok, errors, body }),
      ...monitorPaths({ ok, errors, json, ref, body, noContent }),
      ...maintenancePaths({ ok, errors, json, ref, body, noContent }),
      ...pushPaths({ ok, errors, json, ref, body, noContent }),
      ...statusPagePaths({
        ok,
        errors,
        json,
        ref,
        body,
        noContent,
        openErrors: (...s: number[]) => errorsOf('none', ...s),
      }),
      ...statusIncidentPaths({
        ok,
        errors,
        json,
        ref,
        body,
        noContent,
        openErrors: (...s: number[]) => errorsOf('none', ...s),
      }),
      ...statusSubscriberPaths({
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
