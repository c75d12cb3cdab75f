/**
 * Rate limits of several `serve` instances acting as one service (docs/decisions.md#scale-out): with the default
 * limits, one key's 11th run in a minute is refused whichever instance answers, with the windows in
 * PostgreSQL (the default with a database) or in Redis (`--redis-url`). And a bad Redis URL is a
 * one-line error, never a stack trace.
 */
import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { AddressInfo } from 'node:net'
import { execa } from 'execa'
import { Redis } from 'ioredis'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { CLI, startServe, type Served } from '../helpers/serve.js'
import { REDIS_URL, describeRedis, dropPrefix, uniquePrefix } from '../helpers/redis.js'
import { describePg, freshDatabase, query } from '../store/postgres/pg.js'

const TOKEN = `sha_admin_${randomBytes(24).toString('base64url')}`

let db: Awaited<ReturnType<typeof freshDatabase>>
let stopTarget: (() => Promise<void>) | undefined
const servers: Served[] = []

async function serve(extra: string[] = []): Promise<Served> {
  const s = await startServe({
    args: ['--database-url', db.url, '--quiet', ...extra],
    env: { SITEHEALTH_ADMIN_TOKEN: TOKEN },
  })
  servers.push(s)
  return s
}

async function target(): Promise<string> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' })
    res.end('<!doctype html><title>t</title><p>hello</p>')
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  stopTarget = () =>
    new Promise<void>((r) => {
      server.closeAllConnections()
      server.close(() => r())
    })
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
}

async function run(base: string, key: string, url: string) {
  const res = await fetch(`${base}/api/public/v1/checks/run`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url }),
  })
  const body = (await res.json()) as { ok: boolean; error?: { code: string } }
  return { status: res.status, headers: res.headers, body }
}

/**
 * Ten runs of one key spread over both instances succeed; the 11th is refused by the instance that
 * answers it, and by the other one too, with the RateLimit fields and Retry-After of one window.
 */
async function eleventhIsRefused(a: Served, b: Served, lastOn: 'a' | 'b') {
  const url = await target()
  const { key } = await a.createKey({ user: `rl-${lastOn}`, credits: 50 })
  for (let i = 0; i < 10; i++) {
    const r = await run(i % 2 ? b.url : a.url, key, url)
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    expect(r.headers.get('ratelimit-policy')).toBe('"run";q=10;w=60')
    expect(r.headers.get('ratelimit')).toMatch(new RegExp(`^"run";r=${9 - i};t=\\d+$`))
  }
  const [first, other] = lastOn === 'a' ? [a, b] : [b, a]
  for (const s of [first, other]) {
    const r = await run(s.url, key, url)
    expect(r.status).toBe(429)
    expect(r.body.error?.code).toBe('rate_limited')
    const retry = Number(r.headers.get('retry-after'))
    expect(retry).toBeGreaterThanOrEqual(1)
    expect(retry).toBeLessThanOrEqual(60)
    expect(r.headers.get('ratelimit')).toBe(`"run";r=0;t=${retry}`)
  }
  // another key is not affected
  const other2 = await b.createKey({ user: `rl-${lastOn}`, credits: 5 })
  expect((await run(b.url, other2.key, url)).status).toBe(200)
}

describePg('rate limits across instances on one PostgreSQL database', () => {
  beforeEach(async () => {
    db = await freshDatabase()
  })
  afterEach(async () => {
    for (const s of servers.splice(0)) await s.stop({ signal: 'SIGKILL' }).catch(() => {})
    await stopTarget?.()
    stopTarget = undefined
    await db.drop()
  })

  it("one key's 11th run in a minute is 429 whichever instance answers", { timeout: 60_000 }, async () => {
    const a = await serve()
    const b = await serve()
    await eleventhIsRefused(a, b, 'b')
    // the windows are in the database, not in either process: the limited key's row counts its ten
    // runs and the first refusal on each instance (after which each refuses it from memory)
    const rows = await query(db.url, "SELECT points FROM rate_limits WHERE key LIKE 'run:%'")
    expect(rows.map((r) => Number(r.points)).sort((x, y) => x - y)).toEqual([1, 12])
  })

  describeRedis('with --redis-url', () => {
    let prefix: string
    beforeEach(() => {
      prefix = uniquePrefix()
    })
    afterEach(async () => {
      await dropPrefix(prefix)
    })

    it("one key's 11th run in a minute is 429 whichever instance answers", { timeout: 60_000 }, async () => {
      const flags = ['--redis-url', REDIS_URL, '--redis-prefix', prefix]
      const a = await serve(flags)
      const b = await serve(flags)
      await eleventhIsRefused(a, b, 'a')
      const redis = new Redis(REDIS_URL)
      try {
        expect(await redis.keys(`${prefix}:rl:run:*`)).toHaveLength(2)
      } finally {
        redis.disconnect()
      }
      // not in the database
      expect(await query(db.url, "SELECT to_regclass('rate_limits') IS NULL AS absent")).toEqual([
        { absent: true },
      ])
    })
  })
})

it(
  'refuses a bad or unreachable Redis URL with one line and a non-zero exit',
  { timeout: 60_000 },
  async () => {
    for (const [url, pattern] of [
      ['http://127.0.0.1:6379', /must start with redis:\/\//],
      [
        'redis://:hunter2@127.0.0.1:1',
        /Cannot use Redis at redis:\/\/:\*\*\*@127\.0\.0\.1:1.*connection refused/,
      ],
    ] as const) {
      const dir = await mkdtemp(join(tmpdir(), 'sitehealth-rl-'))
      const r = await execa('node', [CLI, 'serve', '--port', '0', '--data-dir', dir, '--redis-url', url], {
        reject: false,
        env: { NO_COLOR: '1' },
        timeout: 30_000,
      })
      await rm(dir, { recursive: true, force: true })
      expect(r.exitCode, r.stderr).not.toBe(0)
      expect(r.stderr.trim().split('\n'), r.stderr).toHaveLength(1)
      expect(r.stderr).toMatch(/^Error: /)
      expect(r.stderr).not.toMatch(/\bat .+:\d+:\d+/)
      expect(r.stderr).not.toContain('hunter2')
      expect(r.stderr).toMatch(pattern)
    }
  },
)
