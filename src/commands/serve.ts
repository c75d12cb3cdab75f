import { Command, Flags } from '@oclif/core'
import { startServer } from '../server/serve.js'
import { DataDirLockedError } from '../store/index.js'

/** Batch access-log lines to stderr once per tick: one write per burst, not per request. */
function batchedLog(stream: NodeJS.WritableStream) {
  let buf: string[] = []
  return (line: string) => {
    if (buf.length === 0)
      setImmediate(() => {
        stream.write(buf.join(''))
        buf = []
      })
    buf.push(`${new Date().toISOString()} ${line}\n`)
  }
}

export default class Serve extends Command {
  static override summary = 'Run the sitehealth API server with embedded storage.'
  static override description = `Serves the whole public API (health, meta, run a check and its alias, credits, recent checks, one check), the admin API for key issuance, /openapi.json and /docs, with API keys, credits and rate limits, storing data as JSON files under --data-dir.

When ready it prints its base URL on stdout; access-log lines (method, path, status, milliseconds, request id) go to stderr. SIGINT/SIGTERM stop accepting connections, let running checks finish and flush storage.

The admin token is SITEHEALTH_ADMIN_TOKEN, else one generated at first start into <data-dir>/admin-token (mode 0600).`

  static override examples = [
    '<%= config.bin %> serve',
    '<%= config.bin %> serve --port 0 --data-dir ./data',
    '<%= config.bin %> serve --host 0.0.0.0 --public-url https://health.example.com --initial-credits 500',
    '<%= config.bin %> serve --allow-private-targets   # intranet self-hosting: allow checks of private addresses',
  ]

  static override flags = {
    host: Flags.string({ description: 'Address to bind.', default: '127.0.0.1' }),
    port: Flags.integer({
      description: 'Port to listen on; 0 picks a free port.',
      default: 8787,
      min: 0,
      max: 65535,
    }),
    'data-dir': Flags.string({
      description: 'Where the JSON files live (default: the oclif data dir).',
      env: 'SITEHEALTH_DATA_DIR',
    }),
    'public-url': Flags.string({
      description: 'Absolute base URL for the docs/openapi links in /meta (else the request origin).',
    }),
    'allow-private-targets': Flags.boolean({
      description: 'Allow checks of loopback and private addresses (intranet self-hosting, tests).',
      default: false,
    }),
    'initial-credits': Flags.integer({
      description: 'Credits a new user starts with.',
      default: 100,
      min: 0,
    }),
    'run-limit': Flags.integer({
      description: 'Run-check requests per key per window (both run routes together).',
      default: 10,
      min: 1,
    }),
    'run-window': Flags.integer({ description: 'Run-check window, seconds.', default: 60, min: 1 }),
    'rate-limit': Flags.integer({
      description: 'Other authenticated requests per key per window.',
      default: 120,
      min: 1,
    }),
    'rate-window': Flags.integer({ description: 'Window for other requests, seconds.', default: 60, min: 1 }),
    'check-timeout': Flags.integer({
      description: 'Budget for one whole check, seconds.',
      default: 15,
      min: 1,
      max: 120,
    }),
    quiet: Flags.boolean({ description: 'No access log.', default: false }),
  }

  async run(): Promise<void> {
    const { flags } = await this.parse(Serve)
    const dataDir = flags['data-dir'] ?? this.config.dataDir
    const log = flags.quiet ? undefined : batchedLog(process.stderr)
    let server
    try {
      server = await startServer({
        host: flags.host,
        port: flags.port,
        dataDir,
        publicUrl: flags['public-url'],
        allowPrivateTargets: flags['allow-private-targets'],
        initialCredits: flags['initial-credits'],
        limits: {
          runLimit: flags['run-limit'],
          runWindowSec: flags['run-window'],
          apiLimit: flags['rate-limit'],
          apiWindowSec: flags['rate-window'],
        },
        checkTimeoutMs: flags['check-timeout'] * 1000,
        adminToken: process.env.SITEHEALTH_ADMIN_TOKEN || undefined,
        log,
      })
    } catch (err) {
      if (err instanceof DataDirLockedError) this.error(err.message, { exit: 1 })
      const e = err as NodeJS.ErrnoException
      if (e.code === 'EADDRINUSE')
        this.error(`Port ${flags.port} is already in use: pick another with --port.`, { exit: 1 })
      if (e.code === 'EACCES') this.error(`No permission for ${e.path ?? dataDir}: ${e.message}`, { exit: 1 })
      throw err
    }
    process.stdout.write(`${server.url}\n`)
    process.stderr.write(
      `sitehealth API on ${server.url} (docs ${server.url}/docs) - data in ${dataDir}` +
        (server.adminTokenFile ? `, admin token in ${server.adminTokenFile}` : '') +
        (flags['allow-private-targets'] ? ' - private targets ALLOWED' : '') +
        '\n',
    )
    await new Promise<void>((resolve) => {
      const stop = (signal: string) => {
        process.stderr.write(`${signal}: stopping; letting running checks finish...\n`)
        server.close().then(resolve, (err) => {
          process.stderr.write(`error while stopping: ${(err as Error).message}\n`)
          process.exitCode = 1
          resolve()
        })
      }
      process.once('SIGINT', () => stop('SIGINT'))
      process.once('SIGTERM', () => stop('SIGTERM'))
    })
  }
}
