/**
 * The status-page incident tools (docs/status-pages.md): list a page's incidents, post one, add an
 * update (or publish a draft), resolve one. Through the shared typed client and the contract's
 * shapes, like every tool: the API's body as structuredContent, API failures as tool errors.
 * Posting and updating tell the page's subscribers (drafts excepted): none is idempotent.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { z } from 'zod'
import type { SitehealthClient } from '../client/client.js'
import {
  INCIDENT_STATUSES,
  StatusIncident,
  StatusIncidentCreate,
  StatusIncidentList,
  StatusIncidentUpdateCreate,
  type StatusIncident as Incident,
} from '../contract/status-pages.js'

export const STATUS_INCIDENT_TOOL_NAMES = [
  'service_list_status_incidents',
  'service_create_status_incident',
  'service_update_status_incident',
  'service_resolve_status_incident',
] as const

const PageId = z.uuid().meta({ description: 'The status page id (from service_list_status_pages).' })
const IncidentId = z.uuid().meta({ description: 'The incident id (from service_list_status_incidents).' })

const CreateInput = {
  status_page_id: PageId,
  title: StatusIncidentCreate.shape.title.meta({ description: 'What is wrong, in a few words.' }),
  message: StatusIncidentCreate.shape.message.meta({
    description: 'The first update: what you know so far.',
  }),
  status: StatusIncidentCreate.shape.status,
  impact: StatusIncidentCreate.shape.impact,
  monitor_ids: StatusIncidentCreate.shape.monitor_ids,
  draft: StatusIncidentCreate.shape.draft,
}

const UpdateInput = {
  status_page_id: PageId,
  incident_id: IncidentId,
  status: StatusIncidentUpdateCreate.shape.status.optional().meta({
    description: `Where it stands now (${INCIDENT_STATUSES.join(' → ')}); with message, an update is posted.`,
  }),
  message: StatusIncidentUpdateCreate.shape.message.optional().meta({ description: 'What changed.' }),
  publish: z.boolean().optional().meta({ description: 'true publishes a draft (subscribers hear of it).' }),
}

const ResolveInput = {
  status_page_id: PageId,
  incident_id: IncidentId,
  message: StatusIncidentUpdateCreate.shape.message.meta({ description: 'The last update: what fixed it.' }),
}

const WRITE = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false }

function line(i: Incident): string {
  return `"${i.title}" ${i.status}${i.draft ? ' (draft)' : ''}, ${i.impact} impact, ${i.updates.length} update(s) (id ${i.id})`
}

const answer = (text: string, body: object): CallToolResult => ({
  content: [{ type: 'text', text }],
  structuredContent: body as Record<string, unknown>,
})

export function registerStatusIncidentTools(
  server: McpServer,
  getClient: () => SitehealthClient,
  fail: (err: unknown) => CallToolResult,
): void {
  server.registerTool(
    'service_list_status_incidents',
    {
      title: "List a status page's incidents",
      description:
        'Lists the incidents posted on one of your status pages, newest first, drafts included, each with its ' +
        'updates (newest first). Free.',
      inputSchema: { status_page_id: PageId },
      outputSchema: StatusIncidentList.shape,
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    async ({ status_page_id }) => {
      try {
        const body = await getClient().listStatusIncidents(status_page_id)
        const list = body.incidents
        const text = list.length
          ? `${list.length} incident(s):\n${list.map((i) => `- ${line(i)}`).join('\n')}`
          : 'No incidents.'
        return answer(text, body)
      } catch (err) {
        return fail(err)
      }
    },
  )

  server.registerTool(
    'service_create_status_incident',
    {
      title: 'Post an incident on a status page',
      description:
        'Posts an incident on one of your public status pages with its first update: a title, a message, a ' +
        'status (default investigating), an impact (none, minor, major, critical; default minor) and the ' +
        "page's monitors it affects. It shows at the top of the page and its subscribers hear of it, unless " +
        'draft is true (then only you see it until published). Free.',
      inputSchema: CreateInput,
      outputSchema: StatusIncident.shape,
      annotations: WRITE,
    },
    async ({ status_page_id, ...body }) => {
      try {
        const i = await getClient().createStatusIncident(status_page_id, body)
        return answer(`Posted incident ${line(i)}.`, i)
      } catch (err) {
        return fail(err)
      }
    },
  )

  server.registerTool(
    'service_update_status_incident',
    {
      title: 'Post an update on a status-page incident',
      description:
        'Adds a timestamped update (status and message) to an incident of one of your status pages, and/or ' +
        'publishes a draft (publish: true). An update with status resolved resolves it. Subscribers hear of ' +
        'each update of a published incident. Free.',
      inputSchema: UpdateInput,
      outputSchema: StatusIncident.shape,
      annotations: WRITE,
    },
    async ({ status_page_id, incident_id, status, message, publish }) => {
      try {
        const client = getClient()
        let i: Incident | undefined
        if (publish) i = await client.updateStatusIncident(status_page_id, incident_id, { draft: false })
        if (status && message)
          i = await client.addStatusIncidentUpdate(status_page_id, incident_id, { status, message })
        else if (status || message)
          return {
            content: [{ type: 'text', text: 'invalid_url: give both status and message to post an update.' }],
            isError: true,
          }
        i ??= await client.getStatusIncident(status_page_id, incident_id)
        return answer(`Updated incident ${line(i)}.`, i)
      } catch (err) {
        return fail(err)
      }
    },
  )

  server.registerTool(
    'service_resolve_status_incident',
    {
      title: 'Resolve a status-page incident',
      description:
        'Resolves an incident of one of your status pages with a last update (status resolved and your ' +
        'message). It moves to the past incidents (shown 90 days); subscribers hear of it. Free.',
      inputSchema: ResolveInput,
      outputSchema: StatusIncident.shape,
      annotations: WRITE,
    },
    async ({ status_page_id, incident_id, message }) => {
      try {
        const i = await getClient().addStatusIncidentUpdate(status_page_id, incident_id, {
          status: 'resolved',
          message,
        })
        return answer(`Resolved incident ${line(i)}.`, i)
      } catch (err) {
        return fail(err)
      }
    },
  )
}
