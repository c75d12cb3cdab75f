/** /openapi.json, the service area: health, readiness and metadata (no key needed). */
import { PATHS } from '../../contract/routes.js'
import { type Json, body, errorsOf, headersFor, ok } from './helpers.js'

export function servicePaths(): Json {
  return {
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
  }
}
