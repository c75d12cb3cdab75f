/**
 * A real `serve` (the built CLI) on PostgreSQL when the database fails (docs/operations.md), with
 * a TCP proxy the test controls between them; the shared PostgreSQL is never touched. Each test
 * has its own database. Requests during the fault must end with 503 `service_unavailable` and
 * Retry-After within the configured timeouts (1 s here), never 500 and never a hang; afterwards
 * every monitor runs again within one interval, none twice, and key use is recorded again.
 * FAULTS_VERBOSE=1 prints what a client saw and the recovery times (docs/operations.md).
 */
import { setTimeout as sleep } from 'node:timers/promises'
import { afterEach, expect, it } from 'vitest'
import { startServe, type Served } from '../helpers/serve.js'
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.js'
import {
  client,
  countingSite,
  during,
  gaps,
  measure,
  summary,
  timed,
  until,
  type CountingSite,
  type Timed,
} from '../helpers/fault-kit.js'
import { ADMIN_URL, describePg, freshDatabase } from '../store/postgres/pg.js'

const ADMIN = 'test-admin-token-0123456789abcdef0123456789'
/** Monitor interval, s: short enough for a test, long enough that a doubled run stands out. */
const INTERVAL = 3
const PATHS = ['/m1', '/m2', '/m3']

interface World {
  served: Served
  proxy: TcpProxy
  site: CountingSite
  key: string
  keyId: string
  call: ReturnType<typeof client>
}

const teardown: Array<() => Promise<unknown>> = []
afterEach(async () => {
  for (const t of teardown.splice(0).reverse()) await t().catch(() => {})
})

async function world(): Promise<World> {
  const db = await freshDatabase()
  teardown.push(() => db.drop())
  const u = new URL(ADMIN_URL)
  const proxy = await startTcpProxy({ host: u.hostname, port: Number(u.port || 5432) })
  teardown.push(() => proxy.close())
  const site = await countingSite()
  teardown.push(() => site.close())
  const served = await startServe({
    args: [
      '--database-url',
      proxy.via(db.url),
      '--db-query-timeout',
      '1',
      '--db-acquire-timeout',
      '1',
      '--min-interval',
      '1',
      '--catch-up-window',
      '1',
      '--rate-limit',
      '100000',
      '--run-limit',
      '100000',
    ],
    env: { SITEHEALTH_ADMIN_TOKEN: ADMIN },
  })
  teardown.push(() => served.stop())
  const { key, id } = await served.createKey({ user: 'faults', credits: 10_000 })
  const call = client(served.url, key)
  for (const p of PATHS) {
    const r = await call('POST', '/monitors', { url: site.url(p), interval_seconds: INTERVAL })
    expect(r.status, JSON.stringify(r.json)).toBe(201)
  }
  // every monitor has run once: the schedule is going
  await until(() => PATHS.every((p) => site.hits(p).length >= 1), 15_000, 'the first runs')
  return { served, proxy, site, key, keyId: id, call }
}

/** Every reply is a 503 service_unavailable envelope with Retry-After, or a 200; none is a 500 or a hang. */
function expectOutageAnswers(replies: Timed[], boundMs: number, where: string) {
  for (const r of replies) {
    const what = `${where}: ${r.status} in ${Math.round(r.ms)} ms ${r.error ?? JSON.stringify(r.json).slice(0, 200)}`
    expect([200, 503], what).toContain(r.status)
    expect(r.ms, what).toBeLessThan(boundMs)
    if (r.status === 503) {
      expect(r.json?.ok, what).toBe(false)
      expect(r.json?.error?.code, what).toBe('service_unavailable')
      expect(r.headers.get('retry-after'), what).toBe('5')
    }
  }
}

async function lastUsed(w: World): Promise<string | null> {
  const r = await timed(`${w.served.url}/api/admin/v1/keys`, {
    headers: { authorization: `Bearer ${ADMIN}` },
  })
  if (r.status !== 200) return null
  return (r.json.keys as { id: string; last_used_at: string | null }[]).find((k) => k.id === w.keyId)!
    .last_used_at
}

/**
 * After `since`: each monitor ran again, none twice. The bound: the scheduler's longest back-off
 * after failed ticks (5 s), then the catch-up spread over at most one interval, and 4 s for a
 * loaded CI machine (INTERVAL + 6 s timed out there once, the runs still coming).
 */
