// @ts-check
/**
 * Monitor history after a simulated year (issue 23; docs/monitoring.md#uptime-and-history), both
 * backends:
 *
 *  A. storage per 60 s monitor after a year: `--templates` monitors (made through the API, so their
 *     records are real) are given a year of runs, one a minute, ending now, through the store's own
 *     run path with a simulated clock: on PostgreSQL `finishRun` (the one statement a run writes:
 *     the run, its rollups, its incident change, the prunes of raw runs to --history-runs and of
 *     buckets past retention, each at the run's own time); on the embedded store the journal entry
 *     a run writes is applied as a replay applies it (its fsync left out: a year of fsyncs takes
 *     hours), then the journal is folded into snapshot.json and history.bin. The runs fail in a
 *     10-minute outage every three days (an incident each) and carry three assertion results.
 *     Reported: PostgreSQL pg_total_relation_size of the monitor tables after VACUUM ÷ monitors;
 *     embedded bytes of snapshot.json + history.bin ÷ monitors.
 *  B. embedded `serve` RSS at `--scale` such monitors: the templates' folded files are cloned to
 *     `--scale` monitors (new ids, each with its own copy of runs and rings), `serve` loads the data
 *     dir and runs every monitor at 60 s against a loopback target for `--rss-window` seconds; its
 *     RSS is sampled and its peak (VmHWM) read. A fold of that store (in this process) is measured
 *     too: RSS before, and the peak while writing.
 *  C. `GET /monitors/{id}/uptime?granularity=day` over 400 days at `--scale` monitors, p50/p95,
 *     interleaved with `GET /health` in the same run, on both backends (on PostgreSQL the
 *     template's rows are copied by SQL to `--scale` paused monitors).
 *
 *   node bench/history-year.js [--backend both|embedded|postgres] [--templates 2] [--days 365]
 *        [--scale 10000] [--requests 300] [--rss-window 90] [--pg-sparse] [--fold-only]
 *
 * --rss-window: `serve` folds its journal whenever it passes 64 MB (about every 2-3 minutes at
 * 10,000 monitors a minute); the folds seen in the window (snapshot.json replaced) are reported,
 * so a window of 240 s or more shows serve's peak with a fold in it.
 * --fold-only: the embedded part stops after the fold in process (no serve, no uptime).
 *
 * --pg-sparse: on PostgreSQL every hour but the last day's gets one run instead of sixty (the
 * outages keep every minute): the same rows of the same sizes (every hour and day bucket, the
 * newest 1,000 runs at 60 s, every incident), 50x fewer statements; on a machine this busy a full year (525,600
 * statements a monitor) takes hours.
 * Needs a build (`npm run build`) and, for PostgreSQL, BENCH_PG_URL (default
 * postgres://postgres@127.0.0.1:5432/postgres).
 */
import { Buffer } from 'node:buffer'
import { open, readFile, stat, writeFile } from 'node:fs/promises'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { clearInterval, setInterval, setTimeout } from 'node:timers'
import { parseArgs } from 'node:util'
import pg from 'pg'
import { nextId } from '../dist/monitors/ids.js'
import { LowdbMonitorStore } from '../dist/store/embedded/monitors.js'
import { openPostgresStore } from '../dist/store/postgres/index.js'
import {
  NO_LIMITS,
  PUBLIC,
  api,
  apiOk,
  cleanup,
  createPgDatabase,
  fmtInt,
  fmtMB,
  fmtMs,
  makeTempDir,
  onCleanup,
  startServe,
  startTarget,
  summarize,
  table,
} from './lib.js'

