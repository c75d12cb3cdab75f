import { Command, Flags } from '@oclif/core'
import { StartupError, startServer } from '../serve/index.js'
import { DataDirLockedError, DatabaseError } from '../store/index.js'
import { redactUrl } from '../store/postgres/url.js'
import { SIGNUP_POLICIES } from '../accounts/index.js'
import { currentInvocation } from '../cli/invocation.js'

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

/**
 * What a new user does next (printed at start-up): make their account, sign this CLI in as that
 * account (so the CLI and the dashboard share one identity), then a first check, named the way
 * this user can run the CLI and, with private targets allowed, one that needs no internet.
 */
export function nextSteps(o: {
  run: string
  url: string
  /** --api-url to add: the server is not at the default URL. */
  apiUrl?: string
  dataDir?: string
  envToken: boolean
  allowPrivate: boolean
}): string {
  const admin = [
    o.apiUrl ? ` --api-url ${o.apiUrl}` : '',
    o.dataDir && !o.envToken ? ` --data-dir ${o.dataDir}` : '',
    o.envToken ? ' --admin-token "$SITEHEALTH_ADMIN_TOKEN"' : '',
  ].join('')
  const check = o.allowPrivate
    ? `A first check, 1 credit (this server itself: no internet needed):\n     ${o.run} check ${o.url}/api/public/v1/health`
    : `A first check, 1 credit (needs internet; local sites need serve --allow-private-targets):\n     ${o.run} check https://example.com`
  return [
    `Dashboard: ${o.url}/`,
    'Next, in another terminal:',
    `  1. Your account: open the link this prints and set a password.\n     ${o.run} users create --email you@example.com --admin${admin}`,
    `  2. Sign this CLI in as you (approve it in the dashboard), so both share one account:\n     ${o.run} login${o.apiUrl ? ` --api-url ${o.apiUrl}` : ''}`,
    `  3. ${check}`,
    '',
  ].join('\n')
}

export default class Serve extends Command {
  static override summary = 'Run the sitehealth API server with embedded storage.'
  static override description = `Serves the whole public API (health, meta, run a check and its alias, credits, recent checks, one check), the admin API for key issuance, /openapi.json and /docs, with API keys, credits and rate limits, storing data as JSON files under --data-dir.

When ready it prints its base URL on stdout; access-log lines (method, path, status, milliseconds, request id) go to stderr. SIGINT/SIGTERM stop accepting connections, let running checks finish and flush storage.

The admin token is SITEHEALTH_ADMIN_TOKEN, else one generated at first start into <data-dir>/admin-token (mode 0600); either must be at least 32 characters (generate one with: openssl rand -base64 32).

Capacity: at most --max-concurrent-checks checks run at once (and --max-concurrent-checks-per-user per user); a run past that waits briefly, then gets 503 with Retry-After. One key may cause at most --failure-limit free failed checks per --failure-window. Inbound connections are capped by --max-connections.

With --database-url (or SITEHEALTH_DATABASE_URL) a postgres:// URL, data lives in PostgreSQL instead and any number of instances may share it behind a load balancer; pending schema migrations are applied at start, and SITEHEALTH_ADMIN_TOKEN is required (the same on every instance). TLS to the database follows the URL's sslmode.

Faults: every wait on PostgreSQL and Redis is bounded (--db-query-timeout, --db-acquire-timeout, --redis-timeout); a request that hits a dependency that is down or silent, or a full disk, gets 503 service_unavailable with Retry-After, and monitoring keeps going once it is back (docs/operations.md).`

