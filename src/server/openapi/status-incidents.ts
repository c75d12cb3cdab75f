/**
 * The OpenAPI paths of what status pages say (docs/status-pages.md): incidents with updates and the
 * owner's subscriber list (key routes), and the public feeds, aggregator JSON and subscription
 * routes, from the same contract schemas the routes validate with.
 */
import { INCIDENT_STATUSES, STATUS_INCIDENT_DAYS } from '../../contract/status-pages.js'
import type { StatusPageOpenApiHelpers } from './status-pages.js'

type Json = Record<string, any>

const uuidParam = (name: string) => ({
  name,
  in: 'path',
  required: true,
  schema: { type: 'string', format: 'uuid' },
})

export function statusIncidentPaths(h: StatusPageOpenApiHelpers): Json {
  const security = [{ apiKey: [] }]
  const tags = ['status pages']
  const params = [uuidParam('id'), uuidParam('incident')]
  const base = '/api/public/v1/status-pages/{id}/incidents'
  return {
    [base]: {
      post: {
        tags,
        operationId: 'createStatusIncident',
        summary: 'Post an incident on a status page',
        description: `An incident with its first update (\`status\` and \`message\`), its impact and the page's monitors it affects. \`status\`: ${INCIDENT_STATUSES.join(' → ')}; \`resolved\` resolves it. With \`draft: true\` only you see it until \`PATCH {draft: false}\`. Subscribers hear of it when it is public.`,
        security,
        parameters: [uuidParam('id')],
        requestBody: { required: true, content: h.body('StatusIncidentCreate') },
        responses: {
          ...h.ok('StatusIncident', 'The new incident.', '201'),
          ...h.errors(400, 401, 404, 429, 500),
        },
      },
      get: {
        tags,
        operationId: 'listStatusIncidents',
        summary: "A page's incidents, drafts included, newest first",
        security,
        parameters: [uuidParam('id')],
        responses: { ...h.ok('StatusIncidentList', 'The incidents.'), ...h.errors(400, 401, 404, 429, 500) },
      },
    },
    [`${base}/{incident}`]: {
      get: {
        tags,
        operationId: 'getStatusIncident',
        summary: 'One incident with its updates (newest first)',
        security,
        parameters: params,
        responses: { ...h.ok('StatusIncident', 'The incident.'), ...h.errors(400, 401, 404, 429, 500) },
      },
      patch: {
        tags,
        operationId: 'updateStatusIncident',
        summary: 'Change an incident, or publish a draft',
        description:
          'Any of title, status, impact, monitor_ids; `draft: false` publishes a draft (subscribers hear of it then). A message goes in an update instead.',
        security,
        parameters: params,
        requestBody: { required: true, content: h.body('StatusIncidentPatch') },
        responses: {
          ...h.ok('StatusIncident', 'The changed incident.'),
          ...h.errors(400, 401, 404, 429, 500),
        },
      },
      delete: {
        tags,
        operationId: 'deleteStatusIncident',
        summary: 'Delete an incident (a draft discarded, or a mistake)',
        security,
        parameters: params,
        responses: { ...h.noContent('Deleted.'), ...h.errors(400, 401, 404, 429, 500) },
      },
    },
    [`${base}/{incident}/updates`]: {
      post: {
        tags,
        operationId: 'addStatusIncidentUpdate',
        summary: 'Add a timestamped update to an incident',
        description: `Appends \`{status, message}\` with the time; \`resolved\` resolves the incident. The public page lists open incidents at the top and resolved ones for ${STATUS_INCIDENT_DAYS} days.`,
        security,
        parameters: params,
        requestBody: { required: true, content: h.body('StatusIncidentUpdateCreate') },
        responses: {
          ...h.ok('StatusIncident', 'The incident with the update.', '201'),
          ...h.errors(400, 401, 404, 429, 500),
        },
      },
    },
  }
}
