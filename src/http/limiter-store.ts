/**
 * Choosing where rate-limit windows live, so that every instance of one deployment counts in the
 * same window (docs/decisions.md#scale-out): Redis when `--redis-url` is given, else the PostgreSQL store's own pool
 * when the data is in PostgreSQL, else this process's memory (one embedded instance).
 * The Redis client is loaded only when asked for.
 */
import type pg from 'pg'
import type { Store } from '../store/types.js'
import { RateLimiter, type Policy } from './rate-limit.js'

/** A limiter set-up the operator must fix (bad or unreachable Redis URL): one line, fit to print. */
export class LimiterSetupError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'LimiterSetupError'
  }
}

export interface LimiterSetup {
  store: Store
  redisUrl?: string
  /** Prefix of this deployment's Redis keys, so that deployments can share one Redis. */
  redisPrefix?: string
  /**
   * Longest wait for the shared store (Redis or PostgreSQL) to count a request, ms (default 2000):
   * past it the request is counted by this instance's own limiter, as when the store errs.
   */
  timeoutMs?: number
}

export const DEFAULT_LIMITER_TIMEOUT_MS = 2000

export interface OpenLimiter {
  limiter: RateLimiter
  /** Where the windows are, for the start-up line. */
  where: 'memory' | 'postgres' | 'redis'
  /** With Redis: a PING, for readiness (bounded by the command timeout). */
  probe?: () => Promise<void>
  close(): Promise<void>
}

const REDIS_PREFIX = /^[A-Za-z0-9_.:-]{1,64}$/

/** The URL without its password (for messages). */
function redact(url: string): string {
  try {
    const u = new URL(url)
    if (u.password) u.password = '***'
    return u.toString()
  } catch {
    return '(unparseable Redis URL)'
  }
}

export async function openLimiter(setup: LimiterSetup, policies: Policy[]): Promise<OpenLimiter> {
  const timeoutMs = setup.timeoutMs ?? DEFAULT_LIMITER_TIMEOUT_MS
  if (setup.redisUrl) return openRedis(setup.redisUrl, setup.redisPrefix ?? 'sitehealth', policies, timeoutMs)
  // the PostgreSQL store's pool: one set of connections per instance for data and windows alike
  const pool = (setup.store as { pool?: pg.Pool }).pool
  if (setup.store.backend === 'postgres' && pool) {
    const limiter = new RateLimiter({ kind: 'postgres', pool, timeoutMs })
    try {
      await limiter.init(policies)
    } catch (err) {
      throw new LimiterSetupError(
        `Cannot create the rate-limit table in PostgreSQL: ${String((err as Error)?.message ?? err).split('\n')[0]}.`,
        { cause: err },
      )
    }
    return { limiter, where: 'postgres', close: async () => {} }
  }
  return { limiter: new RateLimiter(), where: 'memory', close: async () => {} }
}

async function openRedis(
  url: string,
  prefix: string,
  policies: Policy[],
  timeoutMs: number,
): Promise<OpenLimiter> {
  if (!/^rediss?:\/\//i.test(url))
    throw new LimiterSetupError('The Redis URL must start with redis:// or rediss://.')
  try {
    new URL(url)
  } catch {
    throw new LimiterSetupError('The Redis URL is not a valid URL (redis://[:password@]host:6379[/db]).')
  }
  if (!REDIS_PREFIX.test(prefix))
    throw new LimiterSetupError(
      'The Redis key prefix must be 1-64 letters, digits or the characters _ . : - (e.g. sitehealth).',
    )
  const { Redis } = await import('ioredis')
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 5000,
    // A request must not wait for Redis to come back: it fails fast and the limiter's per-instance
    // insurance takes over until Redis answers again.
    maxRetriesPerRequest: 1,
    enableOfflineQueue: true,
    // a silent Redis (frozen, partitioned) never errs: without a bound a command waits forever
    commandTimeout: timeoutMs,
  })
  // without a listener a lost connection would crash the process; ioredis reconnects by itself
  let lastError: NodeJS.ErrnoException | undefined
  client.on('error', (err: NodeJS.ErrnoException) => (lastError = err))
  try {
    await client.connect()
    await client.ping()
  } catch (err) {
    client.disconnect()
    const e = lastError ?? (err as NodeJS.ErrnoException)
    const reason =
      e.code === 'ECONNREFUSED'
        ? 'connection refused (is Redis running and listening there?)'
        : e.code === 'ENOTFOUND' || e.code === 'EAI_AGAIN'
          ? 'unknown host'
          : String(e.message ?? e)
              .split('\n')[0]
              .replace(/\.$/, '')
    throw new LimiterSetupError(`Cannot use Redis at ${redact(url)}: ${reason}.`, { cause: err })
  }
  const limiter = new RateLimiter({ kind: 'redis', client, prefix, timeoutMs })
  await limiter.init(policies)
  return {
    limiter,
    where: 'redis',
    probe: async () => {
      await client.ping()
    },
    async close() {
      await client.quit().catch(() => client.disconnect())
    },
  }
}
