/**
 * The OpenAPI paths of the monitor routes (docs/decisions.md#monitors-and-alerts), from the same contract schemas the
 * routes validate with (src/contract/monitors.ts registers them by id).
 */
import '../../contract/monitors.js'
import { MAX_TAGS, TAG_PATTERN } from '../../contract/tags.js'

type Json = Record<string, any>

export interface OpenApiHelpers {
  ok: (schemaId: string, description: string, status?: string, headers?: boolean) => Json
  errors: (...statuses: number[]) => Json
  json: (schema: Json) => Json
  ref: (id: string) => Json
  /** A JSON body of a contract schema, with its example. */
  body: (schemaId: string) => Json
  /** A 204 with the key routes' headers. */
  noContent: (description: string) => Json
}

export function monitorPaths(h: OpenApiHelpers): Json {
  const key = [{ apiKey: [] }]
  const tags = ['monitors']
  const id = { name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }
  const paging = [
    {
      name: 'limit',
      in: 'query',
      required: false,
      schema: { type: 'integer', enum: [10, 25, 50], default: 10 },
    },
    {
      name: 'cursor',
      in: 'query',
      required: false,
      description: 'The `next_cursor` of the previous page.',
      schema: { type: 'string', format: 'uuid' },
    },
  ]
  return {
    '/api/public/v1/monitors': {
      post: {
        tags,
        operationId: 'createMonitor',
        summary: 'Create a monitor',
        description:
          'Watches a URL on a schedule: every run is a saved check charged 1 credit. A webhook channel created here carries its signing `secret` in this response only. Refused with 409 `conflict` when the account has as many monitors as it may have (serve --max-monitors-per-account, 1000 by default), and 429 `rate_limited` past the monitors it may create a minute (serve --monitor-create-rate, 60 by default); nothing is created either way.',
        security: key,
        requestBody: { required: true, content: h.body('MonitorCreate') },
        responses: { ...h.ok('Monitor', 'The new monitor.', '201'), ...h.errors(400, 401, 409, 429, 500) },
      },
      get: {
        tags,
        operationId: 'listMonitors',
        summary: 'List monitors, newest first',
        security: key,
        parameters: [
          ...paging,
          {
            name: 'tag',
            in: 'query',
            required: false,
            description:
              'Only monitors with this tag: `env:prod` matches that tag, a bare `env` matches `env` and `env:<any value>`. Repeat it to narrow (every one must match).',
            schema: { type: 'array', items: { type: 'string', pattern: TAG_PATTERN }, maxItems: MAX_TAGS },
            style: 'form',
            explode: true,
            example: ['env:prod'],
          },
        ],
        responses: { ...h.ok('MonitorList', 'One page of monitors.'), ...h.errors(400, 401, 429, 500) },
      },
    },
    '/api/public/v1/monitors/{id}': {
      get: {
        tags,
        operationId: 'getMonitor',
        summary: 'One monitor',
        security: key,
        parameters: [id],
        responses: { ...h.ok('Monitor', 'The monitor.'), ...h.errors(400, 401, 404, 429, 500) },
      },
      patch: {
        tags,
        operationId: 'updateMonitor',
        summary: 'Change, pause or resume a monitor',
        security: key,
        parameters: [id],
        requestBody: { required: true, content: h.body('MonitorPatch') },
        responses: { ...h.ok('Monitor', 'The changed monitor.'), ...h.errors(400, 401, 404, 409, 429, 500) },
      },
      delete: {
        tags,
        operationId: 'deleteMonitor',
        summary: 'Delete a monitor with its runs and events (its saved checks stay)',
        security: key,
        parameters: [id],
        responses: { ...h.noContent('Deleted.'), ...h.errors(400, 401, 404, 429, 500) },
      },
    },
    '/api/public/v1/monitors/{id}/run': {
      post: {
        tags,
        operationId: 'runMonitor',
        summary: 'Run a monitor now',
        description:
          'Runs the monitor now and counts against the run limit; the run joins the monitor history and may raise alerts. An http monitor saves a check of its URL, charged 1 credit, and answers with the check result (502 `check_failed` when the site could not be checked). A monitor of a type that keeps no check (tcp, tls) answers with its run (`MonitorRun`): `outcome` `ok` is charged 1 credit, `failed` nothing.',
        security: key,
        parameters: [id],
        responses: {
          ...runAnswer(h.ok('RunResult', 'The check result; the check is saved and 1 credit consumed.'), h),
          ...h.errors(400, 401, 402, 404, 429, 500, 502),
        },
      },
    },
    '/api/public/v1/monitors/{id}/runs': {
      get: {
        tags,
        operationId: 'listMonitorRuns',
        summary: 'Runs of a monitor, newest first (saved and failed)',
        security: key,
        parameters: [id, ...paging],
        responses: { ...h.ok('MonitorRuns', 'One page of runs.'), ...h.errors(400, 401, 404, 429, 500) },
      },
    },
    '/api/public/v1/monitors/{id}/uptime': { get: uptimeOperation(h, id) },
    '/api/public/v1/monitors/{id}/events': {
      get: {
        tags,
        operationId: 'listMonitorEvents',
        summary: 'Alerts a monitor raised, newest first, with their deliveries',
        security: key,
        parameters: [id, ...paging],
        responses: { ...h.ok('MonitorEvents', 'One page of events.'), ...h.errors(400, 401, 404, 429, 500) },
      },
    },
  }
}

