/**
 * Rate limits per key (docs/decisions.md#api-open-points, docs/decisions.md#scale-out) on rate-limiter-flexible, so that every instance counts in
 * one shared window: in memory for the embedded store, in PostgreSQL (a `rate_limits` table on the
 * storage pool) with a database, in Redis with `--redis-url`.
 *
 * The window is the library's: it opens at a key's first counted request and lasts the policy's
 * window; when it ends, the whole quota is back. `t` and Retry-After are the seconds until then,
 * so retrying after Retry-After always succeeds (docs/decisions.md#rate-limits says how this differs
 * from a sliding log).
 */
import type { Redis } from 'ioredis'
import type pg from 'pg'
import {
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRedis,
  RateLimiterRes,
  RLWrapperTimeouts,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible'

export interface Limits {
  /** Run-check requests per key per window (routes 3 and 4 share it). */
  runLimit: number
  runWindowSec: number
  /** Other authenticated requests per key per window. */
  apiLimit: number
  apiWindowSec: number
}

export const DEFAULT_LIMITS: Limits = { runLimit: 10, runWindowSec: 60, apiLimit: 120, apiWindowSec: 60 }

export interface Policy {
  name: string
  limit: number
  windowMs: number
}

/** The two policies of docs/decisions.md#api-open-points: the run routes share one, every other authenticated route the other. */
export function policiesOf(limits: Limits): { run: Policy; api: Policy } {
  return {
    run: { name: 'run', limit: limits.runLimit, windowMs: limits.runWindowSec * 1000 },
    api: { name: 'api', limit: limits.apiLimit, windowMs: limits.apiWindowSec * 1000 },
  }
}

const policyId = (p: Policy) => `${p.name}:${p.limit}:${p.windowMs}`

export interface Decision {
  allowed: boolean
  remaining: number
  /** Seconds until the window ends (whole, at least 1 when refused). */
  resetSec: number
  headers: Record<string, string>
}

/** Where the windows live. */
export type LimiterStore =
  | { kind: 'memory' }
  | { kind: 'postgres'; pool: pg.Pool; timeoutMs?: number }
  | { kind: 'redis'; client: Redis; prefix?: string; timeoutMs?: number }

/** The PostgreSQL table of windows (created at start if missing, in the pool's search_path). */
export const RATE_LIMIT_TABLE = 'rate_limits'

export class RateLimiter {
  private readonly limiters = new Map<string, RateLimiterAbstract>()
  private readonly policyHeaders = new Map<string, string>()

  constructor(private readonly store: LimiterStore = { kind: 'memory' }) {}

  /**
   * Prepares the store: with PostgreSQL, creates the windows' table if missing, under an advisory
   * lock so that instances starting together on an empty database do not race (the library's own
   * CREATE TABLE IF NOT EXISTS can fail when two run at the same moment).
   */
  async init(policies: Policy[]): Promise<void> {
    if (this.store.kind === 'postgres') {
      const client = await this.store.pool.connect()
      try {
        await client.query('BEGIN')
        await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`sitehealth:${RATE_LIMIT_TABLE}`])
        // The columns rate-limiter-flexible's PostgreSQL store reads and writes, in an UNLOGGED
        // table: counting a request then writes no WAL and waits for no disk flush. (Logged, every
        // request of one key waited for the commit flush of the one before: one hot row, a few
        // hundred requests a second.) After a database crash PostgreSQL empties the table, so
        // every window starts afresh, as when the embedded server restarts. Tables made logged by
        // earlier versions are switched over.
        await client.query(
          `CREATE UNLOGGED TABLE IF NOT EXISTS ${RATE_LIMIT_TABLE} (key varchar(255) PRIMARY KEY, points integer NOT NULL DEFAULT 0, expire bigint)`,
        )
        const { rows } = await client.query<{ relpersistence: string }>(
          'SELECT relpersistence FROM pg_class WHERE oid = to_regclass($1)',
          [RATE_LIMIT_TABLE],
        )
        if (rows[0]?.relpersistence === 'p')
          await client.query(`ALTER TABLE ${RATE_LIMIT_TABLE} SET UNLOGGED`)
        await client.query('COMMIT')
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {})
        throw err
      } finally {
        client.release()
      }
    }
    for (const p of policies) this.limiterFor(p)
  }

  private limiterFor(policy: Policy): RateLimiterAbstract {
    const id = policyId(policy)
    let limiter = this.limiters.get(id)
    if (limiter) return limiter
    const base = {
      points: policy.limit,
      duration: policy.windowMs / 1000,
      keyPrefix: policy.name,
    }
    // A key already over its limit is refused from memory until its window ends, without a round
    // trip to the shared store: a client hammering after a 429 costs the database nothing.
    const shared = { ...base, inMemoryBlockOnConsumed: policy.limit + 1 }
    // If the shared store fails (Redis or the database unreachable), each instance keeps limiting
    // on its own instead of failing every request. A store that is silent never errs: the
    // library's timeout wrapper turns silence into an error after `timeoutMs`, so a frozen Redis
    // or database delays a request by at most that before the insurance limiter decides. The
    // insurance sits on the wrapper alone: on the store's limiter too, one request could be
    // counted twice (the wrapper's timeout, then the store's own command timeout).
    const insuranceLimiter = new RateLimiterMemory(base)
    const s = this.store
    const wrapped = s.kind !== 'memory' && !!s.timeoutMs
    const insurance = wrapped ? {} : { insuranceLimiter }
    if (s.kind === 'memory') limiter = new RateLimiterMemory(base)
    else if (s.kind === 'redis')
      limiter = new RateLimiterRedis({
        ...shared,
        keyPrefix: `${s.prefix ?? 'sitehealth'}:rl:${policy.name}`,
        storeClient: s.client,
        ...insurance,
      })
    else
      limiter = new RateLimiterPostgres({
        ...shared,
        storeClient: s.pool,
        storeType: 'pool',
        tableName: RATE_LIMIT_TABLE,
        tableCreated: true,
        ...insurance,
      })
    if (wrapped) limiter = new RLWrapperTimeouts({ limiter, timeoutMs: s.timeoutMs!, insuranceLimiter })
    this.limiters.set(id, limiter!)
    this.policyHeaders.set(id, `"${policy.name}";q=${policy.limit};w=${Math.round(policy.windowMs / 1000)}`)
    return limiter!
  }

  /** Counts one request of `key` under `policy` and says whether it may go on. */
  hit(key: string, policy: Policy): Promise<Decision> {
    // `then` rather than `await` in an async function: one microtask turn fewer on every request
    return this.limiterFor(policy)
      .consume(key)
      .then(
        (res) => this.decide(policy, res, true),
        (err: unknown) => {
          if (!(err instanceof RateLimiterRes)) throw err
          return this.decide(policy, err, false)
        },
      )
  }

  /**
   * Whether `key` has used up `policy` in its current window, counting nothing: the refusal's
   * Decision, or undefined when it may go on. For limits charged only on failure (a wrong token),
   * checked before the request is looked at.
   */
  async refused(key: string, policy: Policy): Promise<Decision | undefined> {
    const res = await this.limiterFor(policy).get(key)
    return res && res.consumedPoints >= policy.limit ? this.decide(policy, res, false) : undefined
  }

  private decide(policy: Policy, res: RateLimiterRes, allowed: boolean): Decision {
    const remaining = res.remainingPoints
    const ms = Math.max(0, res.msBeforeNext)
    const resetSec = allowed ? Math.ceil(ms / 1000) : Math.max(1, Math.ceil(ms / 1000))
    const headers: Record<string, string> = {
      'ratelimit-policy': this.policyHeaders.get(policyId(policy))!,
      ratelimit: `"${policy.name}";r=${remaining};t=${resetSec}`,
    }
    if (!allowed) headers['retry-after'] = String(resetSec)
    return { allowed, remaining, resetSec, headers }
  }
}
