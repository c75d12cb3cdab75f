/**
 * Regressions through the monitor service, on both stores (docs/decisions.md#monitoring-depth): a
 * local site checked by the real engine builds a week of history on the service's clock, then
 * loses its security headers (its score falls) or answers slowly; the channel gets
 * score.regressed / response_time.regressed once, the monitor is degraded meanwhile and up again
 * once back within bounds, and a maintenance window raises nothing.
 */
import { createServer, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { runCheck } from '../../src/checks/index.js'
import type { Store } from '../../src/store/types.js'
import { makeTestPki, type TestPki } from '../fixtures/certs.js'
import { SECURITY_HEADERS } from '../fixtures/targets.js'
import { describeOnEachStore } from '../store/each-store.js'
import { monitorService, RecordingDeliverer } from './fixtures.js'

const T0 = Date.parse('2026-11-18T09:00:00Z')
const MIN = 60_000
const DAY = 86_400_000

/** The store of the running test: embedded, then PostgreSQL (describeOnEachStore at the end). */
let store: Store
let server: Server
let port: number
let clock = T0
/** What the site does: send its security headers or not (and a 2 MB page), wait this long before answering. */
const site = { headers: true, delayMs: 0 }
const HEAVY = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title></head><body>${'<p>Sale.</p>'.repeat(170_000)}</body></html>`

let pki: TestPki

beforeEach(async () => {
  clock = T0
  site.headers = true
  site.delayMs = 0
  pki = await makeTestPki()
  server = createServer(pki.valid, (_req, res) => {
    setTimeout(() => {
      res.writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        ...(site.headers ? SECURITY_HEADERS : {}),
      })
      res.end(
        site.headers
          ? '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Shop</title></head><body><h1>Shop</h1><p>Open.</p></body></html>'
          : HEAVY,
      )
    }, site.delayMs)
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  port = (server.address() as AddressInfo).port
})
afterEach(async () => {
  server.closeAllConnections()
  await new Promise((r) => server.close(r))
})

async function setUp() {
  const recorder = new RecordingDeliverer()
  const svc = monitorService(store, recorder, {
    allowPrivateTargets: true,
    checkTimeoutMs: 10_000,
    now: () => clock,
    // the real engine, trusting the test CA as a self-hoster trusts an internal one
    check: (url) => runCheck(url, { allowPrivateTargets: true, extraCA: pki.ca.cert }),
  })
  await store.users.ensure('ada', 200)
  const { monitor } = await svc.create('ada', {
    url: `https://127.0.0.1:${port}/`,
    interval_seconds: 60,
    channels: [{ type: 'webhook', url: 'https://hooks.example.com/x' }],
  })
  /** A run at `at` (ms on the service's clock); the monitor's state after it. */
  const runAt = async (at: number) => {
    clock = at
    const r = await svc.run(monitor, 'manual')
    return 'monitor' in r ? r.monitor?.state : undefined
  }
  /** A week of healthy history: 20 runs over the days before `T0 + 7 days`. */
  const history = async () => {
    for (let i = 0; i < 20; i++) expect(await runAt(T0 + i * 7 * 3_600_000)).toBe('up')
  }
  const events = async () => {
    await svc.drain()
    return recorder.sent.map((p) => p.event)
  }
  return { svc, recorder, monitor, runAt, history, events }
}

function regressionContract() {
  it('a site that loses its security headers: score.regressed once, degraded, then up when they are back', async () => {
    const { recorder, runAt, history, events } = await setUp()
    await history()
    const at = T0 + 7 * DAY
    site.headers = false
    expect(await runAt(at)).toBe('degraded')
    expect(await runAt(at + MIN)).toBe('degraded')
    // the headers it lost are announced as well, each once
    expect(await events()).toEqual(['monitor.degraded', 'headers.regressed', 'score.regressed'])
    const hook = recorder.sent[2]
    expect(hook).toMatchObject({ event: 'score.regressed', previous_state: 'up', state: 'degraded' })
    expect(hook.message).toMatch(
      /^Health score \d+ of https:\/\/127\.0\.0\.1:\d+\/ is \d+ points below its 7-day median of \d+$/,
    )
    site.headers = true
    expect(await runAt(at + 2 * MIN)).toBe('up')
    expect(await events()).toEqual(['monitor.degraded', 'headers.regressed', 'score.regressed', 'monitor.up'])
  })

  it('a site that answers slowly for the last hour: response_time.regressed once, cleared an hour later', async () => {
    const { recorder, runAt, history, events } = await setUp()
    await history()
    const hour = T0 + 7 * DAY
    for (let i = 0; i < 18; i++) await runAt(hour + i * MIN)
    // two slow answers in 20 runs make the hour's p95 (the 19th of 20) slow; the week's is not
    site.delayMs = 1500
    expect(await runAt(hour + 18 * MIN)).toBe('up') // 19 runs in the hour: not judged yet
    expect(await runAt(hour + 19 * MIN)).toBe('degraded')
    site.delayMs = 0
    expect(await runAt(hour + 20 * MIN)).toBe('degraded')
    const sent = (await events()).filter((e) => e.startsWith('response_time') || e.startsWith('monitor.'))
    expect(sent).toEqual(['monitor.degraded', 'response_time.regressed'])
    const hook = recorder.sent.find((p) => p.event === 'response_time.regressed')!
    expect(hook.message).toMatch(/over the last hour, 1,\d{3} ms, is over twice its 7-day p95 of \d+ ms$/)
    // an hour on, the slow runs have left the hour: back within bounds
    expect(await runAt(hour + 90 * MIN)).toBe('up')
    expect((await events()).filter((e) => e === 'response_time.regressed')).toHaveLength(1)
    expect((await events()).at(-1)).toBe('monitor.up')
  })

  it('inside a maintenance window a regression raises nothing', async () => {
    const { svc, runAt, history, events, monitor } = await setUp()
    await history()
    const at = T0 + 7 * DAY
    await svc.maintenance.create('ada', {
      name: 'migration',
      monitor_ids: [monitor.id],
      starts_at: new Date(at - MIN).toISOString(),
      ends_at: new Date(at + 10 * MIN).toISOString(),
    })
    site.headers = false
    expect(await runAt(at)).toBe('up')
    expect(await events()).toEqual([])
  })
}

describeOnEachStore('regressions', (s) => (store = s), regressionContract)
