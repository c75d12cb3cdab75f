/**
 * An MCP client over stdio against a real `serve`: the built CLI's `mcp` command with a fresh key
 * of its own user and a throwaway HOME, as an agent would run it.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { CLI, startServe, type Served } from './serve.js'

export interface McpSession {
  served: Served
  key: string
  client: Client
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>
  close(): Promise<void>
}

/** The text parts of a tool result, joined. */
export const toolText = (r: CallToolResult) =>
  r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n')

export async function startMcpSession(o: { serveArgs: string[]; user: string }): Promise<McpSession> {
  const served = await startServe({ args: o.serveArgs })
  const home = await mkdtemp(join(tmpdir(), `sitehealth-${o.user}-home-`))
  const key = (await served.createKey({ user: o.user, credits: 0 })).key
  const client = new Client({ name: 'test', version: '1.0.0' })
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp'],
      env: { PATH: process.env.PATH!, HOME: home, SITEHEALTH_API_URL: served.url, SITEHEALTH_API_KEY: key },
      stderr: 'ignore',
    }),
  )
  return {
    served,
    key,
    client,
    call: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult,
    async close() {
      await client.close()
      await served.stop()
      await rm(home, { recursive: true, force: true })
    },
  }
}