async function expectMonitorsResume(w: World, since: number): Promise<number> {
  const { ms } = await until(
    () => PATHS.every((p) => w.site.hits(p).some((t) => t > since)),
    (5 + INTERVAL + 4) * 1000,
    'every monitor to run again',
  )
  // two more intervals: the schedule goes on at its pace, no run doubled
  await sleep(2 * INTERVAL * 1000)
  for (const p of PATHS) {
    const after = w.site.hits(p).filter((t) => t > since)
    expect(after.length, `${p} ran ${after.length} times in ${2 * INTERVAL}+ s`).toBeGreaterThanOrEqual(2)
    expect(after.length, `${p}: ${after.map((t) => t - since).join(', ')}`).toBeLessThanOrEqual(4)
    expect(gaps(after).min, `${p}: runs ${after.map((t) => t - since).join(', ')} ms after`).toBeGreaterThan(
      INTERVAL * 1000 * 0.4,
    )
  }
  return ms
}

describePg('serve on PostgreSQL through a proxy that fails', () => {
  it('a cut of a few seconds: 503 with Retry-After during it, then every monitor runs again, none doubled, key use recorded', async () => {
    const w = await world()
    await w.call('GET', '/credits')
    const before = await until(() => lastUsed(w), 10_000, 'key use on record')

    await w.proxy.refuse()
    const cutAt = Date.now()
    const fire = (() => {
      let i = 0
      const reqs: Array<() => Promise<Timed>> = [
        () => w.call('GET', '/credits'),
        () => w.call('GET', '/checks/recent'),
        () => w.call('GET', '/monitors'),
        () => w.call('POST', '/checks/run', { url: w.site.url('/api-run') }),
      ]
      return () => reqs[i++ % reqs.length]()
    })()
    const replies = await during(3000, fire)
    const health = await timed(`${w.served.url}/api/public/v1/health`)
    const ready = await timed(`${w.served.url}/api/public/v1/ready`)
    await w.proxy.accept()
    const restoredAt = Date.now()

    expectOutageAnswers(replies, 3000, 'during the cut')
    expect(replies.filter((r) => r.status === 503).length).toBeGreaterThan(3)
    expect(health.status).toBe(200)
    expect(ready.status).toBe(503)
    expect(ready.ms).toBeLessThan(1500)
    expect(ready.json.dependencies[0]).toMatchObject({ name: 'database', status: 'down' })

    const recovered = await until(
      async () => (await w.call('GET', '/credits', undefined, 5000)).status === 200,
      10_000,
      'the API to answer again',
    )
    const resumeMs = await expectMonitorsResume(w, restoredAt)
    // key use is recorded again: the writer survived its failed flushes
    await w.call('GET', '/credits')
    const keyUse = await until(
      async () => {
        const at = await lastUsed(w)
        return at && Date.parse(at) > restoredAt && at !== before.value ? at : undefined
      },
      10_000,
      'key use recorded after the cut',
    )
    expect(w.site.hits('/api-run').length).toBe(0) // no run reached a site while nothing could be saved
    expect(w.served.output()).not.toMatch(/ 500 /)
    expect((await timed(`${w.served.url}/api/public/v1/ready`)).json.status).toBe('ready')
    measure('postgres-cut', {
      cut_ms: restoredAt - cutAt,
      during: summary(replies),
      ready_during_ms: Math.round(ready.ms),
      api_back_after_ms: Math.round(recovered.ms),
      every_monitor_ran_again_after_ms: Math.round(resumeMs),
      key_use_recorded_after_ms: Math.round(keyUse.ms),
    })
  }, 90_000)

  it('five blips of 0.2 s: nothing stops, no 500', async () => {
    const w = await world()
    const replies: Timed[] = []
    let blipping = true
    const load = (async () => {
      while (blipping) {
        replies.push(await w.call('GET', '/credits'))
        replies.push(await w.call('GET', '/monitors'))
        await sleep(20)
      }
    })()
    for (let i = 0; i < 5; i++) {
      await w.proxy.refuse()
      await sleep(200)
      await w.proxy.accept()
      await sleep(800)
    }
    const lastBlip = Date.now()
    blipping = false
    await load
    expectOutageAnswers(replies, 3000, 'during the blips')
    const resumeMs = await expectMonitorsResume(w, lastBlip)
    expect((await w.call('GET', '/credits')).status).toBe(200)
    expect(w.served.output()).not.toMatch(/ 500 /)
    measure('postgres-blips', {
      during: summary(replies),
      every_monitor_ran_again_after_ms: Math.round(resumeMs),
    })
  }, 90_000)

  it('a run whose result cannot be committed (the database goes down mid-check) is not run again at once', async () => {
    const w = await world()
    // a slow page: the check is still running when the database goes away, so its commit fails
    w.site.slow('/slow', 1500)
    const r = await w.call('POST', '/monitors', { url: w.site.url('/slow'), interval_seconds: INTERVAL })
    expect(r.status).toBe(201)
    await until(() => w.site.hits('/slow').length >= 1, 15_000, 'the slow check to start')
    await sleep(300)
    await w.proxy.refuse()
    const downAt = Date.now()
    const hitsAtCut = w.site.hits('/slow').length
    await sleep(8000)
    const during = w.site.hits('/slow').length - hitsAtCut
    await w.proxy.accept()
    const restoredAt = Date.now()
    const slots = Math.ceil((restoredAt - downAt) / (INTERVAL * 1000))
    // held until the next slot each time, never a loop: at most one check per interval
    expect(during, `${during} checks in ${restoredAt - downAt} ms`).toBeLessThanOrEqual(slots + 1)
    expect(w.served.output()).toMatch(/run could not be saved/)
    const back = await until(
      async () => {
        const runs = await w.call('GET', `/monitors/${r.json.id}/runs`)
        return (
          runs.status === 200 &&
          runs.json.runs.some((x: { started_at: string }) => Date.parse(x.started_at) > restoredAt)
        )
      },
      (INTERVAL + 8) * 1000,
      'a run saved after the outage',
      250,
    )
    measure('postgres-commit-fails', {
      outage_ms: restoredAt - downAt,
      checks_of_the_slow_monitor_while_down: during,
      run_saved_again_after_ms: Math.round(back.ms),
    })
  }, 90_000)

  it('a stalled database (the proxy holds every byte): requests end with 503 within the timeouts, and it recovers', async () => {
    const w = await world()
    w.proxy.stall()
    const stalledAt = Date.now()
    const hitsBefore = PATHS.map((p) => w.site.hits(p).length)
    const replies = await Promise.all([
      w.call('GET', '/credits'),
      w.call('GET', '/checks/recent'),
      w.call('GET', '/monitors'),
      w.call('POST', '/checks/run', { url: w.site.url('/api-run') }),
      timed(`${w.served.url}/api/admin/v1/keys`, { headers: { authorization: `Bearer ${ADMIN}` } }),
    ])
    const more = await during(2500, () => w.call('GET', '/credits'))
    const ready = await timed(`${w.served.url}/api/public/v1/ready`)
    const stalledHits = PATHS.map((p, i) => w.site.hits(p).length - hitsBefore[i])
    w.proxy.resume()
    const resumedAt = Date.now()
    // a run whose result cannot be saved waits for its next slot: at most one check per interval
    for (const h of stalledHits)
      expect(h).toBeLessThanOrEqual(Math.ceil((resumedAt - stalledAt) / (INTERVAL * 1000)) + 1)

    // query and acquire timeouts are 1 s each: an answer within 1 + 1 s and the loop's slack
    expectOutageAnswers([...replies, ...more], 3000, 'while stalled')
    expect(replies.every((r) => r.status === 503)).toBe(true)
    expect(ready.status).toBe(503)
    expect(ready.ms).toBeLessThan(1500)

    const recovered = await until(
      async () => (await w.call('GET', '/credits', undefined, 5000)).status === 200,
      10_000,
      'the API to answer again',
    )
    const resumeMs = await expectMonitorsResume(w, resumedAt)
    expect(w.site.hits('/api-run').length).toBe(0)
    expect(w.served.output()).not.toMatch(/ 500 /)
    measure('postgres-stall', {
      stall_ms: resumedAt - stalledAt,
      first_requests: summary(replies),
      during: summary(more),
      ready_during_ms: Math.round(ready.ms),
      checks_per_monitor_while_stalled: stalledHits,
      api_back_after_ms: Math.round(recovered.ms),
      every_monitor_ran_again_after_ms: Math.round(resumeMs),
    })
  }, 90_000)
})