const { values: o } = parseArgs({
  options: {
    backend: { type: 'string', default: 'both' },
    templates: { type: 'string', default: '2' },
    days: { type: 'string', default: '365' },
    scale: { type: 'string', default: '10000' },
    requests: { type: 'string', default: '300' },
    'rss-window': { type: 'string', default: '90' },
    'pg-sparse': { type: 'boolean', default: false },
    'fold-only': { type: 'boolean', default: false },
  },
})
const T = Number(o.templates)
const DAYS = Number(o.days)
const SCALE = Number(o.scale)
const REQUESTS = Number(o.requests)
const MIN = 60_000
const DAY = 86_400_000
const PG_ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
const ADMIN = 'bench-admin-token-0123456789abcdef0123456789'
const USER = 'year'
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))
const log = (line) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${line}`)
/** summarize() with a p95. */
function stats(xs) {
  const s = [...xs].sort((a, b) => a - b)
  return { ...summarize(xs), p95: s[Math.min(s.length - 1, Math.ceil(0.95 * s.length) - 1)] }
}
const load = () =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')

const ASSERTIONS = /** @type {const} */ ([
  { source: 'status_code', comparison: 'equals', target: '200' },
  { source: 'text_body', comparison: 'contains', target: 'loopback target' },
  { source: 'response_time', comparison: 'less_than', target: '5000' },
])

/** One simulated run at `at` (ms) and its history; a 10-minute outage every three days. */
function simulate(m, at, st) {
  const down = at % (3 * DAY) < 10 * MIN
  const rt = 40 + ((at / MIN) % 97) * 3
  const run = {
    id: nextId(at),
    monitor_id: m.id,
    started_at: new Date(at).toISOString(),
    outcome: down ? 'failed' : 'saved',
    trigger: 'schedule',
    check_id: down ? null : nextId(at),
    health_score: down ? null : 80 + ((at / MIN) % 21),
    response_time_ms: down ? null : rt,
    state: down ? 'down' : 'up',
    error: down ? { code: 'check_failed', message: 'connect ECONNREFUSED 127.0.0.1:8080' } : null,
    assertions: ASSERTIONS.map((a) => ({
      ...a,
      passed: !down,
      actual: a.source === 'status_code' ? (down ? null : 200) : a.source === 'response_time' ? rt : !down,
    })),
  }
  /** @type {{ok: boolean, counted: boolean, interval_seconds: number, incident?: object}} */
  const h = { ok: !down, counted: true, interval_seconds: 60 }
  if (down && !st.down) h.incident = { open: 'connect ECONNREFUSED 127.0.0.1:8080' }
  if (!down && st.down) h.incident = { close: true }
  st.down = down
  return { run, h }
}

/** Minute marks of the simulated year, oldest first (sparse: hourly but for the last day and the outages). */
function* minutes(end, sparse) {
  const start = end - DAYS * DAY
  const dense = end - DAY
  for (let at = start; at < end; at += MIN)
    if (!sparse || at >= dense || (at / MIN) % 60 === 0 || at % (3 * DAY) < 11 * MIN) yield at
}

/** Creates `n` monitors through the API and returns their records' ids. */
async function seedMonitors(s, key, target, n) {
  const ids = []
  for (let i = 0; i < n; i++) {
    const r = await apiOk(
      s.url,
      `${PUBLIC}/monitors`,
      {
        method: 'POST',
        token: key,
        body: {
          url: target,
          interval_seconds: 60,
          name: `year ${i}`,
          assertions: ASSERTIONS.map((a) => ({
            source: a.source,
            comparison: a.comparison,
            target: a.target,
          })),
        },
      },
      201,
    )
    ids.push(r.body.id)
  }
  return ids
}

/** Reads /proc/<pid>/status VmRSS and VmHWM (bytes). */
async function procMem(pid) {
  const s = await readFile(`/proc/${pid}/status`, 'utf8')
  const kb = (k) => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(s)?.[1] ?? 0) * 1024
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') }
}

/** Uptime over 400 days (day buckets) for random monitors, interleaved with GET /health. */
async function uptimeVsHealth(url, key, ids) {
  const to = new Date()
  const from = new Date(to.getTime() - 400 * DAY)
  const q = `from=${encodeURIComponent(from.toISOString())}&to=${encodeURIComponent(to.toISOString())}&granularity=day`
  const up = []
  const health = []
  let buckets = 0
  for (let i = 0; i < REQUESTS + 20; i++) {
    const id = ids[(i * 7919) % ids.length]
    let t = performance.now()
    const r = await api(url, `${PUBLIC}/monitors/${id}/uptime?${q}`, { token: key })
    const ms = performance.now() - t
    if (r.status !== 200) throw new Error(`uptime: HTTP ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`)
    buckets = r.body.buckets.length
    t = performance.now()
    const hr = await api(url, `${PUBLIC}/health`)
    const hms = performance.now() - t
    if (hr.status !== 200) throw new Error(`health: HTTP ${hr.status}`)
    if (i >= 20) {
      up.push(ms)
      health.push(hms)
    }
  }
  return { uptime: stats(up), health: stats(health), buckets }
}

// ---------------------------------------------------------------------------------------------
// embedded

async function embedded(target) {
  const dir = await makeTempDir('year')
  let s = await startServe({ dataDir: dir, args: NO_LIMITS, adminToken: ADMIN })
  const { key } = await s.createKey({ user: USER, credits: 1_000_000_000 })
  const seeded = await seedMonitors(s, key, target, T)
  await s.stop()

  // the year, through the journal entry a run writes, applied as a replay applies it
  const store = new LowdbMonitorStore(dir)
  await store.load()
  const end = Math.floor(Date.now() / MIN) * MIN - MIN
  const templates = []
  for (const id of seeded) {
    const rec = await store.getMonitorById(id)
    // a fresh id older than the year (the seed's first run is newer than every simulated one)
    const m = await store.createMonitor({
      ...rec,
      id: nextId(end - DAYS * DAY - DAY),
      name: `${rec.name} (year)`,
    })
    await store.deleteMonitor(USER, id)
    templates.push(m)
  }
  const t0 = performance.now()
  let runs = 0
  const st = templates.map(() => ({ down: false }))
  for (const at of minutes(end, false))
    for (let i = 0; i < templates.length; i++) {
      const { run, h } = simulate(templates[i], at, st[i])
      // @ts-expect-error: the private apply, the exact memory path of finishRun's journal entry
      store.apply({ t: 'r', m: templates[i], r: run, e: [], h })
      runs++
    }
  const yearS = (performance.now() - t0) / 1000
  await store.compact()
  await store.close()
  const mon = join(dir, 'monitors')
  const bytes = {
    snapshot: (await stat(join(mon, 'snapshot.json'))).size,
    history: (await stat(join(mon, 'history.bin'))).size,
  }
  log(
    `embedded: ${fmtInt(runs)} runs in ${yearS.toFixed(1)} s; snapshot ${fmtMB(bytes.snapshot)}, history ${fmtMB(bytes.history)}`,
  )
  const perMonitor = (bytes.snapshot + bytes.history) / T

  // B: clone to SCALE monitors
  const c0 = performance.now()
  await cloneEmbedded(mon, templates, SCALE)
  log(`embedded: cloned to ${fmtInt(SCALE)} monitors in ${((performance.now() - c0) / 1000).toFixed(1)} s`)
  const scaled = {
    snapshot: (await stat(join(mon, 'snapshot.json'))).size,
    history: (await stat(join(mon, 'history.bin'))).size,
  }
  // the fold at scale, in this process
  const f = new LowdbMonitorStore(dir)
  const l0 = performance.now()
  await f.load()
  const loadS = (performance.now() - l0) / 1000
  const ids = (await f.userMonitors(USER)).map((m) => m.id)
  const beforeFold = await procMem(process.pid)
  let foldPeak = beforeFold.rss
  const heap0 = process.memoryUsage()
  const heapPeak = { heapUsed: heap0.heapUsed, heapTotal: heap0.heapTotal, external: heap0.external }
  const sampler = setInterval(() => {
    const h = process.memoryUsage()
    for (const k of /** @type {const} */ (['heapUsed', 'heapTotal', 'external']))
      heapPeak[k] = Math.max(heapPeak[k], h[k])
    void procMem(process.pid).then((m) => (foldPeak = Math.max(foldPeak, m.rss)))
  }, 50)
  const fs0 = performance.now()
  await f.compact()
  const foldS = (performance.now() - fs0) / 1000
  clearInterval(sampler)
  foldPeak = Math.max(foldPeak, (await procMem(process.pid)).rss)
  await f.close()
  log(
    `embedded: in-process load ${loadS.toFixed(1)} s, RSS ${fmtMB(beforeFold.rss)}, fold ${foldS.toFixed(1)} s peak ${fmtMB(foldPeak)}` +
      ` (heap used ${fmtMB(heap0.heapUsed)} -> peak ${fmtMB(heapPeak.heapUsed)}, heap total ${fmtMB(heap0.heapTotal)} -> ${fmtMB(heapPeak.heapTotal)},` +
      ` external ${fmtMB(heap0.external)} -> ${fmtMB(heapPeak.external)})`,
  )
  const folded = { loadS, beforeFold: beforeFold.rss, foldPeak, foldS }
  if (o['fold-only'])
    return { runs, yearS, bytes, perMonitor, scaled, ...folded, serve: undefined, c: undefined }

  // serve on it, every monitor running at 60 s
  s = await startServe({ dataDir: dir, args: NO_LIMITS, adminToken: ADMIN, timeoutMs: 600_000 })
  const pid = s.child.pid
  const samples = []
  const w0 = Date.now()
  let c
  const snapAt = async () => (await stat(join(mon, 'snapshot.json'))).mtimeMs
  let snapMtime = await snapAt()
  let folds = 0
  while (Date.now() - w0 < Number(o['rss-window']) * 1000) {
    samples.push((await procMem(pid)).rss)
    const m = await snapAt().catch(() => snapMtime)
    if (m !== snapMtime) {
      folds++
      snapMtime = m
      log(
        `embedded: serve folded its journal (${folds}) at ${((Date.now() - w0) / 1000).toFixed(0)} s, RSS ${fmtMB(samples[samples.length - 1])}`,
      )
    }
    if (!c && Date.now() - w0 > 20_000) {
      const l = load()
      c = { ...(await uptimeVsHealth(s.url, key, ids)), load: l }
    }
    await sleep(2000)
  }
  const mem = await procMem(pid)
  const journalBytes = (await stat(join(mon, 'journal.jsonl'))).size
  log(
    `embedded: serve window ${o['rss-window']} s: ${folds} folds, journal now ${fmtMB(journalBytes)}, VmHWM ${fmtMB(mem.hwm)}`,
  )
  const runsNow = (await apiOk(s.url, `${PUBLIC}/monitors/${ids[0]}/runs?limit=10`, { token: key })).body.runs
    .length
  await s.stop()
  return {
    runs,
    yearS,
    bytes,
    perMonitor,
    scaled,
    ...folded,
    serve: { startupMs: s.startupMs, rss: summarize(samples), hwm: mem.hwm, runsNow, folds, journalBytes },
    c,
  }
}

/** Rewrites snapshot.json and history.bin of `templates` as `n` monitors (each template cloned in turn). */
async function cloneEmbedded(mon, templates, n) {
  // the templates' lines (one item a line: src/store/embedded/snapshot-file.ts)
  const items = { monitors: [], runs: [], events: [] }
  let section = 'monitors'
  for (const line of (await readFile(join(mon, 'snapshot.json'), 'utf8')).split('\n').slice(1)) {
    const next = /^\],"(\w+)":\[$/.exec(line)
    if (next) section = next[1]
    else if (line !== ']}' && line !== '')
      items[section].push(JSON.parse(line.endsWith(',') ? line.slice(0, -1) : line))
  }
  const hist = await readFile(join(mon, 'history.bin'))
  /** @type {Map<string, {header: any, rings: Buffer}>} */
  const rings = new Map()
  const ringBytes = (size) => size * 4 + size * 6 * 4 + size * 8
  const R = ringBytes(744) + ringBytes(400)
  for (let off = 4; off < hist.length;) {
    const len = hist.readUInt32LE(off)
    const header = JSON.parse(hist.subarray(off + 4, off + 4 + len).toString())
    rings.set(header.id, { header, rings: hist.subarray(off + 4 + len, off + 4 + len + R) })
    off += 4 + len + R
  }
  const now = Date.now()
  const clones = []
  for (let k = 0; k < n; k++) {
    const tpl = templates[k % templates.length]
    const id = nextId()
    clones.push({ tpl, id, k })
  }
  const suffix = (uuid, k) => uuid.slice(0, 24) + k.toString(16).padStart(12, '0')
  const snap = await open(join(mon, 'snapshot.json'), 'w')
  const w = async (text) => void (await snap.write(text))
  await w('{"version":1,"monitors":[')
  for (const [i, { tpl, id, k }] of clones.entries()) {
    const m = items.monitors.find((x) => x.id === tpl.id)
    const rec = {
      ...m,
      id,
      name: `year ${k}`,
      ref: null,
      paused: false,
      next_run_at: now + 5000 + ((k * 6151) % 60_000),
    }
    await w(`${i ? ',' : ''}\n${JSON.stringify(rec)}`)
  }
  await w('\n],"runs":[')
  let first = true
  for (const { tpl, id, k } of clones) {
    let chunk = ''
    for (const r of items.runs)
      if (r.monitor_id === tpl.id) {
        chunk += `${first ? '' : ','}\n${JSON.stringify({ ...r, id: suffix(r.id, k), monitor_id: id })}`
        first = false
      }
    await w(chunk)
  }
  first = true
  await w('\n],"events":[')
  for (const { tpl, id, k } of clones)
    for (const e of items.events)
      if (e.monitor_id === tpl.id) {
        await w(`${first ? '' : ','}\n${JSON.stringify({ ...e, id: suffix(e.id, k), monitor_id: id })}`)
        first = false
      }
  await w('\n]}\n')
  await snap.close()
  const hb = await open(join(mon, 'history.bin'), 'w')
  await hb.write(Buffer.from('SHH1'))
  for (const { tpl, id, k } of clones) {
    const t = rings.get(tpl.id)
    const header = Buffer.from(
      JSON.stringify({
        ...t.header,
        id,
        incidents: t.header.incidents.map((x) => ({ ...x, id: suffix(x.id, k), monitor_id: id })),
      }),
    )
    const len = Buffer.alloc(4)
    len.writeUInt32LE(header.length)
    await hb.write(Buffer.concat([len, header, t.rings]))
  }
  await hb.close()
  await writeFile(join(mon, 'journal.jsonl'), '')
}

// ---------------------------------------------------------------------------------------------
// PostgreSQL

async function postgres(target) {
  const url = await createPgDatabase(PG_ADMIN_URL, 'year')
  const dir = await makeTempDir('year-pg')
  const args = [...NO_LIMITS, '--database-url', url]
  let s = await startServe({ dataDir: dir, args, adminToken: ADMIN })
  const { key } = await s.createKey({ user: USER, credits: 1_000_000_000 })
  const seeded = await seedMonitors(s, key, target, T)
  await s.stop()

  let clock = Date.now()
  const store = await openPostgresStore({ url, poolSize: Math.max(2, T), now: () => clock })
  onCleanup(() => store.close().catch(() => {}))
  const ms = store.monitors
  const end = Math.floor(Date.now() / MIN) * MIN - MIN
  const templates = []
  for (const id of seeded) {
    const rec = await ms.getMonitorById(id)
    const m = await ms.createMonitor({
      ...rec,
      id: nextId(end - DAYS * DAY - DAY),
      name: `${rec.name} (year)`,
    })
    await ms.deleteMonitor(USER, id)
    templates.push(m)
  }
  const t0 = performance.now()
  let runs = 0
  const st = templates.map(() => ({ down: false }))
  let lastLog = t0
  for (const at of minutes(end, o['pg-sparse'])) {
    clock = at + 500
    await Promise.all(
      templates.map((m, i) => {
        const { run, h } = simulate(m, at, st[i])
        runs++
        return ms.finishRun(m, /** @type {any} */ (run), [], h)
      }),
    )
    if (performance.now() - lastLog > 30_000) {
      lastLog = performance.now()
      log(
        `postgres: ${fmtInt(runs)} runs, at ${new Date(at).toISOString().slice(0, 10)}, ${fmtInt(runs / ((lastLog - t0) / 1000))}/s`,
      )
    }
  }
  const yearS = (performance.now() - t0) / 1000
  await store.close()
  const c = new pg.Client({ connectionString: url })
  await c.connect()
  c.on('error', () => {}) // the drop at cleanup ends it if the run failed first
  const tables = [
    'monitor_runs',
    'monitor_assertion_sets',
    'monitor_rollups',
    'monitor_incidents',
    'monitor_events',
  ]
  for (const t of tables) await c.query(`VACUUM ANALYZE ${t}`)
  const sizes = {}
  for (const t of tables)
    sizes[t] = Number((await c.query(`SELECT pg_total_relation_size($1::regclass) AS n`, [t])).rows[0].n)
  const counts = {}
  for (const t of tables) counts[t] = Number((await c.query(`SELECT count(*) AS n FROM ${t}`)).rows[0].n)
  const perMonitor = Object.values(sizes).reduce((a, b) => a + b, 0) / T
  // the floor: VACUUM FULL rewrites each table with its live rows only. The simulated year runs
  // its statements back to back, far faster than autovacuum would reclaim a real year's deletes,
  // so the plain-VACUUM figure carries the whole year's churn of raw runs.
  for (const t of tables) await c.query(`VACUUM FULL ${t}`)
  const full = {}
  for (const t of tables)
    full[t] = Number((await c.query(`SELECT pg_total_relation_size($1::regclass) AS n`, [t])).rows[0].n)
  const perMonitorFull = Object.values(full).reduce((a, b) => a + b, 0) / T
  // what the tables take with no row at all (index metapages, the TOAST index): not per monitor
  let empty = 0
  for (const t of tables) {
    await c.query(`CREATE TEMP TABLE empty_${t} (LIKE ${t} INCLUDING ALL)`)
    empty += Number((await c.query(`SELECT pg_total_relation_size('empty_${t}'::regclass) AS n`)).rows[0].n)
  }
  const perMonitorMarginal = (Object.values(full).reduce((a, b) => a + b, 0) - empty) / T
  const avgRun = Number((await c.query(`SELECT avg(pg_column_size(r.*)) AS n FROM monitor_runs r`)).rows[0].n)
  log(`postgres: ${fmtInt(runs)} runs in ${yearS.toFixed(1)} s; ${fmtMB(perMonitor)} a monitor`)

  // C: the template's rows copied to SCALE paused monitors
  const k0 = performance.now()
  await c.query(
    `CREATE TEMP TABLE clones AS SELECT gen_random_uuid() AS id, $1::uuid AS tpl, g AS k
     FROM generate_series(1, $2::int) g`,
    [templates[0].id, SCALE],
  )
  await c.query(
    `INSERT INTO monitors (id, user_id, next_run_ms, paused, paused_reason, record)
     SELECT c.id, m.user_id, NULL, true, 'user',
       (m.record::jsonb || jsonb_build_object('id', c.id::text, 'name', 'year ' || c.k, 'paused', true,
         'paused_reason', 'user', 'next_run_at', NULL, 'ref', NULL))::json
     FROM clones c JOIN monitors m ON m.id = c.tpl`,
  )
  await c.query(
    `INSERT INTO monitor_rollups (monitor_id, granularity, block, counts, sums)
     SELECT c.id, r.granularity, r.block, r.counts, r.sums
     FROM clones c JOIN monitor_rollups r ON r.monitor_id = c.tpl`,
  )
  await c.query('VACUUM ANALYZE monitor_rollups')
  const ids = (await c.query('SELECT id FROM clones ORDER BY k')).rows.map((r) => r.id)
  const rollupRows = Number((await c.query('SELECT count(*) AS n FROM monitor_rollups')).rows[0].n)
  log(
    `postgres: ${fmtInt(SCALE)} monitors with ${fmtInt(rollupRows)} rollup rows in ${((performance.now() - k0) / 1000).toFixed(1)} s`,
  )
  s = await startServe({ dataDir: dir, args, adminToken: ADMIN, timeoutMs: 600_000 })
  const l = load()
  const cc = { ...(await uptimeVsHealth(s.url, key, ids)), load: l, rollupRows }
  await s.stop()
  await c.end() // before the database is dropped at cleanup
  return {
    runs,
    yearS,
    sizes,
    counts,
    perMonitor,
    full,
    perMonitorFull,
    empty,
    perMonitorMarginal,
    avgRun,
    c: cc,
  }
}

// ---------------------------------------------------------------------------------------------

const target = await startTarget()
const out = []
const started = new Date().toISOString()
out.push(
  `## Monitor history after a simulated year (${started.slice(0, 16)} UTC)`,
  '',
  `\`node bench/history-year.js ${process.argv.slice(2).join(' ')}\`: ${T} template monitors × ${DAYS} days of 60 s runs` +
    ` (a 10-minute outage every 3 days, three assertion results a run); load average at start ${load()}.`,
  '',
)
try {
  if (o.backend !== 'postgres') {
    const e = await embedded(target.url)
    out.push(
      `**Embedded, storage**: ${fmtInt(e.runs)} runs applied in ${e.yearS.toFixed(1)} s; after the fold snapshot.json ${fmtMB(e.bytes.snapshot)} + history.bin ${fmtMB(e.bytes.history)} for ${T} monitors = **${fmtInt(e.perMonitor / 1024)} KB a monitor** (target ≤ 300 KB).`,
      '',
      `**Embedded at ${fmtInt(SCALE)} monitors**: snapshot.json ${fmtMB(e.scaled.snapshot)}, history.bin ${fmtMB(e.scaled.history)}; in-process load ${e.loadS.toFixed(1)} s to RSS ${fmtMB(e.beforeFold)}, a fold ${e.foldS.toFixed(1)} s peaking at RSS ${fmtMB(e.foldPeak)}.`,
    )
    if (e.serve)
      out.push(
        `\`serve\` on it (every monitor running at 60 s) for ${o['rss-window']} s: start-up ${fmtInt(e.serve.startupMs)} ms, RSS p50 ${fmtMB(e.serve.rss.p50)}, max sampled ${fmtMB(e.serve.rss.max)}, **peak (VmHWM) ${fmtMB(e.serve.hwm)}** (target ≤ 1 GB), ${e.serve.folds} fold(s) of its journal in the window (journal at the end ${fmtMB(e.serve.journalBytes)}).`,
      )
    out.push('')
    if (e.c)
      out.push(
        table(
          ['embedded, ' + fmtInt(SCALE) + ' monitors (load ' + e.c.load + ')', 'p50', 'p95', 'n'],
          [
            [
              `GET uptime, 400 days by day (${e.c.buckets} buckets)`,
              `${fmtMs(e.c.uptime.p50)} ms`,
              `${fmtMs(e.c.uptime.p95)} ms`,
              String(e.c.uptime.n),
            ],
            [
              'GET /health',
              `${fmtMs(e.c.health.p50)} ms`,
              `${fmtMs(e.c.health.p95)} ms`,
              String(e.c.health.n),
            ],
          ],
        ),
        '',
      )
  }
  if (o.backend !== 'embedded') {
    const p = await postgres(target.url)
    out.push(
      `**PostgreSQL, storage**: ${fmtInt(p.runs)} runs through finishRun in ${p.yearS.toFixed(0)} s${o['pg-sparse'] ? ' (--pg-sparse: one run an hour but for the last day)' : ''}; after VACUUM, per monitor **${fmtInt(p.perMonitor / 1024)} KB**; after VACUUM FULL (live rows only) **${fmtInt(p.perMonitorFull / 1024)} KB** (target ≤ 300 KB), of which ${fmtInt(p.empty / 1024 / T)} KB is the tables' size with no row (${fmtInt(p.empty / 1024)} KB ÷ ${T}): **${fmtInt(p.perMonitorMarginal / 1024)} KB** a monitor more; a run row averages ${fmtInt(p.avgRun)} bytes:`,
      '',
      table(
        ['table', 'rows', 'after VACUUM', 'per monitor', 'after VACUUM FULL', 'per monitor'],
        Object.keys(p.sizes).map((t) => [
          t,
          fmtInt(p.counts[t]),
          fmtMB(p.sizes[t]),
          `${fmtInt(p.sizes[t] / T / 1024)} KB`,
          fmtMB(p.full[t]),
          `${fmtInt(p.full[t] / T / 1024)} KB`,
        ]),
      ),
      '',
      table(
        [
          `PostgreSQL, ${fmtInt(SCALE)} monitors, ${fmtInt(p.c.rollupRows)} rollup rows (load ${p.c.load})`,
          'p50',
          'p95',
          'n',
        ],
        [
          [
            `GET uptime, 400 days by day (${p.c.buckets} buckets)`,
            `${fmtMs(p.c.uptime.p50)} ms`,
            `${fmtMs(p.c.uptime.p95)} ms`,
            String(p.c.uptime.n),
          ],
          ['GET /health', `${fmtMs(p.c.health.p50)} ms`, `${fmtMs(p.c.health.p95)} ms`, String(p.c.health.n)],
        ],
      ),
      '',
    )
  }
  out.push(`Load average at the end: ${load()}.`)
  console.log(out.join('\n'))
} finally {
  await target.close?.()
  await cleanup()
}
