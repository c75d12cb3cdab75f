/**
 * The OpenAPI paths of status pages (docs/decisions.md#the-public-face): the key-authenticated API and the public
 * pages and badges, from the same contract schemas the routes validate with.
 */
import { BADGE_KINDS, BADGE_WINDOWS, RESERVED_SLUGS } from '../../contract/status-pages.js'
import type { OpenApiHelpers } from './monitors.js'

type Json = Record<string, any>

export interface StatusPageOpenApiHelpers extends OpenApiHelpers {
  /** Error responses of a route without a key (no rate-limit headers). */
  openErrors: (...statuses: number[]) => Json
}

const REQUEST_ID = { $ref: '#/components/headers/X-Request-Id' }
const ETAG = {
  description: 'A strong validator of the body; send it back in If-None-Match.',
  schema: { type: 'string' },
}

const SLUG = {
  name: 'slug',
  in: 'path',
  required: true,
  description: 'The page slug; with `.json` appended, the page as JSON.',
  schema: { type: 'string', pattern: '^[a-z0-9][a-z0-9-]{1,62}(\\.json)?$' },
  example: 'acme',
}
const NOT_MODIFIED = {
  '304': {
    description: 'Not modified: the If-None-Match ETag is current (no body).',
    headers: { 'X-Request-Id': REQUEST_ID, ETag: ETAG },
  },
}

export function statusPagePaths(h: StatusPageOpenApiHelpers): Json {
  const key = [{ apiKey: [] }]
  const tags = ['status pages']
  const id = { name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }
  const slugRules = `The slug is unique on the server (409 \`conflict\` when another page has it, also for the reserved words ${RESERVED_SLUGS.map((s) => `\`${s}\``).join(', ')}); a slug that does not match the pattern is 400 naming the field. \`monitor_ids\` must be your own monitors.`
  return {
    '/api/public/v1/status-pages': {
      post: {
        tags,
        operationId: 'createStatusPage',
        summary: 'Create a public status page',
        description: `A public page at \`/status/{slug}\` showing the given monitors: their state, 90 days of daily uptime, maintenance and the incidents of the last 30 days. It never shows a monitor URL unless \`show_urls\` is true. ${slugRules}`,
        security: key,
        requestBody: { required: true, content: h.body('StatusPageCreate') },
        responses: { ...h.ok('StatusPage', 'The new page.', '201'), ...h.errors(400, 401, 409, 429, 500) },
      },
      get: {
        tags,
        operationId: 'listStatusPages',
        summary: 'List your status pages',
        security: key,
        responses: { ...h.ok('StatusPageList', 'Every page of this user.'), ...h.errors(401, 429, 500) },
      },
    },
    '/api/public/v1/status-pages/{id}': {
      get: {
        tags,
        operationId: 'getStatusPage',
        summary: 'One status page',
        security: key,
        parameters: [id],
        responses: { ...h.ok('StatusPage', 'The page.'), ...h.errors(400, 401, 404, 429, 500) },
      },
      patch: {
        tags,
        operationId: 'updateStatusPage',
        summary: 'Change a status page',
        description: `Any of slug, title, description, monitor_ids (replaces the list), show_urls. ${slugRules}`,
        security: key,
        parameters: [id],
        requestBody: { required: true, content: h.body('StatusPagePatch') },
        responses: { ...h.ok('StatusPage', 'The changed page.'), ...h.errors(400, 401, 404, 409, 429, 500) },
      },
      delete: {
        tags,
        operationId: 'deleteStatusPage',
        summary: 'Delete a status page (its monitors stay)',
        security: key,
        parameters: [id],
        responses: { ...h.noContent('Deleted.'), ...h.errors(400, 401, 404, 429, 500) },
      },
    },
    ...publicStatusPaths(h),
  }
}

/** The public pages and badges: no key, cached by ETag. */
function publicStatusPaths(h: StatusPageOpenApiHelpers): Json {
  const tags = ['status pages']
  return {
    '/status/{slug}': {
      get: {
        tags,
        operationId: 'getPublicStatusPage',
        summary: 'The public status page (HTML, or JSON with `.json`)',
        description:
          'No key needed. Server-rendered HTML without JavaScript, or the same view as JSON when the slug ends in `.json`. `Cache-Control: public, max-age=30` and an `ETag`; `If-None-Match` with a current ETag gets 304. An unknown slug is a plain 404 page (the JSON form: the error envelope).',
        security: [],
        parameters: [
          SLUG,
          { name: 'If-None-Match', in: 'header', required: false, schema: { type: 'string' } },
        ],
        responses: {
          '200': {
            description: 'The page.',
            headers: {
              'X-Request-Id': REQUEST_ID,
              ETag: ETAG,
              'Cache-Control': { schema: { type: 'string', const: 'public, max-age=30' } },
            },
            content: {
              'text/html': { schema: { type: 'string' } },
              ...h.body('PublicStatusPage'),
            },
          },
          ...NOT_MODIFIED,
          ...h.openErrors(404),
        },
      },
    },
    '/status/{slug}/badges/{monitor_id}/{badge}': {
      get: {
        tags,
        operationId: 'getStatusBadge',
        summary: 'A README badge for a monitor on a status page',
        description: `An SVG in the shields.io look (badge-maker) with a \`<title>\` for screen readers: \`status.svg\` (the monitor's state), \`uptime.svg\` (\`?window=\` ${BADGE_WINDOWS.join(', ')}; default 30d) or \`score.svg\` (the latest health score). \`Cache-Control: max-age=60\`. A monitor that is not on the page is 404.`,
        security: [],
        parameters: [
          { ...SLUG, schema: { type: 'string', pattern: '^[a-z0-9][a-z0-9-]{1,62}$' } },
          { name: 'monitor_id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } },
          {
            name: 'badge',
            in: 'path',
            required: true,
            schema: { type: 'string', enum: BADGE_KINDS.map((k) => `${k}.svg`) },
          },
          {
            name: 'window',
            in: 'query',
            required: false,
            schema: { type: 'string', enum: [...BADGE_WINDOWS] },
          },
        ],
        responses: {
          '200': {
            description: 'The badge.',
            headers: { 'X-Request-Id': REQUEST_ID, ETag: ETAG },
            content: { 'image/svg+xml': { schema: { type: 'string' } } },
          },
          ...NOT_MODIFIED,
          ...h.openErrors(400, 404),
        },
      },
    },
  }
}
