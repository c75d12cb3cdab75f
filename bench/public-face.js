// The public face, measured in-process on the built code (dist/): the server time of a status page
// of 50 monitors beside GET /api/public/v1/health in the same run (warm: the page's view cached;
// cold: the page edited before each request, so the view is rebuilt), and GET /metrics with 10,000
// monitors (time and size). Run: npm run build && flock /tmp/bench.lock node bench/public-face.js
import { randomUUID } from 'node:crypto'
import { performance } from 'node:perf_hooks'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { composeApp } from '../dist/serve/app.js'
import { DEFAULT_LIMITS } from '../dist/server/context.js'
import { openLowdbStore } from '../dist/store/index.js'
import { nextId } from '../dist/monitors/ids.js'
import { INITIAL_MEMORY } from '../dist/monitors/rules.js'
import { Metrics } from '../dist/metrics/index.js'
import { daysBetween } from '../dist/status-pages/index.js'

const p50 = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

function record(user, i) {
  const now = new Date().toISOString()
  return {
    id: nextId(),
    user_id: user,
    url: `https://site${i}.example.test/`,
    name: `Service ${i}`,
    interval_seconds: 60,
    paused: false,
    paused_reason: null,
    state: /** @type {'down' | 'up'} */ (i % 17 === 0 ? 'down' : 'up'),
    last_check: {
      id: randomUUID(),
      health_score: 70 + (i % 30),
      risk_level: 'low',
      status: 'ok',
      created_at: now,
      response_time_ms: 100 + (i % 400),
      certificate_expires_at: '2027-03-01T00:00:00.000Z',
    },
    next_run_at: null,
    created_at: now,
    updated_at: now,
    alerts: { down_after: 2, min_score: null },
    channels: [],
    memory: INITIAL_MEMORY,
  }
}

/** 90 days of history per monitor, answered from memory as a rollup store would. */
const uptime = {
  windows: async () => ({ '24h': 99.93, '7d': 99.9, '30d': 99.95 }),
  days: async (_m, from, to) =>
    daysBetween(from, to).map((date, i) => ({ date, uptime_percent: i % 9 ? 100 : 99.3 })),
  incidents: async (m) =>
    m.state === 'down' ? [{ started_at: new Date(Date.now() - 3600_000).toISOString(), ended_at: null }] : [],
  maintenance: async () => [],
}

const dir = await mkdtemp(join(tmpdir(), 'bench-face-'))
const store = await openLowdbStore(dir)
try {
  const ids = []
  for (let i = 0; i < 50; i++) ids.push((await store.monitors.createMonitor(record('owner', i))).id)
  const now = new Date().toISOString()
  let page = await store.statusPages.createStatusPage({
    id: nextId(),
    user_id: 'owner',
    slug: 'bench',
    title: 'Bench',
    description: null,
    monitor_ids: ids,
    show_urls: false,
    created_at: now,
    updated_at: now,
  })
  const opts = {
    store,
    initialCredits: 0,
    allowPrivateTargets: false,
    adminToken: 'x'.repeat(40),
    limits: DEFAULT_LIMITS,
    checkTimeoutMs: 5000,
    uptime,
  }
  const { app } = composeApp(opts)
  const time = async (path) => {
    const t = performance.now()
    const res = await app.fetch(new globalThis.Request(`http://127.0.0.1${path}`))
    const body = await res.text()
    return { ms: performance.now() - t, bytes: body.length, status: res.status }
  }
  for (let i = 0; i < 200; i++) await time(i % 2 ? '/status/bench' : '/api/public/v1/health')
  const first = await time('/status/bench')
  // a page that is not served (a 404 of a few bytes) would measure nothing: refuse to report it
  if (first.status !== 200 || first.bytes < 10_000)
    throw new Error(`GET /status/bench answered ${first.status} with ${first.bytes} bytes, not the page`)
  const health = [],
    warm = [],
    cold = []
  let size = 0
  for (let round = 0; round < 300; round++) {
    health.push((await time('/api/public/v1/health')).ms)
    warm.push((await time('/status/bench')).ms)
    page = await store.statusPages.updateStatusPage({
      ...page,
      updated_at: new Date(Date.now() + round).toISOString(),
    })
    const c = await time('/status/bench')
    cold.push(c.ms)
    size = c.bytes
  }
  const h = p50(health)
  console.log(
    `status page, 50 monitors x 90 days (${(size / 1024).toFixed(1)} KiB HTML), 300 rounds interleaved:`,
  )
  console.log(`  GET /api/public/v1/health p50 ${h.toFixed(3)} ms`)
  console.log(
    `  GET /status/bench warm    p50 ${p50(warm).toFixed(3)} ms  (${(p50(warm) / h).toFixed(1)}x health)`,
  )
  console.log(
    `  GET /status/bench cold    p50 ${p50(cold).toFixed(3)} ms  (${(p50(cold) / h).toFixed(1)}x health)`,
  )

  for (let i = 50; i < 10_000; i++) await store.monitors.createMonitor(record(`u${i % 100}`, i))
  const metrics = new Metrics({ inFlight: () => 0, gauges: store.monitorGauges })
  const times = []
  let text = ''
  for (let i = 0; i < 9; i++) {
    const t = performance.now()
    text = await metrics.text()
    times.push(performance.now() - t)
  }
  console.log(
    `/metrics, 10,000 monitors: p50 ${p50(times).toFixed(1)} ms over 9 scrapes, ${(text.length / 1024 / 1024).toFixed(2)} MiB, ${text.split('\n').length} lines`,
  )
} finally {
  await store.close()
  await rm(dir, { recursive: true, force: true })
}
