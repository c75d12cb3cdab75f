/**
 * Starting and stopping the API server: open the store (which locks the data dir), build the app,
 * listen on a plain node:http server through h3's `toNodeHandler`, and on close stop accepting,
 * let in-flight checks finish, then flush and unlock the store.
 *
 * Not listhen: it wraps every server in `http-shutdown`, whose `finish` handler throws (and
 * kills the process) when a client's socket is already gone, e.g. after an oversized chunked
 * body is refused; it also moves to another port when the one asked for is taken.
 */
import type { Lab, LabOptions } from '../lab/index.js'
import { randomBytes } from 'node:crypto'
import { chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises'
import { createServer, type RequestListener, type Server } from 'node:http'
import { join } from 'node:path'
import { toNodeHandler } from 'h3/node'
import { CheckCapacity, DEFAULT_CAPACITY } from '../capacity/index.js'
import { ADMIN_TOKEN_HOWTO, adminTokenProblem } from '../contract/admin-token.js'
import { Accounts, type SignupPolicy } from '../accounts/index.js'
import { channelSealer, startMonitoring, type Monitoring } from '../monitors/index.js'
import { deriveSecretKey, loadSecretKey, secretBox } from '../shared/index.js'
import { openStore, type Store } from '../store/index.js'
import { LimiterSetupError, openLimiter, type OpenLimiter } from '../http/limiter-store.js'
import { policiesOf } from '../http/rate-limit.js'
import { rawErrorResponse } from '../server/app.js'
import { composeApp } from './app.js'
import { PageDomains, withPageDomains } from '../status-pages/index.js'
import { writeCount } from '../store/writes.js'
import { parseTrustProxy, type TrustProxy } from '../http/client-address.js'
import { withFastPath } from '../server/fast-path.js'
import { DEFAULT_LIMITS, type Limits, type ServerOptions } from '../server/context.js'
import { HTTP_TIMEOUTS, defaultMaxConnections, limitConnections } from '../http/connections.js'
import { DEFAULT_FAILURE_POLICY } from '../runs/index.js'
import { removeOwnerFile, writeOwnerFile } from '../server/owner-file.js'
import { Metrics } from '../metrics/index.js'
import { capHeapGrowth } from './heap.js'

/** The client-side bound on a PostgreSQL answer when `serve` is not told otherwise (docs/decisions.md#faults). */
export const DEFAULT_DB_QUERY_TIMEOUT_MS = 5000

export interface StartOptions {
  host: string
  port: number
  dataDir: string
  publicUrl?: string
  allowPrivateTargets?: boolean
  initialCredits?: number
  limits?: Partial<Limits>
  checkTimeoutMs?: number
  /** `--lab-browser` and friends: measure performance with Lighthouse in Chromium (src/lab/); off when unset. */
  lab?: Omit<LabOptions, 'allowPrivateTargets' | 'log'>
  /** Monitors (docs/decisions.md#monitors-and-alerts); defaults in parentheses. */
  monitors?: {
    /** Lowest interval_seconds accepted (60). */
    minInterval?: number
    /** Monitors one account may have (1000). */
    maxPerAccount?: number
    /** Monitors one account may create per minute (60). */
    createsPerMinute?: number
    /** SITEHEALTH_SECRET_KEY: seals webhook secrets (else <data-dir>/secret-key). */
    secretKey?: string
    smtpUrl?: string
    smtpFrom?: string
    /** First alert retry back-off, ms (2000). */
    alertBackoffMs?: number
    /** Alert delivery attempts (5). */
    alertAttempts?: number
    /** Catch-up runs after a start are spread over this many ms (60000). */
    catchUpMs?: number
    /** Runs and events kept per monitor (1000 on PostgreSQL, 100 on the embedded store). */
    historyLimit?: number
    /** With a shared database: a claimed run is taken over after this many ms (check limit + 60 s). */
    claimLeaseMs?: number
    /** With a shared database: how often alerts of a dead instance are looked for, ms (30000). */
    deliverySweepMs?: number
  }
  /** Lease of a credit reservation, ms (default: the check time limit + 30 s). */
  leaseMs?: number
  /** postgres:// URL: store in PostgreSQL instead of the data dir (docs/decisions.md#scale-out). */
  databaseUrl?: string
  dbPoolSize?: number
  dbStatementTimeoutMs?: number
  /** Client-side wait for a PostgreSQL answer, ms (default 5000; docs/decisions.md#faults). */
  dbQueryTimeoutMs?: number
  /** Wait for a PostgreSQL connection from the pool, ms (default 5000). */
  dbAcquireTimeoutMs?: number
  /** Wait for a Redis command, ms (default 2000); past it the in-process limiter decides. */
  redisTimeoutMs?: number
  /** redis:// URL: rate-limit windows in Redis (else memory, or PostgreSQL with a database). */
  redisUrl?: string
  /** Prefix of this deployment's Redis keys (default `sitehealth`). */
  redisPrefix?: string
  /** `--trust-proxy`: hops or addresses/CIDR ranges of the proxies that may name the client. */
  trustProxy?: string
  /** From SITEHEALTH_ADMIN_TOKEN; else read or generated in <data-dir>/admin-token. */
  adminToken?: string
  log?: (line: string) => void
  /** Who may create an account in the dashboard (docs/decisions.md#accounts-and-the-dashboard); default closed. */
  signup?: SignupPolicy
  /** Checks in flight on the whole server (default 64). */
  maxConcurrentChecks?: number
  /** Checks in flight per user (default 16). */
  maxConcurrentChecksPerUser?: number
  /** Inbound connections at once (default: half the file-descriptor limit, at most 1024). */
  maxConnections?: number
  /** Start-up warnings (modes fixed); default: a line on stderr. */
  warn?: (line: string) => void
  /** Bearer token of GET /metrics (Prometheus); without one there is no /metrics and nothing is measured. */
  metricsToken?: string
  /** Free failures (check_failed) per key per window. */
  failureLimit?: number
  failureWindowSec?: number
}

export interface RunningServer {
  url: string
  /** The open store and the monitor scheduler (benchmarks read their statistics). */
  store: Store
  monitoring?: Monitoring
  adminTokenFile?: string
  /** The caps on checks in flight: monitors' scheduled runs take their slots here too. */
  capacity: CheckCapacity
  /** The lab browser when `--lab-browser` is set (tests kill it; the bench reads its pid). */
  lab?: Lab
  close: (graceMs?: number) => Promise<void>
}

/** A refusal to start that the command prints as one clear line (no stack). */
export class StartupError extends Error {
  override readonly name = 'StartupError'
}

async function resolveAdminToken(
  dataDir: string,
  fromEnv: string | undefined,
  warn: (line: string) => void,
): Promise<{ token: string; file?: string }> {
  if (fromEnv) {
    const problem = adminTokenProblem(fromEnv)
    if (problem)
      throw new StartupError(`SITEHEALTH_ADMIN_TOKEN is too weak: ${problem}. ${ADMIN_TOKEN_HOWTO}`)
    return { token: fromEnv }
  }
  const file = join(dataDir, 'admin-token')
  let existing: string | undefined
  try {
    existing = (await readFile(file, 'utf8')).trim()
  } catch {
    // first start: generate below
  }
  if (existing) {
    const problem = adminTokenProblem(existing)
    if (problem)
      throw new StartupError(
        `The admin token in ${file} is too weak: ${problem}. Replace it (${ADMIN_TOKEN_HOWTO.toLowerCase()} > ${file}) or delete the file to have a new one generated.`,
      )
    await tightenMode(file, 0o600, warn)
    return { token: existing, file }
  }
  const token = `sha_admin_${randomBytes(24).toString('base64url')}`
  await writeFile(file, token + '\n', { mode: 0o600 })
  return { token, file }
}

/**
 * A data dir or token file that group or others may read (a restore with the wrong umask, a
 * `cp -r`) is fixed, not refused: the owner gets 0700/0600 back and a warning line says so. The
 * server cannot know whether the secret was read meanwhile; the warning suggests rotating it.
 */
async function tightenMode(path: string, mode: number, warn: (line: string) => void): Promise<void> {
  const st = await stat(path)
  if ((st.mode & 0o077) === 0) return
  try {
    await chmod(path, mode)
  } catch (err) {
    throw new StartupError(
      `${path} is open to group/other (mode ${(st.mode & 0o777).toString(8)}) and cannot be fixed: ${(err as Error).message}. Run: chmod ${mode.toString(8)} ${path}`,
    )
  }
  warn(
    `warning: ${path} was open to group/other (mode ${(st.mode & 0o777).toString(8)}); set to ${mode.toString(8)}.` +
      (mode === 0o600 ? ' If others could read it, rotate the secret.' : ''),
  )
}

export async function startServer(o: StartOptions): Promise<RunningServer> {
  const warn = o.warn ?? ((line: string) => process.stderr.write(line + '\n'))
  const trustProxy = checkedOptions(o)
  if (!o.databaseUrl) {
    await mkdir(o.dataDir, { recursive: true, mode: 0o700 })
    await tightenMode(o.dataDir, 0o700, warn)
    capHeapGrowth() // the embedded store's history is in memory: src/serve/heap.ts
  }
  const checkTimeoutMs = o.checkTimeoutMs ?? 15_000
  // instances sharing a database must share the key: without SITEHEALTH_SECRET_KEY it is
  // derived from the admin token they already share
  const secretKey =
    o.monitors?.secretKey ?? (o.databaseUrl ? deriveSecretKey(o.adminToken!) : await loadSecretKey(o.dataDir))
  // docs/decisions.md#scale-out: a reservation left by a dead instance returns at most 60 s after the check limit
  const store = await openStore({
    dataDir: o.dataDir,
    databaseUrl: o.databaseUrl,
    poolSize: o.dbPoolSize,
    statementTimeoutMs: o.dbStatementTimeoutMs,
    queryTimeoutMs: o.dbQueryTimeoutMs ?? DEFAULT_DB_QUERY_TIMEOUT_MS,
    acquireTimeoutMs: o.dbAcquireTimeoutMs,
    leaseMs: o.leaseMs ?? checkTimeoutMs + 30_000,
    monitorHistory: o.monitors?.historyLimit,
    // channels an older version stored in clear are sealed as the store opens
    sealChannels: channelSealer(secretBox(secretKey)),
  })
  let monitoring: Monitoring | undefined
  let limiter: OpenLimiter | undefined
  let lab: Lab | undefined
  try {
    lab = await startLab(o, warn)
    const admin: { token: string; file?: string } = o.databaseUrl
      ? { token: o.adminToken! }
      : await resolveAdminToken(o.dataDir, o.adminToken, warn)
    // one instance for API and scheduled runs alike (docs/decisions.md#monitors-and-alerts)
    const capacity = new CheckCapacity({
      maxConcurrent: o.maxConcurrentChecks ?? DEFAULT_CAPACITY.maxConcurrent,
      maxPerUser: o.maxConcurrentChecksPerUser ?? DEFAULT_CAPACITY.maxPerUser,
    })
    const metrics = o.metricsToken
      ? new Metrics({ inFlight: () => capacity.inFlight(), gauges: store.monitorGauges })
      : undefined
    const w: Wiring = { store, adminToken: admin.token, secretKey, capacity, metrics, lab, checkTimeoutMs }
    const started = await startMonitorsFor(o, w)
    monitoring = started
    const opts = serverOptionsFor(o, w, started, trustProxy)
    limiter = await openLimiterFor(o, store, opts.limits)
    opts.limiter = limiter.limiter
    const redisProbe = limiter.probe
    if (redisProbe) opts.readinessProbes = [{ name: 'redis', required: false, probe: redisProbe }]
    const mo = o.monitors ?? {}
    const composed = composeApp(
      Object.assign(opts, {
        subscribers: { secretKey, smtpUrl: mo.smtpUrl, smtpFrom: mo.smtpFrom },
      }),
    )
    const { app, inFlight, failures } = composed
    // a page's own domain gets the page at / (docs/status-pages.md), before any other route
    const domains = new PageDomains(store.statusPages, writeCount(store), () => opts.publicUrl)
    const server = await listen(
      o,
      withPageDomains(domains, withFastPath(opts, limiter.limiter, toNodeHandler(app))),
    )
    const sweeper = setInterval(() => failures.sweep(), 60_000).unref()
    const address = server.address()
    const port = typeof address === 'object' && address ? address.port : o.port
    const hostForUrl = o.host.includes(':') ? `[${o.host}]` : o.host
    // the links in /meta and /openapi.json name this server, never a client-sent Host header
    opts.publicUrl ??= `http://${hostForUrl}:${port}`
    if (!o.databaseUrl)
      await writeOwnerFile(o.dataDir, {
        pid: process.pid,
        host: o.host,
        port,
        started_at: new Date().toISOString(),
      }).catch((err: Error) =>
        warn(
          `warning: cannot record this server in ${o.dataDir} (${err.message}); admin commands will need --admin-token`,
        ),
      )
    let closing: Promise<void> | undefined
    return {
      url: `http://${hostForUrl}:${port}`,
      store,
      monitoring: started,
      adminTokenFile: admin.file,
      capacity,
      lab,
      close(graceMs = 20_000) {
        closing ??= shutdown(
          o,
          { server, inFlight, sweeper, store, monitoring: started, lab, limiter: limiter!, app: composed },
          graceMs,
        )
        return closing
      },
    }
  } catch (err) {
    await monitoring?.close()
    await lab?.close()
    await limiter?.close()
    await store.close()
    throw err
  }
}

/**
 * Refuses what cannot start before anything is created or locked: a bad --trust-proxy, PostgreSQL
 * without a shared admin token, a weak admin or metrics token. Returns the parsed --trust-proxy.
 */
function checkedOptions(o: StartOptions): TrustProxy | undefined {
  let trustProxy: TrustProxy | undefined
  try {
    trustProxy = o.trustProxy === undefined ? undefined : parseTrustProxy(o.trustProxy)
  } catch (err) {
    throw new StartupError((err as Error).message)
  }
  // docs/decisions.md#scale-out: instances sharing a database share one admin token, so none may invent its own
  if (o.databaseUrl && !o.adminToken)
    throw new StartupError(
      'With --database-url (PostgreSQL), SITEHEALTH_ADMIN_TOKEN is required: set the same token on every instance, e.g. SITEHEALTH_ADMIN_TOKEN=$(openssl rand -base64 32).',
    )
  // refuse a weak SITEHEALTH_ADMIN_TOKEN before anything is created or locked
  if (o.adminToken) {
    const problem = adminTokenProblem(o.adminToken)
    if (problem)
      throw new StartupError(`SITEHEALTH_ADMIN_TOKEN is too weak: ${problem}. ${ADMIN_TOKEN_HOWTO}`)
  }
  // /metrics reads every account's monitor names and states: its token is held to the same rule
  if (o.metricsToken !== undefined) {
    const problem = adminTokenProblem(o.metricsToken, 'a metrics token')
    if (problem)
      throw new StartupError(
        `--metrics-token (SITEHEALTH_METRICS_TOKEN) is too weak: ${problem}. ${ADMIN_TOKEN_HOWTO}`,
      )
  }
  return trustProxy
}

/** The lab (Lighthouse), loaded only when asked for: it is large, and a serve without --lab-browser never needs it. */
async function startLab(o: StartOptions, warn: (line: string) => void): Promise<Lab | undefined> {
  if (!o.lab) return undefined
  const { Lab, LabStartError } = await import('../lab/index.js')
  try {
    return await Lab.start({ ...o.lab, allowPrivateTargets: o.allowPrivateTargets ?? false, log: warn })
  } catch (err) {
    if (err instanceof LabStartError) throw new StartupError(err.message)
    throw err
  }
}

interface Wiring {
  store: Store
  adminToken: string
  /** Seals webhook secrets and signs subscribers' links. */
  secretKey: string
  capacity: CheckCapacity
  metrics: Metrics | undefined
  lab: Lab | undefined
  checkTimeoutMs: number
}

/** The monitor scheduler and alerts, on the same capacity and store as the API. */
async function startMonitorsFor(o: StartOptions, w: Wiring): Promise<Monitoring> {
  const { store, capacity, metrics, lab, checkTimeoutMs } = w
  const mo = o.monitors ?? {}
  return startMonitoring({
    metrics,
    store,
    monitors: store.monitors,
    secretKey: w.secretKey,
    allowPrivateTargets: o.allowPrivateTargets ?? false,
    checkTimeoutMs,
    lab,
    minInterval: mo.minInterval,
    quota: { maxMonitorsPerAccount: mo.maxPerAccount, createsPerMinute: mo.createsPerMinute },
    capacity,
    delivery: {
      smtpUrl: mo.smtpUrl,
      smtpFrom: mo.smtpFrom,
      backoffMs: mo.alertBackoffMs,
      maxAttempts: mo.alertAttempts,
    },
    scheduler: {
      catchUpMs: mo.catchUpMs,
      pollMs: o.databaseUrl ? 1000 : undefined,
      claimBatch: o.databaseUrl ? 8 : undefined,
      claimAheadMs: o.databaseUrl ? 250 : undefined,
      claimLeaseMs: mo.claimLeaseMs ?? checkTimeoutMs + 60_000,
    },
    deliverySweepMs: o.databaseUrl ? (mo.deliverySweepMs ?? 30_000) : undefined,
    log: o.log,
  })
}

/** What the app is made of: the store, accounts, limits, monitoring, metrics, capacity. */
function serverOptionsFor(
  o: StartOptions,
  w: Wiring,
  monitoring: Monitoring,
  trustProxy: TrustProxy | undefined,
): ServerOptions {
  const { store, capacity, metrics, lab, checkTimeoutMs } = w
  const opts: ServerOptions = {
    store,
    initialCredits: o.initialCredits ?? 100,
    allowPrivateTargets: o.allowPrivateTargets ?? false,
    adminToken: w.adminToken,
    publicUrl: o.publicUrl,
    limits: { ...DEFAULT_LIMITS, ...o.limits },
    checkTimeoutMs,
    lab,
    monitoring,
    trustProxy,
    log: o.log,
    ...(metrics ? { metrics: { registry: metrics, token: o.metricsToken! } } : {}),
    capacity,
    ...(o.failureLimit !== undefined || o.failureWindowSec !== undefined
      ? {
          failurePolicy: {
            limit: o.failureLimit ?? DEFAULT_FAILURE_POLICY.limit,
            windowMs: (o.failureWindowSec ?? DEFAULT_FAILURE_POLICY.windowMs / 1000) * 1000,
          },
        }
      : {}),
  }
  opts.accounts = new Accounts({
    store,
    accounts: store.accounts,
    signup: o.signup ?? 'closed',
    initialCredits: opts.initialCredits,
  })
  return opts
}

/** The rate limiter: in the store, or in Redis with --redis-url. */
async function openLimiterFor(o: StartOptions, store: Store, limits: Limits): Promise<OpenLimiter> {
  const { run, api } = policiesOf(limits)
  try {
    return await openLimiter(
      { store, redisUrl: o.redisUrl, redisPrefix: o.redisPrefix, timeoutMs: o.redisTimeoutMs },
      [run, api],
    )
  } catch (err) {
    if (err instanceof LimiterSetupError) throw new StartupError(err.message)
    throw err
  }
}

/** The HTTP server, listening, with its connection cap and timeouts (see HTTP_TIMEOUTS). */
async function listen(o: StartOptions, handler: RequestListener): Promise<Server> {
  const server = createServer(
    { connectionsCheckingInterval: HTTP_TIMEOUTS.connectionsCheckingInterval },
    handler,
  )
  limitConnections(server, o.maxConnections ?? defaultMaxConnections())
  // what Node's parser refuses (unknown method, oversized headers) still gets the envelope
  server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
    if (socket.writable && !(socket as { _httpMessage?: unknown })._httpMessage)
      socket.end(rawErrorResponse(err.code))
    else socket.destroy()
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(o.port, o.host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  // Slow or idle clients must not pin sockets: see HTTP_TIMEOUTS.
  server.headersTimeout = HTTP_TIMEOUTS.headersTimeout
  server.requestTimeout = HTTP_TIMEOUTS.requestTimeout
  server.keepAliveTimeout = HTTP_TIMEOUTS.keepAliveTimeout
  return server
}

/** Stops serving (within the grace period), removes the owner file, then closes the stores. */
async function shutdown(
  o: StartOptions,
  running: {
    server: Server
    inFlight: Set<Promise<unknown>>
    sweeper: NodeJS.Timeout
    store: Store
    monitoring: Monitoring
    lab: Lab | undefined
    limiter: OpenLimiter
    app: { close(): Promise<void> }
  },
  graceMs: number,
): Promise<void> {
  const { server, inFlight, sweeper, store, monitoring, lab, limiter, app } = running
  clearInterval(sweeper)
  const stopped = new Promise<void>((resolve) => server.close(() => resolve()))
  server.closeIdleConnections()
  // Running checks finish and their responses are written; the server then closes by itself
  // (a closing server ends keep-alive connections after their response). Only past the
  // grace period are the remaining connections cut.
  const grace = new Promise((r) => setTimeout(r, graceMs).unref())
  // a keep-alive connection that goes idle after close() began would hold it until the
  // client's own idle timeout (about 3 s for undici clients): close those as they appear
  const idleSweep = setInterval(() => server.closeIdleConnections(), 50)
  await Promise.race([Promise.allSettled([...inFlight]).then(() => stopped), grace])
  clearInterval(idleSweep)
  server.closeAllConnections()
  await stopped
  await removeOwnerFile(o.dataDir).catch(() => {})
  await app.close().catch(() => {})
  // scheduled runs in flight are recorded before the stores close
  await monitoring?.close()
  await lab?.close()
  await limiter.close()
  await store.close()
}
