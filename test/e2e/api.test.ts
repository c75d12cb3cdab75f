/**
 * The public API end to end: the built CLI's `serve` on a free port with a temp data dir, real
 * HTTP, local targets on 127.0.0.1. Success bodies are validated against our own OpenAPI schemas.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createConfig, lintFromString } from '@redocly/openapi-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { schemaValidator } from '../helpers/openapi.js'
import { startServe, type Served } from '../helpers/serve.js'

const validate = schemaValidator()

/** A small, healthy-enough HTML site and a closed port, on loopback. */
async function startTarget(): Promise<{ url: string; closedUrl: string; close: () => Promise<void> }> {
  const server: Server = createServer((req, res) => {
    res.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'referrer-policy': 'no-referrer',
    })
    res.end('<!doctype html><title>t</title><p>hello</p>')
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const closed = createServer()
  await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r))
  const closedPort = (closed.address() as AddressInfo).port
  await new Promise<void>((r) => closed.close(() => r()))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    closedUrl: `http://127.0.0.1:${closedPort}/`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  }
}

interface Res {
  status: number
  headers: Headers
  body: any
}

function api(base: string) {
  return async (
    method: string,
    path: string,
    opts: { key?: string; body?: unknown; raw?: string; headers?: Record<string, string> } = {},
  ): Promise<Res> => {
    const headers: Record<string, string> = { ...opts.headers }
    if (opts.key) headers.authorization = `Bearer ${opts.key}`
    let body: string | undefined = opts.raw
    if (opts.body !== undefined) {
      body = JSON.stringify(opts.body)
      headers['content-type'] ??= 'application/json'
    }
    const res = await fetch(base + path, { method, headers, body })
    const text = await res.text()
    let parsed: unknown = text
    try {
      parsed = JSON.parse(text)
    } catch {
      // not JSON (docs page)
    }
    return { status: res.status, headers: res.headers, body: parsed }
  }
}

function expectEnvelope(res: Res, status: number, code: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(status)
  expect(validate('ErrorEnvelope', res.body)).toEqual([])
  expect(res.body.error.code).toBe(code)
  expect(res.body.error.message).toEqual(expect.any(String))
  expect(JSON.stringify(res.body)).not.toMatch(/\bat .+\.(js|ts):\d+/) // no stack trace
  expect(res.headers.get('x-request-id')).toBeTruthy()
}