  static override examples = [
    '<%= config.bin %> serve',
    '<%= config.bin %> serve --port 0 --data-dir ./data',
    '<%= config.bin %> serve --host 0.0.0.0 --public-url https://health.example.com --initial-credits 500',
    '<%= config.bin %> serve --allow-private-targets   # intranet self-hosting: allow checks of private addresses',
    'SITEHEALTH_ADMIN_TOKEN=... <%= config.bin %> serve --database-url postgres://sitehealth@db.internal/sitehealth?sslmode=verify-full',
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
    'lab-browser': Flags.string({
      description:
        'Measure performance with Lighthouse in this Chromium/Chrome (a path, or "auto" to find one); off by default: the estimate only.',
    }),
    'lab-concurrency': Flags.integer({
      description:
        'Lab runs at once, each in a warm Chromium of its own (about 560 MB PSS each); further runs wait, each account in its own queue, served in turn.',
      default: 1,
      min: 1,
      max: 8,
    }),
    'lab-timeout': Flags.integer({
      description: 'Seconds one lab run may take before the check falls back to the estimate.',
      default: 45,
      min: 5,
      max: 300,
    }),
    'lab-per-user': Flags.integer({
      description:
        'Lab runs one account may have at once (default: all but one of --lab-concurrency, at least 1), so other accounts always find a browser.',
      min: 1,
      max: 8,
    }),
    'lab-queue-wait': Flags.integer({
      description:
        'Seconds a check waits for a free lab browser before it falls back to the estimate and says so (default: --lab-timeout + 15); an account with 3 runs waiting gets the estimate at once.',
      min: 1,
      max: 600,
    }),
    signup: Flags.string({
      description:
        'Who may create a dashboard account: open (anyone, with the initial credits), invite (invite links from an admin) or closed (admins create accounts).',
      options: [...SIGNUP_POLICIES],
      default: 'closed',
    }),
    'min-interval': Flags.integer({
      description: 'Lowest monitor interval in seconds (tests, intranet self-hosting).',
      default: 60,
      min: 1,
      max: 86_400,
    }),
    'max-monitors-per-account': Flags.integer({
      description:
        'Most monitors one account may have, of every type (a create past it is refused with 409 conflict).',
      default: 1000,
      min: 1,
      max: 1_000_000,
    }),
    'monitor-create-rate': Flags.integer({
      description:
        'Monitors one account may create per minute, on every face (API, dashboard, deploy, MCP); past it 429 rate_limited with Retry-After.',
      default: 60,
      min: 1,
      max: 100_000,
    }),
    'history-runs': Flags.integer({
      description:
        'Raw runs (and events) kept per monitor; older runs live on in the hourly and daily uptime rollups. Default: 1000 with --database-url, 100 on the embedded store (it holds history in memory).',
      min: 10,
      max: 100_000,
    }),
    'smtp-url': Flags.string({
      description: 'SMTP server for email alerts, e.g. smtps://user:pass@mail.example.com:465.',
      env: 'SITEHEALTH_SMTP_URL',
    }),
    'smtp-from': Flags.string({
      description: 'Sender address of email alerts.',
      default: 'sitehealth <sitehealth@localhost>',
    }),
    'alert-backoff': Flags.integer({
      description: 'First retry delay of a failed alert delivery, ms (then x4 each time).',
      default: 2000,
      min: 1,
      hidden: true,
    }),
    'catch-up-window': Flags.integer({
      description: 'Monitor runs missed while stopped are spread over this many seconds after a start.',
      default: 60,
      min: 0,
    }),
    'claim-lease': Flags.integer({
      description:
        'With a shared database: seconds after which a monitor run claimed by an instance that died is taken over (default: check timeout + 60).',
      min: 1,
      hidden: true,
    }),
    'trust-proxy': Flags.string({
      description:
        'Believe X-Forwarded-For from these reverse proxies only: a number of hops (1 = the proxy in front of serve) or a comma-separated list of addresses/CIDR ranges (e.g. 127.0.0.1,10.0.0.0/8). Off by default: the TCP peer is the client.',
    }),
    quiet: Flags.boolean({ description: 'No access log.', default: false }),
    'database-url': Flags.string({
      description:
        'Store in PostgreSQL (postgres://user:pass@host:5432/db?sslmode=...) instead of --data-dir.',
      env: 'SITEHEALTH_DATABASE_URL',
    }),
    'db-pool-size': Flags.integer({
      description: 'PostgreSQL connections per instance.',
      default: 10,
      min: 1,
      max: 1000,
    }),
    'db-statement-timeout': Flags.integer({
      description: 'PostgreSQL statement timeout, seconds.',
      default: 10,
      min: 1,
      max: 600,
    }),
    'db-query-timeout': Flags.integer({
      description:
        'Seconds a request waits for a PostgreSQL answer before it gets 503 service_unavailable (a frozen or unreachable database).',
      env: 'SITEHEALTH_DB_QUERY_TIMEOUT',
      default: 5,
      min: 1,
      max: 600,
    }),
    'db-acquire-timeout': Flags.integer({
      description:
        'Seconds a request waits for a PostgreSQL connection (new, or free in a full pool) before 503.',
      env: 'SITEHEALTH_DB_ACQUIRE_TIMEOUT',
      default: 5,
      min: 1,
      max: 600,
    }),
    'redis-timeout': Flags.integer({
      description:
        'Seconds a rate-limit count waits for Redis (or the database) before this instance counts it alone.',
      env: 'SITEHEALTH_REDIS_TIMEOUT',
      default: 2,
      min: 1,
      max: 60,
    }),
    'reservation-lease': Flags.integer({
      description:
        'Seconds a credit reserved by a check stays held if its instance dies mid-check (default: --check-timeout + 30).',
      min: 1,
    }),
    'max-concurrent-checks': Flags.integer({
      description:
        'Checks in flight on the whole server (API and scheduled runs); API runs past it wait briefly, then get 503 with Retry-After.',
      default: 64,
      min: 1,
    }),
    'max-concurrent-checks-per-user': Flags.integer({
      description: 'Checks in flight for one user.',
      default: 16,
      min: 1,
    }),
    'failure-limit': Flags.integer({
      description:
        'Failed checks (check_failed, free of charge) one key may cause per --failure-window; past it, runs get 429.',
      default: 30,
      min: 1,
    }),
    'max-connections': Flags.integer({
      description:
        'Inbound connections at once (default: half the file-descriptor limit, at most 1024; the rest stays for checks). At the cap, an idle connection of the client holding the most is closed to make room.',
      min: 1,
    }),
    'failure-window': Flags.integer({
      description: 'Window for --failure-limit, seconds.',
      default: 3600,
      min: 1,
    }),
    'metrics-token': Flags.string({
      description:
        'Serve Prometheus metrics at GET /metrics to requests with `Authorization: Bearer <token>` (off when unset; at least 32 characters).',
      env: 'SITEHEALTH_METRICS_TOKEN',
    }),
    'redis-url': Flags.string({
      description:
        'Keep rate-limit windows in Redis (redis://[:password@]host:6379[/db]) instead of memory or PostgreSQL.',
      env: 'SITEHEALTH_REDIS_URL',
    }),
    'redis-prefix': Flags.string({
      description: "Prefix of this deployment's Redis keys (lets deployments share one Redis).",
      env: 'SITEHEALTH_REDIS_PREFIX',
      default: 'sitehealth',
    }),
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
        trustProxy: flags['trust-proxy'],
        allowPrivateTargets: flags['allow-private-targets'],
        initialCredits: flags['initial-credits'],
        limits: {
          runLimit: flags['run-limit'],
          runWindowSec: flags['run-window'],
          apiLimit: flags['rate-limit'],
          apiWindowSec: flags['rate-window'],
        },
        checkTimeoutMs: flags['check-timeout'] * 1000,
        lab: flags['lab-browser']
          ? {
              browser: flags['lab-browser'],
              concurrency: flags['lab-concurrency'],
              timeoutMs: flags['lab-timeout'] * 1000,
              perUser: flags['lab-per-user'],
              queueWaitMs: flags['lab-queue-wait'] === undefined ? undefined : flags['lab-queue-wait'] * 1000,
            }
          : undefined,
        monitors: {
          minInterval: flags['min-interval'],
          maxPerAccount: flags['max-monitors-per-account'],
          createsPerMinute: flags['monitor-create-rate'],
          historyLimit: flags['history-runs'],
          smtpUrl: flags['smtp-url'],
          smtpFrom: flags['smtp-from'],
          alertBackoffMs: flags['alert-backoff'],
          catchUpMs: flags['catch-up-window'] * 1000,
          secretKey: process.env.SITEHEALTH_SECRET_KEY || undefined,
          claimLeaseMs: flags['claim-lease'] ? flags['claim-lease'] * 1000 : undefined,
        },
        adminToken: process.env.SITEHEALTH_ADMIN_TOKEN || undefined,
        databaseUrl: flags['database-url'] || undefined,
        dbPoolSize: flags['db-pool-size'],
        dbStatementTimeoutMs: flags['db-statement-timeout'] * 1000,
        dbQueryTimeoutMs: flags['db-query-timeout'] * 1000,
        dbAcquireTimeoutMs: flags['db-acquire-timeout'] * 1000,
        redisTimeoutMs: flags['redis-timeout'] * 1000,
        leaseMs: flags['reservation-lease'] === undefined ? undefined : flags['reservation-lease'] * 1000,
        signup: flags.signup as (typeof SIGNUP_POLICIES)[number],
        redisUrl: flags['redis-url'] || undefined,
        redisPrefix: flags['redis-prefix'],
        log,
        maxConcurrentChecks: flags['max-concurrent-checks'],
        maxConcurrentChecksPerUser: flags['max-concurrent-checks-per-user'],
        failureLimit: flags['failure-limit'],
        failureWindowSec: flags['failure-window'],
        maxConnections: flags['max-connections'],
        metricsToken: flags['metrics-token'] || undefined,
      })
    } catch (err) {
      if (err instanceof DataDirLockedError) this.error(err.message, { exit: 1 })
      // one line, unwrapped: a setting to fix, not a bug
      if (err instanceof DatabaseError || err instanceof StartupError) {
        process.stderr.write(`Error: ${err.message}\n`)
        this.exit(1)
      }
      const e = err as NodeJS.ErrnoException
      if (e.code === 'EADDRINUSE')
        this.error(
          `Port ${flags.port} is already in use: is another \`${this.config.bin} serve\` running? (\`${this.config.bin} status --api-url http://${flags.host}:${flags.port}\` tells.) Use it, stop it, or pick another port with --port.`,
          { exit: 1 },
        )
      if (e.code === 'EACCES') this.error(`No permission for ${e.path ?? dataDir}: ${e.message}`, { exit: 1 })
      throw err
    }
    process.stdout.write(`${server.url}\n`)
    process.stderr.write(
      `sitehealth API on ${server.url} (docs ${server.url}/docs) - data in ${flags['database-url'] ? redactUrl(flags['database-url']) : dataDir}` +
        (server.adminTokenFile ? `, admin token in ${server.adminTokenFile}` : '') +
        (flags['allow-private-targets'] ? ' - private targets ALLOWED' : '') +
        '\n' +
        nextSteps({
          run: currentInvocation(this.config.bin),
          url: server.url,
          apiUrl: flags.port === 8787 && flags.host === '127.0.0.1' ? undefined : server.url,
          dataDir: flags['data-dir'],
          envToken: !server.adminTokenFile,
          allowPrivate: flags['allow-private-targets'],
        }),
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
