/**
 * The rate limiter on each of its stores (memory, PostgreSQL, Redis): the same behaviour, and two
 * limiters on one shared store (two instances) count in one window.
 */
import { Redis } from 'ioredis'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RateLimiter, type LimiterStore } from '../../src/http/rate-limit.js'
import { REDIS_URL, describeRedis, dropPrefix, uniquePrefix } from '../helpers/redis.js'
import { describePg, freshDatabase } from '../store/postgres/pg.js'

const policy = { name: 'run', limit: 3, windowMs: 2000 }
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
let n = 0
const newKey = () => `key-${process.pid}-${++n}`

function behaves(stores: () => [LimiterStore, LimiterStore]) {
  let a: RateLimiter
  let b: RateLimiter
  beforeAll(async () => {
    const [sa, sb] = stores()
    a = new RateLimiter(sa)
    b = new RateLimiter(sb)
    await a.init([policy])
    await b.init([policy])
  })

  it('allows the limit, then refuses with Retry-After until the window ends; then the whole quota is back', async () => {
    const k = newKey()
    const first = await a.hit(k, policy)
    expect(first.allowed).toBe(true)
    expect(first.headers.ratelimit).toBe('"run";r=2;t=2')
    expect(first.headers['ratelimit-policy']).toBe('"run";q=3;w=2')
    expect(first.headers['retry-after']).toBeUndefined()
    expect((await a.hit(k, policy)).remaining).toBe(1)
    const third = await a.hit(k, policy)
    expect(third.allowed).toBe(true)
    expect(third.remaining).toBe(0)
    const refused = await a.hit(k, policy)
    expect(refused.allowed).toBe(false)
    const retry = Number(refused.headers['retry-after'])
    expect(retry).toBeGreaterThanOrEqual(1)
    expect(retry).toBeLessThanOrEqual(2)
    expect(refused.headers.ratelimit).toBe(`"run";r=0;t=${retry}`)
    // refused requests do not extend the window
    for (let i = 0; i < 5; i++) expect((await a.hit(k, policy)).allowed).toBe(false)
    await sleep(retry * 1000 + 50)
    const again = await a.hit(k, policy)
    expect(again.allowed).toBe(true)
    expect(again.remaining).toBe(2)
  })

  it('counts keys separately', async () => {
    const k1 = newKey()
    const k2 = newKey()
    for (let i = 0; i < 3; i++) await a.hit(k1, policy)
    expect((await a.hit(k1, policy)).allowed).toBe(false)
    expect((await a.hit(k2, policy)).allowed).toBe(true)
  })

  it('never allows more than the limit at once, whichever instance counts', async () => {
    const k = newKey()
    const all = await Promise.all(Array.from({ length: 24 }, (_, i) => (i % 2 ? a : b).hit(k, policy)))
    expect(all.filter((d) => d.allowed)).toHaveLength(3)
  })

  it('shares one window between two instances on one store', async () => {
    const k = newKey()
    expect((await a.hit(k, policy)).remaining).toBe(2)
    expect((await b.hit(k, policy)).remaining).toBe(1)
    expect((await a.hit(k, policy)).remaining).toBe(0)
    expect((await b.hit(k, policy)).allowed).toBe(false)
    expect((await a.hit(k, policy)).allowed).toBe(false)
  })
}

describe('rate limiter in memory (one embedded instance)', () => {
  it('behaves like the shared stores for one instance', async () => {
    const rl = new RateLimiter()
    const k = newKey()
    expect((await rl.hit(k, policy)).headers.ratelimit).toBe('"run";r=2;t=2')
    await rl.hit(k, policy)
    await rl.hit(k, policy)
    const refused = await rl.hit(k, policy)
    expect(refused.allowed).toBe(false)
    expect(refused.headers['retry-after']).toMatch(/^[12]$/)
  })

  it('keeps separate windows in separate processes (why a shared store is needed)', async () => {
    const a = new RateLimiter()
    const b = new RateLimiter()
    const k = newKey()
    for (let i = 0; i < 3; i++) await a.hit(k, policy)
    expect((await a.hit(k, policy)).allowed).toBe(false)
    expect((await b.hit(k, policy)).allowed).toBe(true)
  })
})

describePg('rate limiter in PostgreSQL', () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>
  const pools: pg.Pool[] = []
  beforeAll(async () => {
    db = await freshDatabase()
  })
  afterAll(async () => {
    await Promise.all(pools.map((p) => p.end()))
    await db?.drop()
  })
  it('keeps the windows unlogged (no WAL flush per request), also in a table an earlier version made logged', async () => {
    const old = await freshDatabase()
    const pool = new pg.Pool({ connectionString: old.url, max: 2 })
    // an idle client the database's drop terminates is expected here, not an uncaught error
    pool.on('error', () => {})
    try {
      await pool.query(
        'CREATE TABLE rate_limits (key varchar(255) PRIMARY KEY, points integer NOT NULL DEFAULT 0, expire bigint)',
      )
      await pool.query("INSERT INTO rate_limits VALUES ('run:k', 1, NULL)")
      await new RateLimiter({ kind: 'postgres', pool }).init([policy])
      const persistence = async (url: string) => {
        const c = new pg.Client({ connectionString: url })
        await c.connect()
        try {
          return (await c.query("SELECT relpersistence FROM pg_class WHERE oid = 'rate_limits'::regclass"))
            .rows[0].relpersistence
        } finally {
          await c.end()
        }
      }
      expect(await persistence(old.url)).toBe('u')
      expect((await pool.query('SELECT points FROM rate_limits')).rows).toEqual([{ points: 1 }])
      // the fresh database of the suite: created unlogged by the limiters' init
      expect(await persistence(db.url)).toBe('u')
    } finally {
      await pool.end()
      await old.drop()
    }
  })

  behaves(() => {
    const make = () => {
      const pool = new pg.Pool({ connectionString: db.url, max: 4 })
      pool.on('error', () => {})
      pools.push(pool)
      return { kind: 'postgres' as const, pool }
    }
    return [make(), make()]
  })
})

describeRedis('rate limiter in Redis', () => {
  const prefix = uniquePrefix()
  const clients: Redis[] = []
  afterAll(async () => {
    for (const c of clients) c.disconnect()
    await dropPrefix(prefix)
  })
  behaves(() => {
    const make = () => {
      const client = new Redis(REDIS_URL)
      clients.push(client)
      return { kind: 'redis' as const, client, prefix }
    }
    return [make(), make()]
  })
})