describe('public API', () => {
  let served: Served
  let target: Awaited<ReturnType<typeof startTarget>>
  let call: ReturnType<typeof api>

  beforeAll(async () => {
    target = await startTarget()
    served = await startServe({ args: ['--run-limit', '1000', '--rate-limit', '100000'] })
    call = api(served.url)
  })
  afterAll(async () => {
    await served?.stop()
    await target?.close()
  })

  it('serves health and meta without a key', async () => {
    const h = await call('GET', '/api/public/v1/health')
    expect(h.status).toBe(200)
    expect(validate('Health', h.body)).toEqual([])
    expect(h.body).toEqual({ ok: true, service: 'sitehealth', version: 'v1' })
    // success responses carry the same safety headers as errors
    expect(h.headers.get('cache-control')).toBe('no-store')
    expect(h.headers.get('x-content-type-options')).toBe('nosniff')
    const m = await call('GET', '/api/public/v1/meta')
    expect(validate('Meta', m.body)).toEqual([])
    expect(m.body.capabilities).toEqual([
      'website_health_check',
      'check_results',
      'recent_checks',
      'risk_summary',
      'client_website_monitoring',
    ])
    expect(m.body.docs_url).toBe(`${served.url}/docs`)
    expect(m.body.openapi_url).toBe(`${served.url}/openapi.json`)
  })

  it('serves a valid OpenAPI 3.1 document and a self-contained docs page', async () => {
    const o = await call('GET', '/openapi.json')
    expect(o.status).toBe(200)
    expect(o.body.info.version).toBe('1.0.0')
    expect(o.body.servers[0].url).toBe(served.url)
    const config = await createConfig({ extends: ['recommended'] })
    const problems = await lintFromString({ source: JSON.stringify(o.body), config })
    expect(problems.filter((p) => p.severity === 'error')).toEqual([])
    const d = await call('GET', '/docs')
    expect(d.status).toBe(200)
    expect(d.headers.get('content-type')).toMatch(/text\/html/)
    expect(d.body).toContain('/api/public/v1/checks/run')
    expect(d.body).not.toMatch(/<script|cdn\./i)
  })

  it('runs a check on both run routes, saves it, charges one credit each, and reads it back', async () => {
    const { key } = await served.createKey({ user: 'runner', credits: 5 })
    const r = await call('POST', '/api/public/v1/checks/run', { key, body: { url: target.url } })
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    expect(validate('RunResult', r.body)).toEqual([])
    expect(r.body.ok).toBe(true)
    expect(r.body.credits).toEqual({ used: 1, remaining: 4 })
    expect(r.body.data.url).toBe(target.url)
    expect(r.headers.get('ratelimit-policy')).toBe('"run";q=1000;w=60')
    expect(r.headers.get('ratelimit')).toMatch(/^"run";r=999;t=\d+$/)

    const alias = await call('POST', '/api/v1/check', { key, body: { url: target.url } })
    expect(alias.status).toBe(200)
    expect(validate('RunResult', alias.body)).toEqual([])
    expect(alias.body.credits.remaining).toBe(3)
    expect(alias.headers.get('ratelimit')).toMatch(/^"run";r=998;/) // one shared counter

    const got = await call('GET', `/api/public/v1/checks/${r.body.data.id}`, { key })
    expect(got.status).toBe(200)
    expect(validate('SavedCheck', got.body)).toEqual([])
    expect(got.body).toMatchObject({
      id: r.body.data.id,
      url: target.url,
      status: 'completed',
      health_score: r.body.data.healthScore,
    })
    expect(Object.keys(got.body.checks).sort()).toEqual([
      'https_ssl',
      'pagespeed',
      'reachability',
      'response_time',
      'security_headers',
    ])

    const recent = await call('GET', '/api/public/v1/checks/recent', { key })
    expect(validate('RecentChecks', recent.body)).toEqual([])
    expect(recent.body.checks.map((c: any) => c.id)).toEqual([alias.body.data.id, r.body.data.id])
    expect(recent.body.next_cursor).toBeNull()

    const credits = await call('GET', '/api/public/v1/credits', { key })
    expect(validate('CreditBalance', credits.body)).toEqual([])
    expect(credits.body.credits_remaining).toBe(3)
    expect(credits.body.plan).toBeNull()
  })

  it('provokes every error code of the spec, plus 404 and 405, all in the envelope', async () => {
    const { key } = await served.createKey({ user: 'errors', credits: 1 })
    expectEnvelope(await call('GET', '/api/public/v1/credits'), 401, 'invalid_api_key')
    expectEnvelope(
      await call('GET', '/api/public/v1/credits', {
        key: key.slice(0, -1) + (key.endsWith('a') ? 'b' : 'a'),
      }),
      401,
      'invalid_api_key',
    )
    expectEnvelope(
      await call('GET', '/api/public/v1/credits', { headers: { authorization: 'Basic Zm9vOmJhcg==' } }),
      401,
      'invalid_api_key',
    )
    expectEnvelope(
      await call('POST', '/api/public/v1/checks/run', { key, body: { url: 'ftp://example.com/' } }),
      400,
      'invalid_url',
    )
    expectEnvelope(await call('POST', '/api/public/v1/checks/run', { key, body: {} }), 400, 'invalid_url')
    expectEnvelope(
      await call('POST', '/api/public/v1/checks/run', {
        key,
        raw: '{"url": ',
        headers: { 'content-type': 'application/json' },
      }),
      400,
      'invalid_url',
    )
    expectEnvelope(
      await call('POST', '/api/public/v1/checks/run', {
        key,
        raw: 'url=x',
        headers: { 'content-type': 'text/plain' },
      }),
      400,
      'invalid_url',
    )
    expectEnvelope(
      await call('POST', '/api/public/v1/checks/run', {
        key,
        body: { url: 'http://example.com/' + 'a'.repeat(17_000) },
      }),
      400,
      'invalid_url',
    )
    expectEnvelope(
      await call('POST', '/api/public/v1/checks/run', {
        key,
        body: { url: 'http://example.com/' + 'a'.repeat(2100) },
      }),
      400,
      'invalid_url',
    )
    expectEnvelope(
      await call('POST', '/api/public/v1/checks/run', { key, body: { url: 'http://user:pw@example.com/' } }),
      400,
      'invalid_url',
    )
    expectEnvelope(
      await call('POST', '/api/public/v1/checks/run', { key, body: { url: target.closedUrl } }),
      502,
      'check_failed',
    )
    // nothing above was charged
    expect((await call('GET', '/api/public/v1/credits', { key })).body.credits_remaining).toBe(1)
    expect((await call('POST', '/api/public/v1/checks/run', { key, body: { url: target.url } })).status).toBe(
      200,
    )
    expectEnvelope(
      await call('POST', '/api/public/v1/checks/run', { key, body: { url: target.url } }),
      402,
      'insufficient_credits',
    )
    expectEnvelope(await call('GET', '/api/public/v1/checks/recent?limit=7', { key }), 400, 'invalid_url')
    expectEnvelope(
      await call('GET', '/api/public/v1/checks/recent?cursor=yesterday', { key }),
      400,
      'invalid_url',
    )
    expectEnvelope(await call('GET', '/api/public/v1/checks/not-a-uuid', { key }), 400, 'invalid_url')
    expectEnvelope(
      await call('GET', '/api/public/v1/checks/00000000-0000-4000-8000-000000000000', { key }),
      404,
      'not_found',
    )
    expectEnvelope(await call('GET', '/api/public/v1/nope'), 404, 'not_found')
    expectEnvelope(await call('GET', '/%ZZ'), 400, 'invalid_url')
    const wrong = await call('DELETE', '/api/public/v1/checks/run', { key })
    expectEnvelope(wrong, 405, 'method_not_allowed')
    expect(wrong.headers.get('allow')).toBe('POST')
    expectEnvelope(await call('GET', '/api/v1/check'), 405, 'method_not_allowed')
  })

  it("returns 404 with an identical body for another user's check id", async () => {
    const a = await served.createKey({ user: 'alice', credits: 2 })
    const b = await served.createKey({ user: 'bob', credits: 2 })
    const run = await call('POST', '/api/public/v1/checks/run', { key: a.key, body: { url: target.url } })
    const theirs = await call('GET', `/api/public/v1/checks/${run.body.data.id}`, { key: b.key })
    const none = await call('GET', '/api/public/v1/checks/00000000-0000-4000-8000-000000000000', {
      key: b.key,
    })
    expectEnvelope(theirs, 404, 'not_found')
    expect(theirs.body.error.message).toBe(none.body.error.message)
    expect((await call('GET', '/api/public/v1/checks/recent', { key: b.key })).body.checks).toEqual([])
  })

  it('refuses a revoked key with revoked_api_key, and lists keys without secrets', async () => {
    const k = await served.createKey({ user: 'revokee', credits: 1 })
    const admin = { authorization: `Bearer ${served.adminToken}` }
    const rev = await call('POST', `/api/admin/v1/keys/${k.id}/revoke`, { headers: admin })
    expect(rev.status).toBe(200)
    expect(validate('KeyRevoked', rev.body)).toEqual([])
    expectEnvelope(await call('GET', '/api/public/v1/credits', { key: k.key }), 401, 'revoked_api_key')
    const list = await call('GET', '/api/admin/v1/keys', { headers: admin })
    expect(validate('KeyList', list.body)).toEqual([])
    expect(JSON.stringify(list.body)).not.toContain(k.key)
    const mine = list.body.keys.find((x: any) => x.id === k.id)
    expect(mine.revoked_at).toEqual(expect.any(String))
    expectEnvelope(
      await call('GET', '/api/admin/v1/keys', { headers: { authorization: 'Bearer nope' } }),
      401,
      'invalid_api_key',
    )
    const grant = await call('POST', '/api/admin/v1/users/revokee/credits', {
      headers: admin,
      body: { amount: 5 },
    })
    expect(grant.body).toEqual({ user_id: 'revokee', credits_remaining: 6 })
    expectEnvelope(
      await call('POST', '/api/admin/v1/users/revokee/credits', { headers: admin, body: { amount: -5 } }),
      400,
      'invalid_url',
    )
  })

  it('never overspends: 12 concurrent runs with 5 credits give exactly 5 successes and a zero balance', async () => {
    const { key } = await served.createKey({ user: 'racer', credits: 5 })
    const results = await Promise.all(
      Array.from({ length: 12 }, () =>
        call('POST', '/api/public/v1/checks/run', { key, body: { url: target.url } }),
      ),
    )
    const statuses = results.map((r) => r.status).sort()
    expect(statuses.filter((s) => s === 200)).toHaveLength(5)
    expect(statuses.filter((s) => s === 402)).toHaveLength(7)
    expect((await call('GET', '/api/public/v1/credits', { key })).body.credits_remaining).toBe(0)
    expect((await call('GET', '/api/public/v1/checks/recent', { key })).body.checks).toHaveLength(5)
  })

  it('pages through 60 checks with each limit, with no gap and no repeat', async () => {
    const { key } = await served.createKey({ user: 'pager', credits: 60 })
    const ids: string[] = []
    for (let i = 0; i < 60; i++) {
      const r = await call('POST', '/api/v1/check', { key, body: { url: `${target.url}?n=${i}` } })
      expect(r.status).toBe(200)
      ids.push(r.body.data.id)
    }
    const newestFirst = [...ids].reverse()
    for (const limit of [10, 25, 50]) {
      const seen: string[] = []
      let cursor: string | null = null
      let pages = 0
      do {
        const q: string = `?limit=${limit}` + (cursor ? `&cursor=${encodeURIComponent(cursor)}` : '')
        const page = await call('GET', `/api/public/v1/checks/recent${q}`, { key })
        expect(validate('RecentChecks', page.body)).toEqual([])
        expect(page.body.checks.length).toBeLessThanOrEqual(limit)
        seen.push(...page.body.checks.map((c: any) => c.id))
        cursor = page.body.next_cursor
        pages++
      } while (cursor && pages < 20)
      expect(seen).toEqual(newestFirst)
      expect(pages).toBe(Math.ceil(60 / limit))
    }
  })
})

