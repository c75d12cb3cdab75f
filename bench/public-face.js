// The public face, measured in-process on the built code (dist/): the server time of a status page
// of 50 monitors beside GET /api/public/v1/health in the same run, and GET /metrics with 10,000
// monitors (time and size). Run: npm run build && flock /tmp/bench.lock node bench/public-face.js
// (add --postgres for the PostgreSQL store: SITEHEALTH_BENCH_DATABASE_URL, default
// postgres://postgres@127.0.0.1:5432/postgres; the database it creates is dropped at the end).
//
// The page reads the store through serve's own composition (no port injected): 90 days of real
// history per monitor is recorded first, run by run through finishRun (3 runs a day, a failed one
// every ninth day, incidents of the last 30 days, one weekly maintenance window), so the daily
// rollups, uptime windows, incidents and maintenance all come from the store.
// warm: the page's view cached. cold: the page edited before each request, so its fingerprint
// changes and the whole view is rebuilt from the store (checked below: the rebuilt page's
// "Updated" time moves).
import { Buffer } from 'node:buffer'
import { randomUUID } from 'node:crypto'
import { performance } from 'node:perf_hooks'
import { composeApp } from '../dist/serve/app.js'
import { DEFAULT_LIMITS } from '../dist/server/context.js'
import { openStore } from '../dist/store/index.js'
import { nextId } from '../dist/monitors/ids.js'
import { INITIAL_MEMORY } from '../dist/monitors/rules.js'
import { MaintenanceService } from '../dist/monitors/maintenance/index.js'
import { Metrics } from '../dist/metrics/index.js'
import { cleanup, createPgDatabase, makeTempDir } from './lib.js'

const PG = process.argv.includes('--postgres')
const DAY = 86_400_000
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

/** 90 days of runs of monitor i, oldest first, each with what it adds to history. */
function* history(m, i, now) {
  const today = Math.floor(now / DAY) * DAY
  for (let d = 89; d >= 0; d--) {
    for (const h of [2, 10, 18]) {
      const at = today - d * DAY + h * 3_600_000 + i * 1000
      if (at > now) continue
      const failed = h === 10 && (d + i) % 9 === 0
      // a closed ten-minute incident 5 days ago on every tenth monitor; the down ones go down today
      const opens = (i % 10 === 0 && d === 5 && h === 10) || (i % 17 === 0 && d === 0 && h === 2)
      const closes = i % 10 === 0 && d === 5 && h === 18
      const ok = !failed && !opens && !(i % 17 === 0 && d === 0)
      yield [
        {
          id: nextId(at),
          monitor_id: m.id,
          started_at: new Date(at).toISOString(),
          outcome: ok ? 'saved' : 'failed',
          trigger: 'schedule',
          check_id: null,
          health_score: ok ? 90 : null,
          response_time_ms: ok ? 150 : null,
          state: ok ? 'up' : 'down',
          error: ok ? null : { code: 'check_failed', message: 'refused' },
        },
        {
          ok,
          counted: true,
          interval_seconds: 60,
          ...(opens
            ? { incident: { open: `${m.name} is down` } }
            : closes
              ? { incident: { close: true } }
              : {}),
        },
      ]
    }
  }
}

let store
try {
  const databaseUrl = PG
    ? await createPgDatabase(
        process.env.SITEHEALTH_BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
        'face',
      )
    : undefined
  store = await openStore({ dataDir: await makeTempDir('face'), databaseUrl })
  const monitors = []
  for (let i = 0; i < 50; i++) monitors.push(await store.monitors.createMonitor(record('owner', i)))
  const now = Date.now()
  let seeded = 0
  await Promise.all(
    monitors.map(async (m, i) => {
      for (const [run, h] of history(m, i, now)) {
        await store.monitors.finishRun(m, run, [], h)
        seeded++
      }
    }),
  )
  await new MaintenanceService(store.maintenance, store.monitors).create('owner', {
    name: 'Weekly backup',
    monitor_ids: monitors.slice(0, 5).map((m) => m.id),
    weekly: { days: ['sun'], start: '02:00', duration_minutes: 60, timezone: 'UTC' },
  })
  const at = new Date().toISOString()
  let page = await store.statusPages.createStatusPage({
    id: nextId(),
    user_id: 'owner',
    slug: 'bench',
    title: 'Bench',
    description: null,
    monitor_ids: monitors.map((m) => m.id),
    show_urls: false,
    created_at: at,
    updated_at: at,
  })
  const { app } = composeApp({
    store,
    initialCredits: 0,
    allowPrivateTargets: false,
    adminToken: 'x'.repeat(40),
    limits: DEFAULT_LIMITS,
    checkTimeoutMs: 5000,
  })
  const time = async (path) => {
    const t = performance.now()
    const res = await app.fetch(new globalThis.Request(`http://127.0.0.1${path}`))
    const body = await res.text()
    return { ms: performance.now() - t, bytes: Buffer.byteLength(body), status: res.status, body }
  }
  // the page must show the recorded history, not an empty one: refuse to measure anything else
  const json = JSON.parse((await time('/status/bench.json')).body)
  const bars = json.monitors.flatMap((m) => m.days)
  const known = bars.filter((d) => d.uptime_percent !== null).length
  const dips = bars.filter((d) => d.uptime_percent !== null && d.uptime_percent < 100).length
  if (json.monitors.length !== 50 || bars.length !== 4500 || known < 4400 || dips < 400)
    throw new Error(`the page does not show the seeded history (${known} bars known, ${dips} below 100%)`)
  if (json.incidents.length < 5 || json.maintenance.length !== 1)
    throw new Error(`the page shows ${json.incidents.length} incidents, ${json.maintenance.length} windows`)
  for (let i = 0; i < 200; i++) await time(i % 2 ? '/status/bench' : '/api/public/v1/health')
  const health = [],
    warm = [],
    cold = []
  let size = 0,
    rebuilt = 0,
    last = ''
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
    // the view was built anew: its "Updated" time is this request's, not the cached one's
    const updated = /<time datetime="([^"]+)"/.exec(c.body)?.[1] ?? ''
    if (updated !== last) rebuilt++
    last = updated
  }
  if (rebuilt < 250) throw new Error(`only ${rebuilt} of 300 cold requests rebuilt the view`)
  const h = p50(health)
  console.log(
    `${PG ? 'PostgreSQL' : 'embedded'} store, ${seeded} runs recorded; status page, 50 monitors x 90 days ` +
      `(${(size / 1024).toFixed(1)} KiB HTML), 300 rounds interleaved (${rebuilt} cold views rebuilt):`,
  )
  console.log(`  GET /api/public/v1/health p50 ${h.toFixed(3)} ms`)
  console.log(
    `  GET /status/bench warm    p50 ${p50(warm).toFixed(3)} ms  (${(p50(warm) / h).toFixed(1)}x health)`,
  )
  console.log(
    `  GET /status/bench cold    p50 ${p50(cold).toFixed(3)} ms  (${(p50(cold) / h).toFixed(1)}x health)`,
  )

  if (!process.argv.includes('--no-metrics')) {
    const batch = []
    for (let i = 50; i < 10_000; i++) {
      batch.push(store.monitors.createMonitor(record(`u${i % 100}`, i)))
      if (batch.length === 100) await Promise.all(batch.splice(0))
    }
    await Promise.all(batch)
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
  }
} finally {
  await store?.close()
  await cleanup()
}
