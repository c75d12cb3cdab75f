/**
 * The OpenAPI paths of status-page subscribers (docs/status-pages.md): the public subscription route
 * and the owner's list and removal (key routes), from the contract schemas the routes use. The
 * links a subscriber follows (`…/subscribers/confirm`, `…/unsubscribe`) answer HTML pages and are
 * described in the docs, not here.
 */
import type { StatusPageOpenApiHelpers } from './status-pages.js'

type Json = Record<string, any>

const uuidParam = (name: string) => ({
  name,
  in: 'path',
  required: true,
  schema: { type: 'string', format: 'uuid' },
})

export function statusSubscriberPaths(h: StatusPageOpenApiHelpers): Json {
  const security = [{ apiKey: [] }]
  const tags = ['status pages']
  const base = '/api/public/v1/status-pages/{id}/subscribers'
  return {
    '/status/{slug}/subscribers': {
      post: {
        tags,
        operationId: 'subscribeToStatusPage',
        summary: 'Subscribe to a status page (public, no key)',
        description:
          "An email address gets a confirmation mail whose signed link (valid 7 days) subscribes it; nothing else is sent before. The answer is the same whether or not the address is subscribed. A webhook URL is subscribed at once and gets its signing secret (shown once). Throttled per client, per page and per address (past the address limit no mail goes, and the answer does not change). The page's HTML forms post here too (form-encoded) and get an HTML page.",
        security: [],
        parameters: [{ name: 'slug', in: 'path', required: true, schema: { type: 'string' } }],
        requestBody: { required: true, content: h.body('StatusSubscribeRequest') },
        responses: {
          ...h.ok('StatusSubscribeAccepted', 'A webhook subscribed (with its secret).', '201', false),
          ...h.ok(
            'StatusSubscribeAccepted',
            'An email subscription started: a confirmation mail goes out.',
            '202',
          ),
          ...h.openErrors(400, 404, 429, 500),
        },
      },
    },
    [base]: {
      get: {
        tags,
        operationId: 'listStatusSubscribers',
        summary: "List a status page's subscribers and their count",
        description: 'Confirmed email addresses and webhooks (their URLs masked), oldest first.',
        security,
        parameters: [uuidParam('id')],
        responses: {
          ...h.ok('StatusSubscriberList', 'The subscribers.'),
          ...h.errors(400, 401, 404, 429, 500),
        },
      },
    },
    [`${base}/{subscriber}`]: {
      delete: {
        tags,
        operationId: 'deleteStatusSubscriber',
        summary: 'Remove a subscriber',
        security,
        parameters: [uuidParam('id'), uuidParam('subscriber')],
        responses: { ...h.noContent('Removed.'), ...h.errors(400, 401, 404, 429, 500) },
      },
    },
  }
}
