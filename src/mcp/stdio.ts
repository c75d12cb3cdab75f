/**
 * The stdio transport: one client, with the key from --api-key, SITEHEALTH_API_KEY or the config
 * file. stdout carries the protocol only; diagnostics go to stderr. With no key the server still
 * starts (service_health works) and the key-needing tools answer with a tool error saying how to
 * set one.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { SitehealthClient } from '../client/client.js'
import { createMcpServer } from './tools.js'

export const STDIO_NO_KEY_HINT =
  'No API key configured for the sitehealth MCP server: set SITEHEALTH_API_KEY in the "env" of this ' +
  'server in your MCP client configuration (or start it with --api-key, or save a key with ' +
  '`sitehealth keys create --save`), then restart the server.'

export interface StdioOptions {
  apiUrl: string
  apiKey?: string
  version: string
  log?: (line: string) => void
}

/** Serves MCP on stdin/stdout until stdin ends or the returned close() is called. */
export async function runStdioServer(
  opts: StdioOptions,
): Promise<{ closed: Promise<void>; close: () => Promise<void> }> {
  const client = new SitehealthClient({ baseUrl: opts.apiUrl, apiKey: opts.apiKey })
  const server = createMcpServer(opts.version, () => client, { noKeyHint: STDIO_NO_KEY_HINT })
  const transport = new StdioServerTransport()
  let resolveClosed!: () => void
  const closed = new Promise<void>((r) => (resolveClosed = r))
  transport.onclose = () => resolveClosed()
  transport.onerror = (err) => opts.log?.(`stdio transport error: ${err.message}`)
  await server.connect(transport)
  let closing: Promise<void> | undefined
  const close = () => (closing ??= server.close().finally(resolveClosed))
  // The client closing our stdin is the normal way a stdio server is told to stop.
  process.stdin.once('end', () => void close())
  process.stdin.once('close', () => void close())
  return { closed, close }
}
