/**
 * Monitors end to end (issue 13's test list): the built CLI's `serve` with --min-interval 1 so a
 * schedule runs in seconds, local HTTPS sites trusted through the test CA, and a local webhook
 * receiver. Every wait is bounded.
 */
import { createHmac, timingSafeEqual } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeTestPki, type TestPki } from '../fixtures/certs.js'
import { startServe, UNLIMITED, type Served } from '../helpers/serve.js'
import {
  startFlappySite,
  startReceiver,
  waitFor,
  type FlappySite,
  type Receiver,
} from '../monitors/fixtures.js'
import { callApi } from '../helpers/api.js'

let pki: TestPki
let site: FlappySite
let expiring: FlappySite
let receiver: Receiver
let served: Served

const FLAGS = [
  '--min-interval',
  '1',
  '--alert-backoff',
  '50',
  '--catch-up-window',
  '1',
  ...UNLIMITED,
  '--quiet',
]

/** The public API with `key`. */
const api = (key: string, method: string, path: string, body?: unknown, base = served.url) =>
  callApi(base, key, method, path, body)

/** The receiver's check of a webhook: the documented HMAC over "<timestamp>.<body>". */
function verify(secret: string, hook: { headers: Record<string, unknown>; body: string }): boolean {
  const ts = String(hook.headers['x-sitehealth-timestamp'])
  const got = String(hook.headers['x-sitehealth-signature'])
  const want = `sha256=${createHmac('sha256', secret).update(`${ts}.${hook.body}`).digest('hex')}`
  return got.length === want.length && timingSafeEqual(Buffer.from(got), Buffer.from(want))
}

async function events(key: string, id: string) {
  return (await api(key, 'GET', `/monitors/${id}/events?limit=50`)).body.events as any[]
}
async function runs(key: string, id: string) {
  return (await api(key, 'GET', `/monitors/${id}/runs?limit=50`)).body.runs as any[]
}

beforeAll(async () => {
  pki = await makeTestPki()
  site = await startFlappySite(pki.valid)
  expiring = await startFlappySite(pki.expiringSoon)
  receiver = await startReceiver()
  served = await startServe({ args: FLAGS, env: { NODE_EXTRA_CA_CERTS: pki.caPath } })
}, 120_000)

afterAll(async () => {
  await served?.stop()
  await site?.close()
  await expiring?.close()
  await receiver?.close()
})