/** GET /monitors/{id}/uptime: the window, its buckets and what they add up to. */
function uptimeOperation(h: OpenApiHelpers, id: Json): Json {
  const key = [{ apiKey: [] }]
  const tags = ['monitors']
  return {
    tags,
    operationId: 'getMonitorUptime',
    summary: 'Uptime of a monitor over a window, with hourly or daily buckets',
    description:
      "From the rollups written as runs finish: hourly buckets are kept 31 days, daily buckets 400 days, so any window up to 400 days answers (`granularity=hour` within the last 31 days). `from` moves back to the start of its bucket and is reported so; the figures are the sums of the buckets in the window. `response_time_ms` percentiles are taken over the buckets' average response times, weighted by their runs. Free: costs no credits.",
    security: key,
    parameters: [
      id,
      {
        name: 'from',
        in: 'query',
        required: false,
        description: 'Start of the window, ISO 8601 (default: 30 days before `to`).',
        schema: { type: 'string', format: 'date-time' },
        example: '2026-11-24T00:00:00Z',
      },
      {
        name: 'to',
        in: 'query',
        required: false,
        description: 'End of the window, ISO 8601 (default: now).',
        schema: { type: 'string', format: 'date-time' },
        example: '2026-11-25T00:00:00Z',
      },
      {
        name: 'granularity',
        in: 'query',
        required: false,
        description: 'Bucket size: `hour` (within the last 31 days) or `day`.',
        schema: { type: 'string', enum: ['hour', 'day'], default: 'day' },
      },
    ],
    responses: {
      ...h.ok('UptimeReport', 'Uptime, runs, downtime and response times over the window.'),
      ...h.errors(400, 401, 404, 429, 500),
    },
  }
}

/** The run route's 200: an http monitor's check result, or the run of a type that keeps no check. */
function runAnswer(checkResult: Json, h: OpenApiHelpers): Json {
  const ok = checkResult['200'] as Json
  return {
    '200': {
      ...ok,
      description:
        'http monitors: the check result (the check is saved and 1 credit consumed). tcp and tls monitors: the run, ok (1 credit) or failed (nothing charged).',
      content: {
        'application/json': {
          schema: h.ref('MonitorRunAnswer'),
          examples: {
            check: { value: (ok.content as Json)['application/json']?.example },
            tls: {
              value: {
                id: '0193a5c4-8f2e-7b1a-9c3d-aa0000000003',
                started_at: '2026-11-23T09:14:07.402Z',
                outcome: 'ok',
                trigger: 'manual',
                check_id: null,
                health_score: null,
                response_time_ms: 48,
                state: 'up',
                error: null,
                assertions: [],
                details: {
                  days_left: 62,
                  issuer: 'R11',
                  protocol: 'TLSv1.3',
                  valid_to: '2027-01-24T08:00:00.000Z',
                },
              },
            },
          },
        },
      },
    },
  }
}
