/**
 * The OpenAPI paths of maintenance windows (docs/decisions.md#monitoring-depth), from the same
 * contract schemas the routes validate with.
 */
import type { OpenApiHelpers } from './monitors.js'

type Json = Record<string, any>

export function maintenancePaths(h: OpenApiHelpers): Json {
  const key = [{ apiKey: [] }]
  const tags = ['maintenance']
  const id = { name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }
  const rules =
    'Inside a window, runs go on and are recorded (their state reads `maintenance`), but they change no monitor state, raise no alert and do not count in uptime; the monitors read `maintenance` and public status pages show the window. `timezone` must be an IANA name (`Europe/Berlin`, `UTC`); a weekly window keeps its local time across daylight-saving changes (a start in the skipped hour opens when the clocks have jumped; one in the doubled hour opens the first time). An unknown zone, `ends_at` not after `starts_at`, or a monitor that is not yours is a 400 naming the field; nothing is saved.'
  return {
    '/api/public/v1/maintenance-windows': {
      post: {
        tags,
        operationId: 'createMaintenanceWindow',
        summary: 'Create a maintenance window (one-off or weekly)',
        description: `A one-off window: \`starts_at\` and \`ends_at\`. A weekly one: \`weekly\` (days, local start, duration, time zone), optionally bounded by \`starts_at\`/\`ends_at\`. \`monitor_ids\`: your monitors, or \`"all"\` (also monitors created later). ${rules}`,
        security: key,
        requestBody: { required: true, content: h.body('MaintenanceCreate') },
        responses: {
          ...h.ok('MaintenanceWindow', 'The new window.', '201'),
          ...h.errors(400, 401, 429, 500),
        },
      },
      get: {
        tags,
        operationId: 'listMaintenanceWindows',
        summary: 'List your maintenance windows',
        security: key,
        responses: {
          ...h.ok('MaintenanceList', 'Every window of this user, oldest first.'),
          ...h.errors(401, 429, 500),
        },
      },
    },
    '/api/public/v1/maintenance-windows/{id}': {
      get: {
        tags,
        operationId: 'getMaintenanceWindow',
        summary: 'One maintenance window, with whether it is open now and its next opening',
        security: key,
        parameters: [id],
        responses: { ...h.ok('MaintenanceWindow', 'The window.'), ...h.errors(400, 401, 404, 429, 500) },
      },
      patch: {
        tags,
        operationId: 'updateMaintenanceWindow',
        summary: 'Change a maintenance window',
        description: `Any of name, monitor_ids, starts_at, ends_at, weekly (null removes a field); the result must still be a valid window. ${rules}`,
        security: key,
        parameters: [id],
        requestBody: { required: true, content: h.body('MaintenancePatch') },
        responses: {
          ...h.ok('MaintenanceWindow', 'The changed window.'),
          ...h.errors(400, 401, 404, 429, 500),
        },
      },
      delete: {
        tags,
        operationId: 'deleteMaintenanceWindow',
        summary: 'Delete a maintenance window',
        security: key,
        parameters: [id],
        responses: { ...h.noContent('Deleted.'), ...h.errors(400, 401, 404, 429, 500) },
      },
    },
  }
}

/** The push route of heartbeat monitors: no key, the token in the path is the credential. */
export function pushPaths(h: OpenApiHelpers): Json {
  const op = (method: 'get' | 'post') => ({
    tags: ['monitors'],
    operationId: method === 'get' ? 'pushHeartbeat' : 'pushHeartbeatPost',
    summary: `Record a heartbeat (${method.toUpperCase()})`,
    description:
      'The push URL of a heartbeat monitor, shown once in the response that created it. A call records a beat (the monitor is up); `status=down` records a failure with `msg` as its message. No key: the token is the credential. No check runs and no credit is charged. No beat for `interval_seconds` + `grace_seconds` and the monitor is down. Limited per client address and per monitor (429). An unknown token is 404.',
    security: [],
    parameters: [
      {
        name: 'token',
        in: 'path',
        required: true,
        schema: { type: 'string', pattern: '^hb_[0-9a-f]{32}[A-Za-z0-9_-]{24}$' },
      },
      { name: 'status', in: 'query', required: false, schema: { type: 'string', enum: ['up', 'down'] } },
      { name: 'msg', in: 'query', required: false, schema: { type: 'string', maxLength: 500 } },
    ],
    responses: { ...h.ok('PushResult', 'The beat was recorded.'), ...h.errors(400, 404, 429, 500) },
  })
  return { '/api/push/{token}': { get: op('get'), post: op('post') } }
}
