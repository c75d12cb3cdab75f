/**
 * Several `serve` processes on one PostgreSQL database acting as one service (docs/decisions.md#scale-out), the db
 * commands, and the ways a database setting goes wrong. Each test gets its own fresh database.
 */
import { randomBytes } from 'node:crypto'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { execa } from 'execa'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { deriveSecretKey, secretBox } from '../../src/shared/secret-box.js'
import { CLI, startServe, type Served } from '../helpers/serve.js'
import { describePg, freshDatabase, query } from '../store/postgres/pg.js'
import { MIGRATIONS } from '../../src/store/postgres/migrations/index.js'

const TOKEN = `sha_admin_${randomBytes(24).toString('base64url')}`
const NO_LIMITS = ['--run-limit', '100000', '--rate-limit', '100000']

let db: Awaited<ReturnType<typeof freshDatabase>>
const servers: Served[] = []
const closers: (() => Promise<void>)[] = []

async function serve(extra: string[] = [], env: Record<string, string> = {}): Promise<Served> {
  const s = await startServe({
    args: ['--database-url', db.url, ...NO_LIMITS, ...extra],
    env: { SITEHEALTH_ADMIN_TOKEN: TOKEN, ...env },
  })
  servers.push(s)
  return s
}

/** A local target answering after `delayMs`. */
async function target(delayMs = 0): Promise<string> {
  const server = createServer((_req, res) => {
    setTimeout(() => {
      res.writeHead(200, { 'content-type': 'text/html' })
      res.end('<!doctype html><title>t</title><p>hello</p>')
    }, delayMs)
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  closers.push(
    () =>
      new Promise<void>((r) => {
        server.closeAllConnections()
        server.close(() => r())
      }),
  )
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
}

async function call(base: string, method: string, path: string, key?: string, body?: unknown) {
  const res = await fetch(base + path, {
    method,
    headers: {
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  })
  const text = await res.text()
  return { status: res.status, body: text ? JSON.parse(text) : undefined }
}

const run = (base: string, key: string, url: string) =>
  call(base, 'POST', '/api/public/v1/checks/run', key, { url })
const credits = async (base: string, key: string) =>
  (await call(base, 'GET', '/api/public/v1/credits', key)).body.credits_remaining as number

async function allIds(base: string, key: string): Promise<string[]> {
  const ids: string[] = []
  let cursor: string | null = null
  for (;;) {
    const r = await call(
      base,
      'GET',
      `/api/public/v1/checks/recent?limit=50${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      key,
    )
    expect(r.status).toBe(200)
    ids.push(...r.body.checks.map((c: { id: string }) => c.id))
    cursor = r.body.next_cursor
    if (!cursor) return ids
  }
}

function cli(args: string[], env: Record<string, string> = {}) {
  return execa('node', [CLI, ...args], { reject: false, env: { NO_COLOR: '1', ...env }, timeout: 60_000 })
}

function expectOneLineError(r: { exitCode?: number; stdout: string; stderr: string }, pattern: RegExp) {
  expect(r.exitCode, r.stderr).not.toBe(0)
  expect(r.stderr.trim().split('\n'), r.stderr).toHaveLength(1)
  expect(r.stderr).toMatch(/^Error: /)
  expect(r.stderr).not.toMatch(/\bat .+:\d+:\d+/)
  expect(r.stderr).toMatch(pattern)
}

describePg('several serve instances on one PostgreSQL database', () => {
  beforeEach(async () => {
    db = await freshDatabase()
  })
  afterEach(async () => {
    for (const s of servers.splice(0)) await s.stop({ signal: 'SIGKILL' }).catch(() => {})
    for (const c of closers.splice(0)) await c()
    await db.drop()
  })

  it(
    'two instances starting at once on an empty database both come up; migrations ran once',
    { timeout: 60_000 },
    async () => {
      const [a, b] = await Promise.all([serve(), serve()])
      const migrations = await query(db.url, 'SELECT name FROM sitehealth_migration')
      // every known migration, each exactly once
      expect(migrations.map((r) => r.name)).toEqual(Object.keys(MIGRATIONS).sort())
      for (const s of [a, b]) expect((await call(s.url, 'GET', '/api/public/v1/health')).status).toBe(200)
    },
  )

  it('shares credits, keys, revocations and checks between instances', { timeout: 240_000 }, async () => {
    const [a, b] = await Promise.all([serve(), serve()])
    const url = await target()
    const { key, id } = await a.createKey({ user: 'shared', credits: 5 })

    // 50 concurrent runs over both instances on 5 credits: exactly 5 succeed
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => run(i % 2 ? a.url : b.url, key, url)),
    )
    const ok = results.filter((r) => r.status === 200)
    expect(ok).toHaveLength(5)
    expect(results.filter((r) => r.status === 402)).toHaveLength(45)
    expect(await credits(a.url, key)).toBe(0)
    expect(await credits(b.url, key)).toBe(0)

    // a check saved through one is readable through the other, and listed by both the same way
    for (const r of ok) {
      const got = await call(b.url, 'GET', `/api/public/v1/checks/${r.body.data.id}`, key)
      expect(got.status).toBe(200)
      expect(got.body.id).toBe(r.body.data.id)
    }
    expect(await allIds(a.url, key)).toEqual(await allIds(b.url, key))

    // a key revoked through one instance is refused by the other within 5 s
    expect((await call(b.url, 'GET', '/api/public/v1/credits', key)).status).toBe(200) // cached on b
    const revoked = await call(a.url, 'POST', `/api/admin/v1/keys/${id}/revoke`, TOKEN)
    expect(revoked.status).toBe(200)
    const t0 = Date.now()
    let status = 200
    while (Date.now() - t0 < 6000) {
      status = (await call(b.url, 'GET', '/api/public/v1/credits', key)).status
      if (status === 401) break
      await new Promise((r) => setTimeout(r, 100))
    }
    expect(status).toBe(401)
    expect(Date.now() - t0).toBeLessThan(5000)
  })

  it(
    'the dashboard on two instances: signed up on one, signed in on the other; a login approved on one is collected on the other',
    { timeout: 120_000 },
    async () => {
      const [a, b] = await Promise.all([serve(['--signup', 'open']), serve(['--signup', 'open'])])
      const first = await fetch(a.url)
      const csrf = /sh_csrf=([^;]+)/.exec(first.headers.get('set-cookie') ?? '')![1]
      const signUp = await fetch(`${a.url}/sign-up`, {
        method: 'POST',
        redirect: 'manual',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          cookie: `sh_csrf=${csrf}`,
          origin: a.url,
        },
        body: `email=dora%40example.com&password=correct+horse+battery&_csrf=${csrf}`,
      })
      expect(signUp.status).toBe(303)
      // sign-up never signs in (it answers alike for taken emails): sign in through the other instance
      const signIn = await fetch(`${b.url}/sign-in`, {
        method: 'POST',
        redirect: 'manual',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          cookie: `sh_csrf=${csrf}`,
          origin: b.url,
        },
        body: `email=dora%40example.com&password=correct+horse+battery&_csrf=${csrf}`,
      })
      expect(signIn.status).toBe(303)
      const session = /sh_session=([^;]+)/.exec(signIn.headers.get('set-cookie') ?? '')![1]
      const cookie = `sh_session=${session}`

      // `sitehealth login`: the code is asked of b, polled on a, approved on b with a page of a
      const code = await call(b.url, 'POST', '/api/auth/v1/device/code', undefined, { name: 'laptop' })
      expect(code.status).toBe(200)
      const poll = () =>
        call(a.url, 'POST', '/api/auth/v1/device/token', undefined, { device_code: code.body.device_code })
      expect((await poll()).body.error.code).toBe('authorization_pending')
      const page = await fetch(`${a.url}/device?code=${code.body.user_code}`, { headers: { cookie } })
      expect(page.status).toBe(200)
      const html = await page.text()
      expect(html).toContain('laptop')
      const token = /name="_csrf" value="([^"]+)"/.exec(html)![1]
      const approve = await fetch(`${b.url}/device`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, origin: b.url },
        body: `code=${code.body.user_code}&decision=approve&_csrf=${token}`,
      })
      expect(approve.status).toBe(200)
      await new Promise((r) => setTimeout(r, 2600)) // RFC 8628 slow_down otherwise: the poll time is shared
      const collected = await poll()
      expect(collected.status, JSON.stringify(collected.body)).toBe(200)
      expect((await call(b.url, 'GET', '/api/public/v1/credits', collected.body.key)).status).toBe(200)

      // signing out through b ends the session a sees
      expect((await fetch(a.url, { headers: { cookie }, redirect: 'manual' })).status).toBe(200)
      const signOut = await fetch(`${b.url}/sign-out`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, origin: b.url },
        body: `_csrf=${token}`,
      })
      expect(signOut.status).toBe(303)
      const after = await fetch(`${a.url}/account`, { headers: { cookie }, redirect: 'manual' })
      expect(after.status).not.toBe(200)
    },
  )

  it(
    'kill -9 of one instance mid-stream loses no acknowledged check; its reservations return after the lease',
    { timeout: 240_000 },
    async () => {
      const LEASE = 4
      const args = ['--reservation-lease', String(LEASE), '--check-timeout', '3']
      const [a, b] = await Promise.all([serve(args), serve(args)])
      const slow = await target(400)
      const INITIAL = 1000
      const { key } = await b.createKey({ user: 'stream', credits: INITIAL })
      const acked: string[] = []
      let stop = false
      const worker = async (base: string) => {
        while (!stop) {
          const r = await run(base, key, slow).catch(() => undefined)
          if (r?.status === 200) acked.push(r.body.data.id)
          else if (base === a.url) return // a is gone
        }
      }
      const workers = [...Array.from({ length: 6 }, () => worker(a.url)), worker(b.url)]
      while (acked.length < 15) await new Promise((r) => setTimeout(r, 50))
      // a has checks in flight, each holding a reservation
      a.proc.kill('SIGKILL')
      await a.proc
      await new Promise((r) => setTimeout(r, 300))
      stop = true
      await Promise.all(workers)

      const saved = await allIds(b.url, key)
      for (const id of acked) expect(saved).toContain(id)
      const used = (
        await query(db.url, 'SELECT credits_used, credits_held FROM users WHERE id = $1', ['stream'])
      )[0]
      expect(Number(used.credits_used)).toBe(saved.length)
      expect(Number(used.credits_held)).toBeGreaterThan(0) // a's open reservations
      // within the lease plus a sweep or two, every held credit is back
      const deadline = Date.now() + (LEASE + 12) * 1000
      let remaining = await credits(b.url, key)
      while (remaining !== INITIAL - saved.length && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 250))
        remaining = await credits(b.url, key)
      }
      expect(remaining).toBe(INITIAL - saved.length)
      const held = await query(db.url, 'SELECT count(*)::int AS n FROM reservations')
      const deadline2 = Date.now() + 10_000
      let n = held[0].n as number
      while (n > 0 && Date.now() < deadline2) {
        await new Promise((r) => setTimeout(r, 250))
        n = (await query(db.url, 'SELECT count(*)::int AS n FROM reservations'))[0].n as number
      }
      expect(n).toBe(0)
      expect(
        Number(
          (await query(db.url, 'SELECT credits_held FROM users WHERE id = $1', ['stream']))[0].credits_held,
        ),
      ).toBe(0)
    },
  )

  it(
    'db import copies an embedded data dir once: balances, ids, order and paging identical; monitors and accounts too',
    { timeout: 240_000 },
    async () => {
      const url = await target()
      const embedded = await startServe({ args: [...NO_LIMITS, '--min-interval', '1'] })
      const alice = await embedded.createKey({ user: 'alice', credits: 40 })
      const bob = await embedded.createKey({ user: 'bob', credits: 3 })
      const gone = await embedded.createKey({ user: 'bob', credits: 3, name: 'old' })
      for (let i = 0; i < 27; i++) expect((await run(embedded.url, alice.key, url)).status).toBe(200)
      expect((await run(embedded.url, bob.key, url)).status).toBe(200)
      expect(
        (await call(embedded.url, 'POST', `/api/admin/v1/keys/${gone.id}/revoke`, embedded.adminToken))
          .status,
      ).toBe(200)
      // a monitor with a signed webhook channel, and some history
      const created = await call(embedded.url, 'POST', '/api/public/v1/monitors', alice.key, {
        url,
        interval_seconds: 1,
        channels: [{ type: 'webhook', url: `${url}hook` }],
      })
      expect(created.status, JSON.stringify(created.body)).toBe(201)
      const monitorId = created.body.id as string
      const secret = created.body.channels[0].secret as string
      const history = (kind: 'runs' | 'events', base: string, key: string) =>
        call(base, 'GET', `/api/public/v1/monitors/${monitorId}/${kind}?limit=50`, key)
      const t0 = Date.now()
      while (
        (await history('runs', embedded.url, alice.key)).body.runs.length < 2 &&
        Date.now() - t0 < 20_000
      )
        await new Promise((r) => setTimeout(r, 200))
      expect(
        (
          await call(embedded.url, 'PATCH', `/api/public/v1/monitors/${monitorId}`, alice.key, {
            paused: true,
          })
        ).status,
      ).toBe(200)
      // a weekly maintenance window of that monitor
      const windowCreated = await call(
        embedded.url,
        'POST',
        '/api/public/v1/maintenance-windows',
        alice.key,
        {
          name: 'Saturday backup',
          monitor_ids: [monitorId],
          weekly: { days: ['sat'], start: '02:00', duration_minutes: 90, timezone: 'Europe/Berlin' },
        },
      )
      expect(windowCreated.status, JSON.stringify(windowCreated.body)).toBe(201)
      // an account made by the admin, with its set-password link
      const user = await call(embedded.url, 'POST', '/api/admin/v1/users', embedded.adminToken, {
        email: 'carol@example.com',
        credits: 9,
      })
      expect(user.status, JSON.stringify(user.body)).toBe(201)
      const setupPath = new URL(user.body.setup_url as string).pathname

      const before = {
        alice: await allIds(embedded.url, alice.key),
        bob: await allIds(embedded.url, bob.key),
        monitor: (await call(embedded.url, 'GET', `/api/public/v1/monitors/${monitorId}`, alice.key)).body,
        runs: (await history('runs', embedded.url, alice.key)).body.runs,
        events: (await history('events', embedded.url, alice.key)).body.events,
        uptime: (
          await call(
            embedded.url,
            'GET',
            `/api/public/v1/monitors/${monitorId}/uptime?granularity=hour&from=${new Date(Date.now() - 86_400_000).toISOString()}`,
            alice.key,
          )
        ).body,
        users: (await call(embedded.url, 'GET', '/api/admin/v1/users', embedded.adminToken)).body.users,
      }
      expect(before.runs.length).toBeGreaterThanOrEqual(2)
      const keysBefore = (await call(embedded.url, 'GET', '/api/admin/v1/keys', embedded.adminToken)).body
        .keys
      await embedded.stop({ keepData: true })

      const importArgs = ['db', 'import', '--data-dir', embedded.dataDir, '--database-url', db.url]
      // the webhook secret cannot be re-sealed without the instances' key: nothing is copied
      const keyless = await cli(importArgs, { SITEHEALTH_ADMIN_TOKEN: '', SITEHEALTH_SECRET_KEY: '' })
      expectOneLineError(keyless, /SITEHEALTH_ADMIN_TOKEN/)
      expect(await query(db.url, "SELECT to_regclass('users') AS t")).toEqual([{ t: 'users' }])
      expect(await query(db.url, 'SELECT count(*)::int AS n FROM users')).toEqual([{ n: 0 }])

      const env = { SITEHEALTH_ADMIN_TOKEN: TOKEN }
      const first = await cli([...importArgs, '--json'], env)
      expect(first.exitCode, first.stderr).toBe(0)
      expect(JSON.parse(first.stdout)).toEqual({
        users: { copied: 3, present: 0 },
        keys: { copied: 3, present: 0, revoked: 1 },
        checks: {
          copied: 28 + before.runs.filter((r: { check_id: string | null }) => r.check_id).length,
          present: 0,
        },
        monitors: {
          copied: 1,
          present: 0,
          runs: before.runs.length,
          events: before.events.length,
          // its hour and its day (two of each when the runs crossed an hour)
          rollups: expect.toSatisfy((n: number) => n >= 2 && n <= 4),
          incidents: 0,
        },
        accounts: { copied: 1, present: 0, sessions: 0, invites: 1, device_grants: 0 },
        status_pages: { copied: 0, present: 0 },
        maintenance_windows: { copied: 1, present: 0 },
      })
      const second = await cli(importArgs, env)
      expect(second.exitCode, second.stderr).toBe(0)
      expect(second.stdout).toMatch(/users\s+0 copied, 3 already there/)
      expect(second.stdout).toMatch(/keys\s+0 copied \(0 revoked\), 3 already there/)
      expect(second.stdout).toMatch(/checks\s+0 copied, \d+ already there/)
      expect(second.stdout).toMatch(
        /monitors\s+0 copied \(0 runs, 0 events, 0 uptime buckets, 0 incidents\), 1 already there/,
      )
      expect(second.stdout).toMatch(
        /accounts\s+0 copied \(0 sessions, 0 invites, 0 login requests\), 1 already there/,
      )

      const pgServe = await serve()
      const alicePaged = await allIds(pgServe.url, alice.key)
      expect(alicePaged).toEqual(await allIds(pgServe.url, alice.key))
      expect(alicePaged).toEqual(before.alice)
      expect(await allIds(pgServe.url, bob.key)).toEqual(before.bob)
      expect(await credits(pgServe.url, alice.key)).toBe(40 - before.alice.length)
      expect(await credits(pgServe.url, bob.key)).toBe(3 - 1)
      expect((await call(pgServe.url, 'GET', '/api/public/v1/credits', gone.key)).status).toBe(401)
      const keysAfter = (await call(pgServe.url, 'GET', '/api/admin/v1/keys', TOKEN)).body.keys
      expect(keysAfter.map((k: { id: string; revoked_at: string | null }) => [k.id, k.revoked_at])).toEqual(
        keysBefore.map((k: { id: string; revoked_at: string | null }) => [k.id, k.revoked_at]),
      )
      // the monitor, its history and its channel, the secret sealed with the instances' key
      expect(
        (await call(pgServe.url, 'GET', `/api/public/v1/monitors/${monitorId}`, alice.key)).body,
      ).toEqual(before.monitor)
      expect((await history('runs', pgServe.url, alice.key)).body.runs).toEqual(before.runs)
      expect((await history('events', pgServe.url, alice.key)).body.events).toEqual(before.events)
      // its uptime, from the rollups carried over
      expect(before.uptime.runs).toBeGreaterThanOrEqual(before.runs.length)
      expect(
        (
          await call(
            pgServe.url,
            'GET',
            `/api/public/v1/monitors/${monitorId}/uptime?granularity=hour&from=${encodeURIComponent(before.uptime.from)}&to=${encodeURIComponent(before.uptime.to)}`,
            alice.key,
          )
        ).body,
      ).toEqual(before.uptime)
      const [row] = await query(db.url, 'SELECT record FROM monitors WHERE id = $1', [monitorId])
      const sealed = row.record.channels[0].secrets as string
      expect(JSON.parse(secretBox(deriveSecretKey(TOKEN)).open(sealed)).signing_secret).toBe(secret)
      // the maintenance window
      expect(
        (
          await call(
            pgServe.url,
            'GET',
            `/api/public/v1/maintenance-windows/${windowCreated.body.id}`,
            alice.key,
          )
        ).body,
      ).toEqual(windowCreated.body)
      // the account and its set-password link work on PostgreSQL
      expect((await call(pgServe.url, 'GET', '/api/admin/v1/users', TOKEN)).body.users).toEqual(before.users)
      expect((await fetch(pgServe.url + setupPath)).status).toBe(200)
      expect(
        (await fetch(pgServe.url + setupPath.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')))).status,
      ).not.toBe(200)
      // new checks land after the imported ones
      const r = await run(pgServe.url, alice.key, url)
      expect(r.status).toBe(200)
      expect((await allIds(pgServe.url, alice.key))[0]).toBe(r.body.data.id)
      const { rm } = await import('node:fs/promises')
      await rm(embedded.dataDir, { recursive: true, force: true })
    },
  )

  it(
    'a key made in the dashboard through one instance shows its secret when the redirect lands on the other',
    { timeout: 60_000 },
    async () => {
      const [a, b] = await Promise.all([serve(['--signup', 'open']), serve(['--signup', 'open'])])
      const jar = new Map<string, string>()
      const send = async (base: string, path: string, form?: Record<string, string>) => {
        const res = await fetch(base + path, {
          method: form ? 'POST' : 'GET',
          redirect: 'manual',
          headers: {
            cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '),
            ...(form ? { 'content-type': 'application/x-www-form-urlencoded', origin: base } : {}),
          },
          body: form ? new URLSearchParams(form).toString() : undefined,
        })
        for (const c of res.headers.getSetCookie()) {
          const [pair] = c.split(';')
          const i = pair.indexOf('=')
          if (/Max-Age=0\b/.test(c)) jar.delete(pair.slice(0, i))
          else jar.set(pair.slice(0, i), pair.slice(i + 1))
        }
        return { status: res.status, location: res.headers.get('location'), html: await res.text() }
      }
      const csrf = (html: string) => /name="_csrf" value="([^"]+)"/.exec(html)![1]
      const signUp = await send(a.url, '/sign-up')
      const account = { email: 'ana@example.com', password: 'correct horse battery staple' }
      expect((await send(a.url, '/sign-up', { ...account, _csrf: csrf(signUp.html) })).status).toBe(303)
      expect((await send(b.url, '/sign-in', { ...account, _csrf: csrf(signUp.html) })).status).toBe(303)
      const keys = await send(b.url, '/keys')
      expect(keys.status).toBe(200)
      const created = await send(a.url, '/keys', { name: 'laptop', _csrf: csrf(keys.html) })
      expect([created.status, created.location]).toEqual([303, '/keys'])
      // the redirect answered by the other instance: the secret is there, once
      const shown = await send(b.url, '/keys')
      const secret = /shk_live_[A-Za-z0-9_-]+/.exec(shown.html)?.[0]
      expect(secret, 'the new key on the page').toBeDefined()
      expect((await call(a.url, 'GET', '/api/public/v1/credits', secret)).status).toBe(200)
      expect((await send(a.url, '/keys')).html).not.toContain(secret)
    },
  )

  it(
    'bad database settings: one clear line and a non-zero exit, never a stack trace',
    { timeout: 240_000 },
    async () => {
      const env = { SITEHEALTH_ADMIN_TOKEN: TOKEN }
      expectOneLineError(
        await cli(['serve', '--port', '0', '--database-url', 'postgres://postgres@127.0.0.1:1/x'], env),
        /connection refused/,
      )
      const wrong = new URL(db.url)
      wrong.pathname = '/no_such_database_here'
      expectOneLineError(
        await cli(['serve', '--port', '0', '--database-url', wrong.toString()], env),
        /does not exist/,
      )
      expectOneLineError(
        await cli(['serve', '--port', '0', '--database-url', 'mysql://x/y'], env),
        /postgres:\/\//,
      )
      const withPassword = new URL(db.url)
      withPassword.username = 'nobody'
      withPassword.password = 'hunter2secret'
      const auth = await cli(['db', 'migrate', '--database-url', withPassword.toString()])
      expectOneLineError(auth, /authentication failed|role .* does not exist/)
      expect(auth.stderr).not.toContain('hunter2secret')
      // no admin token with PostgreSQL
      expectOneLineError(
        await cli(['serve', '--port', '0', '--database-url', db.url], { SITEHEALTH_ADMIN_TOKEN: '' }),
        /SITEHEALTH_ADMIN_TOKEN is required/,
      )
      // a database migrated by a newer sitehealth
      const migrated = await cli(['db', 'migrate', '--database-url', db.url])
      expect(migrated.exitCode, migrated.stderr).toBe(0)
      expect(migrated.stdout).toMatch(/applied 0001-initial/)
      expect((await cli(['db', 'migrate', '--database-url', db.url])).stdout).toMatch(/up to date/)
      await query(
        db.url,
        "INSERT INTO sitehealth_migration (name, timestamp) VALUES ('0099-from-the-future', now()::text)",
      )
      expectOneLineError(
        await cli(['serve', '--port', '0', '--database-url', db.url], env),
        /newer than this sitehealth.*0099-from-the-future/,
      )
      expectOneLineError(await cli(['db', 'migrate', '--database-url', db.url]), /newer than this sitehealth/)
      // db import of a data dir that does not exist
      expectOneLineError(
        await cli(['db', 'import', '--data-dir', '/nonexistent/sitehealth', '--database-url', db.url]),
        /No data directory/,
      )
    },
  )
})