describe('rate limits', () => {
  it('shares one run counter across both run routes, with Retry-After, per key, and resets', async () => {
    const target = await startTarget()
    const served = await startServe({ args: ['--run-limit', '3', '--run-window', '2'] })
    try {
      const call = api(served.url)
      const a = await served.createKey({ user: 'limited', credits: 20 })
      const b = await served.createKey({ user: 'limited', credits: 20 })
      expect(
        (await call('POST', '/api/public/v1/checks/run', { key: a.key, body: { url: target.url } })).status,
      ).toBe(200)
      expect((await call('POST', '/api/v1/check', { key: a.key, body: { url: target.url } })).status).toBe(
        200,
      )
      // a 400 counts too
      expect((await call('POST', '/api/v1/check', { key: a.key, body: { url: 'nope' } })).status).toBe(400)
      const limited = await call('POST', '/api/public/v1/checks/run', {
        key: a.key,
        body: { url: target.url },
      })
      expectEnvelope(limited, 429, 'rate_limited')
      const retry = Number(limited.headers.get('retry-after'))
      expect(retry).toBeGreaterThanOrEqual(1)
      expect(retry).toBeLessThanOrEqual(2)
      expect(limited.headers.get('ratelimit')).toMatch(/^"run";r=0;t=\d+$/)
      // another key of the same user is unaffected
      expect(
        (await call('POST', '/api/public/v1/checks/run', { key: b.key, body: { url: target.url } })).status,
      ).toBe(200)
      // nothing was charged for the 429
      expect((await call('GET', '/api/public/v1/credits', { key: a.key })).body.credits_remaining).toBe(17)
      await new Promise((r) => setTimeout(r, retry * 1000 + 100))
      expect(
        (await call('POST', '/api/public/v1/checks/run', { key: a.key, body: { url: target.url } })).status,
      ).toBe(200)
    } finally {
      await served.stop()
      await target.close()
    }
  })
})

