/**
 * The status-page tool of docs/decisions.md#the-public-face: list the user's public status pages (free, read-only),
 * so an agent can hand a client the page's address or a badge. Same conventions as tools.ts.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import type { SitehealthClient } from '../client/client.js'
import { StatusPageList } from '../contract/status-pages.js'

export const STATUS_PAGE_TOOL_NAMES = ['service_list_status_pages'] as const

export function registerStatusPageTools(
  server: McpServer,
  getClient: () => SitehealthClient,
  fail: (err: unknown) => CallToolResult,
): void {
  server.registerTool(
    'service_list_status_pages',
    {
      title: 'List public status pages',
      description:
        "Lists the public status pages of this API key's user: each page's title, public URL (readable by " +
        'anyone without a key; add .json for machine-readable status), the monitors it shows and whether it ' +
        'shows their URLs. Free: costs no credits. A README badge of a monitor on a page is ' +
        '<public_url>/badges/<monitor_id>/status.svg (also uptime.svg?window=24h|7d|30d and score.svg).',
      inputSchema: {},
      outputSchema: StatusPageList.shape,
      annotations: {
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
        title: 'Status pages',
      },
    },
    async () => {
      try {
        const body = await getClient().listStatusPages()
        const lines = body.status_pages.map(
          (p) => `- ${p.title}: ${p.public_url} (${p.monitor_ids.length} monitor(s), id ${p.id})`,
        )
        const text =
          body.status_pages.length === 0
            ? 'No status pages.'
            : `${body.status_pages.length} status page(s):\n${lines.join('\n')}`
        return { content: [{ type: 'text', text }], structuredContent: body as Record<string, unknown> }
      } catch (err) {
        return fail(err)
      }
    },
  )
}
