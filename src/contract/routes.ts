/** The API's paths, named once for the server, the client, the OpenAPI document and the tests. */
export const PATHS = {
  health: '/api/public/v1/health',
  ready: '/api/public/v1/ready',
  meta: '/api/public/v1/meta',
  run: '/api/public/v1/checks/run',
  runAlias: '/api/v1/check',
  runBatch: '/api/public/v1/checks/run-batch',
  credits: '/api/public/v1/credits',
  recent: '/api/public/v1/checks/recent',
  check: '/api/public/v1/checks/:id',
  adminKeys: '/api/admin/v1/keys',
  adminRevoke: '/api/admin/v1/keys/:id/revoke',
  adminCredits: '/api/admin/v1/users/:user/credits',
  openapi: '/openapi.json',
  docs: '/docs',
  /** The JSON Schema of `sitehealth.yaml`, for editors (`pull` points its modeline here). */
  fileSchema: '/schema/sitehealth.schema.json',
} as const

/** Fill `:name` placeholders of a path, encoding each value. */
export function pathFor(template: string, params: Record<string, string> = {}): string {
  return template.replace(/:([a-z]+)/g, (_, name: string) => encodeURIComponent(params[name] ?? ''))
}

export const DEFAULT_API_URL = 'http://127.0.0.1:8787'
export const DEFAULT_MCP_PORT = 8788
export const MAX_BODY_BYTES = 16 * 1024
/** Checks in one run-batch request, and the body that may carry them (each URL up to MAX_URL_LENGTH). */
export const MAX_BATCH_CHECKS = 100
export const MAX_BATCH_BODY_BYTES = 512 * 1024
export const MAX_URL_LENGTH = 2048
