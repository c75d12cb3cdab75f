import { Command, Flags } from '@oclif/core'
import { resolveClientSettings } from '../client/config.js'
import { DEFAULT_API_URL, DEFAULT_MCP_PORT } from '../contract/routes.js'
import { startHttpServer } from '../mcp/http.js'
import { runStdioServer } from '../mcp/stdio.js'
import { MCP_SERVER_NAME } from '../mcp/tools.js'

export default class Mcp extends Command {
  static override summary = 'Run the sitehealth MCP tool server (stdio, or Streamable HTTP on 127.0.0.1).'
  static override description = `Exposes five tools to AI agents: service_health, service_get_credits, service_run_website_check (1 credit per successful check), service_get_check_result and service_get_recent_checks. It is a client of the sitehealth API (--api-url, SITEHEALTH_API_URL, the config file, else ${DEFAULT_API_URL}).

stdio (default): the MCP client starts this command; the API key comes from --api-key, SITEHEALTH_API_KEY or the config file. stdout carries the protocol only; logs go to stderr. Without a key the server still starts: service_health works and the other tools answer with an error saying how to set a key.

--transport http: Streamable HTTP on http://127.0.0.1:PORT/mcp (loopback only), printed on stderr when ready. Each request to /mcp needs "Authorization: Bearer <sitehealth API key>"; that key is checked against the API and used for that session's calls (a key in the environment or config file is NOT used in this mode). GET /health needs no key. Requests whose Host or Origin is not 127.0.0.1/localhost are refused (DNS-rebinding protection).`

  static override examples = [
    '<%= config.bin %> mcp',
    'SITEHEALTH_API_KEY=shk_live_... <%= config.bin %> mcp --api-url https://health.example.com',
    '<%= config.bin %> mcp --transport http --port 8788',
  ]

  static override flags = {
    transport: Flags.string({
      description: 'stdio: speak MCP on stdin/stdout; http: serve Streamable HTTP on 127.0.0.1.',
      options: ['stdio', 'http'],
      default: 'stdio',
    }),
    port: Flags.integer({
      description: 'Port for --transport http (bound to 127.0.0.1 only); 0 picks a free port.',
      default: DEFAULT_MCP_PORT,
      min: 0,
      max: 65535,
    }),
    'api-url': Flags.string({
      description: 'Base URL of the sitehealth API (else SITEHEALTH_API_URL, config file).',
    }),
    'api-key': Flags.string({
      description:
        'API key for stdio mode (else SITEHEALTH_API_KEY, config file). Ignored with --transport http.',
    }),
  }

  async run(): Promise<void> {
    const { flags } = await this.parse(Mcp)
    const settings = await resolveClientSettings(this.config.configDir, {
      apiUrl: flags['api-url'],
      apiKey: flags['api-key'],
    })
    const log = (line: string) => process.stderr.write(`${MCP_SERVER_NAME}: ${line}\n`)
    const version = this.config.version

    if (flags.transport === 'http') {
      let server
      try {
        server = await startHttpServer({ apiUrl: settings.apiUrl, port: flags.port, version, log })
      } catch (err) {
        const e = err as NodeJS.ErrnoException
        if (e.code === 'EADDRINUSE')
          this.error(`Port ${flags.port} is already in use: pick another with --port.`, { exit: 1 })
        throw err
      }
      log(`listening on ${server.url} (API ${settings.apiUrl}); GET /health needs no key`)
      await untilSignal(() => server.close(), log)
      return
    }

    // stdio: nothing but protocol on stdout.
    const { closed, close } = await runStdioServer({
      apiUrl: settings.apiUrl,
      apiKey: settings.apiKey,
      version,
      log,
    })
    log(
      `stdio server ready (API ${settings.apiUrl}; ` +
        (settings.apiKey
          ? `key from ${settings.apiKeySource})`
          : 'no API key: only service_health will work)'),
    )
    process.once('SIGINT', () => void close())
    process.once('SIGTERM', () => void close())
    await closed
  }
}

function untilSignal(close: () => Promise<void>, log: (line: string) => void): Promise<void> {
  return new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      log(`${signal}: stopping`)
      close().then(resolve, (err: unknown) => {
        log(`error while stopping: ${(err as Error).message}`)
        process.exitCode = 1
        resolve()
      })
    }
    process.once('SIGINT', () => stop('SIGINT'))
    process.once('SIGTERM', () => stop('SIGTERM'))
  })
}