describe('storage through serve', () => {
  it(
    'keeps data across a restart and refuses a second serve on the same data dir',
    { timeout: 90_000 },
    async () => {
      const target = await startTarget()
      const first = await startServe()
      const { key } = await first.createKey({ user: 'keeper', credits: 3 })
      const call1 = api(first.url)
      const run = await call1('POST', '/api/public/v1/checks/run', { key, body: { url: target.url } })
      expect(run.status).toBe(200)

      await expect(startServe({ dataDir: first.dataDir })).rejects.toThrow(/already|lock|in use/i)

      await first.stop({ keepData: true })
      const second = await startServe({ dataDir: first.dataDir })
      try {
        const call2 = api(second.url)
        expect(second.adminToken).toBe(first.adminToken)
        const got = await call2('GET', `/api/public/v1/checks/${run.body.data.id}`, { key })
        expect(got.status).toBe(200)
        expect(got.body.id).toBe(run.body.data.id)
        expect((await call2('GET', '/api/public/v1/credits', { key })).body.credits_remaining).toBe(2)
      } finally {
        await second.stop()
        const { rm } = await import('node:fs/promises')
        await rm(first.dataDir, { recursive: true, force: true })
        await target.close()
      }
    },
  )

  it('loses nothing acknowledged when serve is killed with SIGKILL mid-stream', async () => {
    const target = await startTarget()
    const first = await startServe({ args: ['--run-limit', '100000', '--quiet'] })
    const { key } = await first.createKey({ user: 'crash', credits: 1000 })
    const call1 = api(first.url)
    const acked: string[] = []
    let stop = false
    const writers = Array.from({ length: 4 }, async () => {
      while (!stop) {
        try {
          const r = await call1('POST', '/api/public/v1/checks/run', { key, body: { url: target.url } })
          if (r.status === 200) acked.push(r.body.data.id)
        } catch {
          return // the server died under us
        }
      }
    })
    // kill mid-stream once the stream is under way (a few acknowledged, more in flight); the
    // wait is bounded by acknowledgements, not by a wall-clock guess a loaded machine can miss
    const started = Date.now()
    while (acked.length < 6 && Date.now() - started < 20_000) await new Promise((r) => setTimeout(r, 20))
    first.proc.kill('SIGKILL')
    stop = true
    await Promise.all(writers)
    await first.proc
    expect(acked.length).toBeGreaterThan(5)

    const second = await startServe({ dataDir: first.dataDir, args: ['--rate-limit', '100000'] })
    try {
      const call2 = api(second.url)
      for (const id of acked)
        expect((await call2('GET', `/api/public/v1/checks/${id}`, { key })).status).toBe(200)
      let saved = 0
      let cursor: string | null = null
      do {
        const page: Res = await call2(
          'GET',
          `/api/public/v1/checks/recent?limit=50${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
          { key },
        )
        saved += page.body.checks.length
        cursor = page.body.next_cursor
      } while (cursor)
      expect(saved).toBeGreaterThanOrEqual(acked.length)
      expect((await call2('GET', '/api/public/v1/credits', { key })).body.credits_remaining).toBe(
        1000 - saved,
      )
    } finally {
      await second.stop()
      const { rm } = await import('node:fs/promises')
      await rm(first.dataDir, { recursive: true, force: true })
      await target.close()
    }
  })
})

describe('serve operations', () => {
  it('logs one line per request without the Authorization header, and never writes secrets to disk', async () => {
    const target = await startTarget()
    const served = await startServe()
    try {
      const call = api(served.url)
      const { key } = await served.createKey({ user: 'logged', credits: 2 })
      await call('GET', '/api/public/v1/credits', { key })
      await call('POST', '/api/public/v1/checks/run', { key, body: { url: target.url } })
      await call('GET', '/api/public/v1/nope')
      await new Promise((r) => setTimeout(r, 200))
      const lines = served.output().split('\n')
      const access = lines.filter((l) => / \/api\/[^ ]* \d{3} [\d.]+ms [0-9a-f-]{36}$/.test(l))
      expect(access.some((l) => l.includes('GET /api/public/v1/credits 200'))).toBe(true)
      expect(access.some((l) => l.includes('POST /api/public/v1/checks/run 200'))).toBe(true)
      expect(access.some((l) => l.includes('GET /api/public/v1/nope 404'))).toBe(true)
      expect(served.output()).not.toContain(key)
      expect(served.output()).not.toMatch(/bearer/i)
      const { readdir, readFile, stat } = await import('node:fs/promises')
      const files = (await readdir(served.dataDir, { recursive: true })) as string[]
      for (const f of files) {
        const full = `${served.dataDir}/${f}`
        const st = await stat(full)
        if (!st.isFile()) continue
        expect((st.mode & 0o777).toString(8), f).toBe('600')
        expect(await readFile(full, 'utf8')).not.toContain(key)
      }
    } finally {
      await served.stop()
      await target.close()
    }
  })

  it('answers an unexpected storage failure with internal_error, no detail, and no charge', async () => {
    const target = await startTarget()
    const served = await startServe()
    try {
      const call = api(served.url)
      const { key } = await served.createKey({ user: 'broken', credits: 3 })
      // Sabotage: a plain file where the user's check directory must go.
      const { mkdir, rm, writeFile } = await import('node:fs/promises')
      await mkdir(`${served.dataDir}/checks`, { recursive: true })
      const userDir = `${served.dataDir}/checks/u${Buffer.from('broken').toString('hex')}`
      await rm(userDir, { recursive: true, force: true })
      await writeFile(userDir, 'not a directory')
      const r = await call('POST', '/api/public/v1/checks/run', { key, body: { url: target.url } })
      expectEnvelope(r, 500, 'internal_error')
      expect(r.body.error.message).not.toMatch(/ENOTDIR|EEXIST|checks\/|\.json/)
      expect((await call('GET', '/api/public/v1/credits', { key })).body.credits_remaining).toBe(3)
      expect((await call('GET', '/api/public/v1/health')).status).toBe(200)
    } finally {
      await served.stop()
      await target.close()
    }
  })

  it('on SIGTERM stops accepting, lets a running check finish, and exits 0', async () => {
    const slow = createServer((_req, res) => {
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'text/html' })
        res.end('<p>slow</p>')
      }, 1500)
    })
    await new Promise<void>((r) => slow.listen(0, '127.0.0.1', r))
    const slowUrl = `http://127.0.0.1:${(slow.address() as AddressInfo).port}/`
    const served = await startServe()
    try {
      const call = api(served.url)
      const { key } = await served.createKey({ user: 'graceful', credits: 2 })
      const running = call('POST', '/api/public/v1/checks/run', { key, body: { url: slowUrl } })
      await new Promise((r) => setTimeout(r, 400))
      served.proc.kill('SIGTERM')
      await new Promise((r) => setTimeout(r, 200))
      await expect(fetch(`${served.url}/api/public/v1/health`)).rejects.toThrow()
      const done = await running
      expect(done.status).toBe(200)
      const result = await served.proc
      expect(result.exitCode).toBe(0)
      const again = await startServe({ dataDir: served.dataDir })
      try {
        const got = await api(again.url)('GET', `/api/public/v1/checks/${done.body.data.id}`, { key })
        expect(got.status).toBe(200)
      } finally {
        await again.stop()
      }
    } finally {
      await served.stop()
      await new Promise<void>((r) => slow.close(() => r()))
    }
  })
})
