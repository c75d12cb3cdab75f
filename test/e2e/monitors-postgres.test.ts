/**
 * Two `serve` instances on one PostgreSQL: every due run happens once across both (counted at the
 * target), and after `kill -9` of one, the other takes its monitors over once their claims lapse.
 * An alert is sent by one instance only, also when another starts while it is being sent.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { makeTestPki, type TestPki } from '../fixtures/certs.js'
import { startServe, UNLIMITED, type Served } from '../helpers/serve.js'
import { describePg, freshDatabase } from '../store/postgres/pg.js'
import { startFlappySite, startReceiver, waitFor, type FlappySite } from '../monitors/fixtures.js'

const ADMIN = 'test-admin-token-0123456789abcdef0123456789'

describePg('monitors on PostgreSQL, two instances', () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>
  let pki: TestPki
  let site: FlappySite
  const served: Served[] = []

  beforeAll(async () => {
    db = await freshDatabase()
    pki = await makeTestPki()
    site = await startFlappySite(pki.valid)
  }, 60_000)
  afterAll(async () => {
    for (const s of served) await s.stop().catch(() => {})
    await site?.close()
    await db?.drop()
  })

  // the lease outlasts a check on a loaded machine (a run still going when its lease ends could be
  // taken over and run twice), and is short enough for the take-over to happen within the test
  const start = (extra: string[] = []) =>
    startServe({
      args: [
        ...extra,
        '--database-url',
        db.url,
        '--min-interval',
        '1',
        '--claim-lease',
        '8',
        '--catch-up-window',
        '1',
        ...UNLIMITED,
        '--quiet',
      ],
      env: { NODE_EXTRA_CA_CERTS: pki.caPath, SITEHEALTH_ADMIN_TOKEN: ADMIN },
    })

  it('sends an alert once when another instance starts while it is being retried', async () => {
    const receiver = await startReceiver()
    // the first attempt fails; the retry waits 7.5-12.5 s, and the other instance starts meanwhile
    receiver.failNext.set('/dup', 1)
    const a = await start(['--alert-backoff', '10000'])
    served.push(a)
    try {
      const { key } = await a.createKey({ user: 'pg-alerts', credits: 100 })
      const api = async (base: string, method: string, path: string, body?: unknown) => {
        const res = await fetch(`${base}/api/public/v1${path}`, {
          method,
          headers: {
            authorization: `Bearer ${key}`,
            ...(body ? { 'content-type': 'application/json' } : {}),
          },
          body: body ? JSON.stringify(body) : undefined,
        })
        return res.json() as Promise<any>
      }
      const closed = site.url('/x').replace(/:\d+\//, ':1/')
      const m = await api(a.url, 'POST', '/monitors', {
        url: closed,
        interval_seconds: 3600,
        alerts: { down_after: 1 },
        channels: [{ type: 'webhook', url: receiver.url('/dup') }],
      })
      expect(m.id, JSON.stringify(m)).toBeDefined()
      await waitFor(() => receiver.received.some((h) => h.path === '/dup'), 30_000, 'the first attempt')
      const firstAt = Date.now()
      const b = await start()
      served.push(b)
      const events = await waitFor(
        async () => {
          const evs = (await api(b.url, 'GET', `/monitors/${m.id}/events`)).events as any[]
          return evs.find((e) => e.event === 'monitor.down' && e.deliveries[0].status !== 'pending') && evs
        },
        30_000,
        'the retry to be delivered',
      )
      // past the latest moment the first instance's own retry could come
      await new Promise((r) => setTimeout(r, Math.max(0, firstAt + 13_500 - Date.now())))
      const hooks = receiver.received.filter((h) => h.path === '/dup')
      expect(hooks.map((h) => h.status)).toEqual([500, 200])
      expect(events.find((e: any) => e.event === 'monitor.down').deliveries[0]).toMatchObject({
        status: 'delivered',
        attempts: 2,
      })
    } finally {
      for (const s of served.splice(0)) await s.stop().catch(() => {})
      await receiver.close()
    }
  }, 90_000)

  it('runs each due run once across instances, and takes over from a killed one', async () => {
    const a = await start()
    const b = await start()
    served.push(a, b)
    const { key } = await a.createKey({ user: 'pg', credits: 1000 })
    const api = async (base: string, method: string, path: string, body?: unknown) => {
      const res = await fetch(`${base}/api/public/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      })
      const json = (await res.json()) as any
      // a refusal (a 429 above all) fails here with its envelope, not later as a missing field
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`)
      return json
    }
    const paths = ['/p1', '/p2', '/p3', '/p4', '/p5', '/p6']
    const ids: string[] = []
    for (const [i, p] of paths.entries())
      ids.push(
        (await api(i % 2 ? a.url : b.url, 'POST', '/monitors', { url: site.url(p), interval_seconds: 2 })).id,
      )
    await new Promise((r) => setTimeout(r, 7000))
    a.proc.kill('SIGKILL')
    await a.proc.catch(() => {})
    const killedAt = Date.now()
    // every monitor keeps running on b: at least two more runs each after the kill
    const takenOver = new Set<string>()
    await waitFor(
      async () => {
        for (const id of ids.filter((i) => !takenOver.has(i))) {
          const runs = (await api(b.url, 'GET', `/monitors/${id}/runs?limit=50`)).runs as any[]
          if (runs.filter((r) => Date.parse(r.started_at) > killedAt + 500).length < 2) return false
          takenOver.add(id)
        }
        return true
      },
      60_000,
      'b to take every monitor over',
      // each monitor is read until it is taken over, once a second: well under the key's 120 a minute
      1000,
    )
    for (const id of ids) await api(b.url, 'PATCH', `/monitors/${id}`, { paused: true })
    await new Promise((r) => setTimeout(r, 1000))
    for (const [i, id] of ids.entries()) {
      const runs = (await api(b.url, 'GET', `/monitors/${id}/runs?limit=50`)).runs as any[]
      const saved = runs.filter((r) => r.outcome === 'saved')
      // a run killed mid-check may have reached the target without being recorded: at most one
      const hits = site.hits.get(paths[i]) ?? 0
      expect(hits - saved.length, paths[i]).toBeGreaterThanOrEqual(0)
      expect(hits - saved.length, paths[i]).toBeLessThanOrEqual(1)
      const times = runs.map((r) => Date.parse(r.started_at)).sort((x, y) => x - y)
      // never two runs of one monitor at once on two instances
      for (let j = 1; j < times.length; j++)
        expect(times[j] - times[j - 1], paths[i]).toBeGreaterThanOrEqual(1000)
      expect(times.filter((t) => t < killedAt).length, paths[i]).toBeGreaterThanOrEqual(2)
    }
  }, 150_000)
})