describe('monitor states and alerts', () => {
  it('a site that goes down and comes back raises one monitor.down after down_after runs and one monitor.up, signed', async () => {
    const { key } = await served.createKey({ user: 'flap', credits: 200 })
    const created = await api(key, 'POST', '/monitors', {
      url: site.url('/flap'),
      interval_seconds: 1,
      alerts: { down_after: 2 },
      channels: [{ type: 'webhook', url: receiver.url('/flap') }],
    })
    expect(created.status).toBe(201)
    const m = created.body
    const secret = m.channels[0].secret as string
    expect(secret).toMatch(/^whsec_/)
    expect(m.channels[0].target).not.toContain('/flap') // masked
    // the secret is shown once
    expect((await api(key, 'GET', `/monitors/${m.id}`)).body.channels[0].secret).toBeUndefined()

    await waitFor(async () => (await api(key, 'GET', `/monitors/${m.id}`)).body.state === 'up', 15_000, 'up')
    await site.refuse()
    await waitFor(
      async () => (await events(key, m.id)).some((e) => e.event === 'monitor.down'),
      15_000,
      'down',
    )
    const r = await runs(key, m.id)
    const failedInARow = r.findIndex((x) => x.outcome === 'saved')
    expect(failedInARow).toBeGreaterThanOrEqual(2)
    expect(r[0]).toMatchObject({ outcome: 'failed', check_id: null, error: { code: 'check_failed' } })
    // a 500 is still down: no second alert
    await site.accept()
    site.mode = 'error'
    const before = (await runs(key, m.id)).length
    await waitFor(async () => (await runs(key, m.id)).length >= before + 2, 15_000, 'runs on a 500')
    expect((await api(key, 'GET', `/monitors/${m.id}`)).body.state).toBe('down')
    site.mode = 'ok'
    await waitFor(
      async () => (await events(key, m.id)).some((e) => e.event === 'monitor.up'),
      15_000,
      'up again',
    )
    const seen = await runs(key, m.id)
    await waitFor(async () => (await runs(key, m.id)).length >= seen.length + 2, 15_000, 'more runs')

    const ev = await events(key, m.id)
    expect(ev.filter((e) => e.event === 'monitor.down')).toHaveLength(1)
    expect(ev.filter((e) => e.event === 'monitor.up')).toHaveLength(1)
    const down = ev.find((e) => e.event === 'monitor.down')
    expect(down).toMatchObject({ previous_state: 'up', state: 'down' })

    const hooks = await waitFor(
      () => {
        const h = receiver.received.filter((x) => x.path === '/flap')
        return h.length >= 2 ? h : null
      },
      10_000,
      'webhooks',
    )
    expect(hooks.map((h) => h.headers['x-sitehealth-event'])).toEqual(['monitor.down', 'monitor.up'])
    for (const h of hooks) {
      expect(verify(secret, h)).toBe(true)
      expect(
        verify(
          secret.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')),
          h,
        ),
      ).toBe(false)
      expect(verify('whsec_wrong', h)).toBe(false)
      const payload = JSON.parse(h.body)
      expect(Object.keys(payload).sort()).toEqual(
        ['check', 'event', 'message', 'monitor', 'occurred_at', 'previous_state', 'state'].sort(),
      )
      expect(payload.monitor).toMatchObject({ id: m.id, url: site.url('/flap') })
    }
    // delivery recorded per event and channel
    await waitFor(
      async () =>
        (await events(key, m.id))
          .filter((e) => e.event.startsWith('monitor.'))
          .every((e) => e.deliveries[0]?.status === 'delivered'),
      10_000,
      'deliveries recorded',
    )
    await api(key, 'PATCH', `/monitors/${m.id}`, { paused: true })
  }, 90_000)

  it('a certificate expiring in 5 days raises one certificate.expiring', async () => {
    const { key } = await served.createKey({ user: 'cert', credits: 50 })
    const m = (await api(key, 'POST', '/monitors', { url: expiring.url('/'), interval_seconds: 1 })).body
    await waitFor(async () => (await runs(key, m.id)).length >= 3, 20_000, '3 runs')
    const ev = (await events(key, m.id)).filter((e) => e.event === 'certificate.expiring')
    expect(ev).toHaveLength(1)
    expect(ev[0].message).toMatch(/5 days/)
    await api(key, 'DELETE', `/monitors/${m.id}`)
  }, 40_000)

  it('a security header removed between runs raises one headers.regressed', async () => {
    const second = await startFlappySite(pki.valid)
    try {
      const { key } = await served.createKey({ user: 'headers', credits: 50 })
      const m = (await api(key, 'POST', '/monitors', { url: second.url('/'), interval_seconds: 1 })).body
      await waitFor(async () => (await runs(key, m.id)).length >= 2, 15_000, '2 runs')
      second.mode = 'no-frame-options'
      const n = (await runs(key, m.id)).length
      await waitFor(async () => (await runs(key, m.id)).length >= n + 3, 15_000, '3 more runs')
      const ev = (await events(key, m.id)).filter((e) => e.event === 'headers.regressed')
      expect(ev).toHaveLength(1)
      expect(ev[0].message).toMatch(/x-frame-options/)
      await api(key, 'DELETE', `/monitors/${m.id}`)
    } finally {
      await second.close()
    }
  }, 40_000)

  it('a score below min_score raises one score.below', async () => {
    const { key } = await served.createKey({ user: 'score', credits: 50 })
    const m = (
      await api(key, 'POST', '/monitors', {
        url: site.url('/bare'),
        interval_seconds: 1,
        alerts: { min_score: 95 },
      })
    ).body
    await waitFor(async () => (await runs(key, m.id)).length >= 3, 20_000, '3 runs')
    const r = await runs(key, m.id)
    expect(r.every((x) => x.health_score < 95)).toBe(true)
    const ev = (await events(key, m.id)).filter((e) => e.event === 'score.below')
    expect(ev).toHaveLength(1)
    await api(key, 'DELETE', `/monitors/${m.id}`)
  }, 40_000)

  it('a receiver that fails twice, then accepts, gets the alert once, with the attempts recorded', async () => {
    const { key } = await served.createKey({ user: 'retry', credits: 50 })
    receiver.failNext.set('/retry', 2)
    const second = await startFlappySite(pki.valid)
    try {
      const m = (
        await api(key, 'POST', '/monitors', {
          url: second.url('/'),
          interval_seconds: 1,
          alerts: { down_after: 1 },
          channels: [{ type: 'webhook', url: receiver.url('/retry') }],
        })
      ).body
      await waitFor(
        async () => (await api(key, 'GET', `/monitors/${m.id}`)).body.state === 'up',
        15_000,
        'up',
      )
      await second.refuse()
      const ev = await waitFor(
        async () => {
          const e = (await events(key, m.id)).find((x) => x.event === 'monitor.down')
          return e && e.deliveries[0].status !== 'pending' ? e : null
        },
        15_000,
        'delivery',
      )
      expect(ev.deliveries[0]).toMatchObject({ status: 'delivered', attempts: 3, type: 'webhook' })
      const got = receiver.received.filter((x) => x.path === '/retry')
      expect(got.map((x) => x.status)).toEqual([500, 500, 200])
      expect(new Set(got.map((x) => x.body)).size).toBe(1)
      await api(key, 'DELETE', `/monitors/${m.id}`)
    } finally {
      await second.close()
    }
  }, 40_000)
})

describe('credits', () => {
  it('running out mid-schedule pauses the monitors with credits.exhausted; a grant resumes them', async () => {
    const { key, user_id } = await served.createKey({ user: 'poor', credits: 3 })
    const a = (await api(key, 'POST', '/monitors', { url: site.url('/c1'), interval_seconds: 1 })).body
    const b = (await api(key, 'POST', '/monitors', { url: site.url('/c2'), interval_seconds: 1 })).body
    await waitFor(
      async () => {
        const list = (await api(key, 'GET', '/monitors')).body.monitors as any[]
        return list.every((m) => m.paused && m.paused_reason === 'credits' && m.state === 'paused')
      },
      20_000,
      'paused for credits',
    )
    // a run that reserved its credit before the pause may still be saving its check
    await waitFor(
      async () => (await api(key, 'GET', '/checks/recent?limit=50')).body.checks.length === 3,
      15_000,
      'the third saved check',
    )
    expect((await api(key, 'GET', '/credits')).body.credits_remaining).toBe(0)
    for (const m of [a, b]) {
      const ev = (await events(key, m.id)).filter((e) => e.event === 'credits.exhausted')
      expect(ev).toHaveLength(1)
      expect(ev[0].message).toMatch(/no credits/i)
    }
    // granting credits lets them resume
    const grant = await fetch(`${served.url}/api/admin/v1/users/${user_id}/credits`, {
      method: 'POST',
      headers: { authorization: `Bearer ${served.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ amount: 4 }),
    })
    expect(grant.status).toBe(200)
    await waitFor(
      async () => (await api(key, 'GET', '/checks/recent?limit=50')).body.checks.length > 3,
      20_000,
      'runs after the grant',
    )
    await waitFor(
      async () => ((await api(key, 'GET', '/monitors')).body.monitors as any[]).every((m) => m.paused),
      20_000,
      'paused again',
    )
    expect((await api(key, 'GET', '/checks/recent?limit=50')).body.checks).toHaveLength(7)
    expect((await api(key, 'GET', '/credits')).body.credits_remaining).toBe(0)
  }, 60_000)
})

describe('bad input', () => {
  it('answers 400 or 404 in the envelope and creates nothing', async () => {
    const { key } = await served.createKey({ user: 'bad', credits: 5 })
    const other = await served.createKey({ user: 'other', credits: 5 })
    const cases: Array<[unknown, RegExp]> = [
      [{ url: site.url('/'), interval_seconds: 0 }, /interval/],
      [{ url: site.url('/'), interval_seconds: 86_401 }, /interval/],
      [{ url: site.url('/'), interval_seconds: 1.5 }, /interval/],
      [{ url: 'ftp://example.com/' }, /http/],
      [{ url: 'not a url' }, /scheme|URL/i],
      [{ url: 'https://user:pw@example.com/' }, /username|password/],
      [{ url: site.url('/'), channels: [{ type: 'pager', url: 'https://x.example/' }] }, /channels/],
      [{ url: site.url('/'), channels: [{ type: 'webhook', url: 'nope' }] }, /webhook|URL/i],
      [{ url: site.url('/'), channels: [{ type: 'email', to: 'not-an-address' }] }, /channels/],
      [{ url: site.url('/'), extra: 1 }, /extra|unrecognized/i],
      [[1, 2], /object/],
    ]
    for (const [body, message] of cases) {
      const r = await api(key, 'POST', '/monitors', body)
      expect(r.status, JSON.stringify(body)).toBe(400)
      expect(r.body).toMatchObject({ ok: false, error: { code: 'invalid_url' } })
      expect(r.body.error.message, JSON.stringify(body)).toMatch(message)
    }
    expect((await api(key, 'GET', '/monitors')).body.monitors).toEqual([])

    const mine = (await api(other.key, 'POST', '/monitors', { url: site.url('/o'), interval_seconds: 60 }))
      .body
    for (const [method, path, body] of [
      ['GET', `/monitors/${mine.id}`],
      ['PATCH', `/monitors/${mine.id}`, { paused: true }],
      ['DELETE', `/monitors/${mine.id}`],
      ['GET', `/monitors/${mine.id}/runs`],
      ['GET', `/monitors/${mine.id}/events`],
      ['POST', `/monitors/${mine.id}/run`],
      ['GET', '/monitors/01a2084a-9dd6-76a2-9367-c897e9bd68ee'],
    ] as Array<[string, string, unknown?]>) {
      const r = await api(key, method, path, body)
      expect(r.status, `${method} ${path}`).toBe(404)
      expect(r.body.error.code).toBe('not_found')
    }
    expect((await api(key, 'GET', '/monitors/nope')).status).toBe(400)
    expect((await api(key, 'GET', '/monitors?limit=7')).status).toBe(400)
    expect((await api(key, 'GET', '/monitors?cursor=yesterday')).status).toBe(400)
    expect((await api(key, 'PATCH', `/monitors/${mine.id}`, { interval_seconds: -5 })).status).toBe(400)
    // the other user's monitor is untouched
    expect((await api(other.key, 'GET', `/monitors/${mine.id}`)).body.paused).toBe(false)
    await api(other.key, 'DELETE', `/monitors/${mine.id}`)
    expect((await api(key, 'GET', '/credits')).body.credits_remaining).toBe(5)
  }, 30_000)

  it('refuses private monitor and webhook URLs without --allow-private-targets', async () => {
    const strict = await startServe({ allowPrivate: false, args: ['--quiet'] })
    try {
      const { key } = await strict.createKey({ user: 'strict', credits: 5 })
      for (const body of [
        { url: 'http://127.0.0.1:1/' },
        { url: 'http://localhost/' },
        { url: 'https://example.com/', channels: [{ type: 'webhook', url: 'http://169.254.169.254/hook' }] },
        { url: 'https://example.com/', channels: [{ type: 'slack', url: 'http://10.0.0.1/x' }] },
      ]) {
        const r = await api(key, 'POST', '/monitors', body, strict.url)
        expect(r.status, JSON.stringify(body)).toBe(400)
        expect(r.body.error.code).toBe('invalid_url')
      }
      expect((await api(key, 'GET', '/monitors', undefined, strict.url)).body.monitors).toEqual([])
      // the default floor is 60 s
      const r = await api(
        key,
        'POST',
        '/monitors',
        { url: 'https://example.com/', interval_seconds: 30 },
        strict.url,
      )
      expect(r.status).toBe(400)
      expect(r.body.error.message).toMatch(/60/)
    } finally {
      await strict.stop()
    }
  }, 30_000)
})

describe('restart', () => {
  it('neither skips nor doubles due runs across a restart (counted at the target)', async () => {
    const dataDir = (await import('node:fs/promises')).mkdtemp(
      (await import('node:path')).join((await import('node:os')).tmpdir(), 'sitehealth-mon-restart-'),
    )
    const dir = await dataDir
    const first = await startServe({ dataDir: dir, args: FLAGS, env: { NODE_EXTRA_CA_CERTS: pki.caPath } })
    const { key } = await first.createKey({ user: 'restart', credits: 500 })
    const paths = ['/r1', '/r2', '/r3', '/r4']
    const ids: string[] = []
    for (const p of paths)
      ids.push(
        (await api(key, 'POST', '/monitors', { url: site.url(p), interval_seconds: 2 }, first.url)).body.id,
      )
    await new Promise((r) => setTimeout(r, 4500))
    await first.stop({ keepData: true })
    const stoppedAt = Date.now()
    await new Promise((r) => setTimeout(r, 2500)) // runs fall due while it is down
    const second = await startServe({ dataDir: dir, args: FLAGS, env: { NODE_EXTRA_CA_CERTS: pki.caPath } })
    const restartedAt = Date.now()
    await new Promise((r) => setTimeout(r, 4500))
    for (const id of ids) await api(key, 'PATCH', `/monitors/${id}`, { paused: true }, second.url)
    await new Promise((r) => setTimeout(r, 500))
    try {
      for (const [i, id] of ids.entries()) {
        const rs = (await api(key, 'GET', `/monitors/${id}/runs?limit=50`, undefined, second.url)).body
          .runs as any[]
        const saved = rs.filter((r) => r.outcome === 'saved')
        // every run the target saw is recorded once, and every recorded run reached the target once
        expect(site.hits.get(paths[i]) ?? 0, paths[i]).toBe(saved.length)
        const times = rs.map((r) => Date.parse(r.started_at)).sort((a, b) => a - b)
        // no doubles: runs stay at least half an interval apart
        for (let j = 1; j < times.length; j++)
          expect(times[j] - times[j - 1], paths[i]).toBeGreaterThanOrEqual(1000)
        // no skip: the run that fell due while stopped ran right after the restart (catch-up window 1 s)
        const after = times.filter((t) => t >= stoppedAt)
        expect(after.length, paths[i]).toBeGreaterThanOrEqual(2)
        expect(after[0] - restartedAt, paths[i]).toBeLessThan(2500)
        expect(times.filter((t) => t < stoppedAt).length, paths[i]).toBeGreaterThanOrEqual(2)
      }
    } finally {
      await second.stop()
      await (await import('node:fs/promises')).rm(dir, { recursive: true, force: true })
    }
  }, 60_000)
})
