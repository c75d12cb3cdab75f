// @ts-check
/**
 * Monitor benchmarks (issue 13), against a local farm of loopback targets, bounded in count and
 * time:
 *
 *  1. hold: N monitors at a 60 s interval on one instance; after two intervals of warm-up, the
 *     schedule lag (due → started) over the measured window, p50/p99/max; runs missed or doubled
 *     (from each monitor's run history: consecutive runs closer than half an interval, or further
 *     apart than interval + 2 s); memory (RSS, heap) sampled through the window; the server's CPU
 *     time per run and the whole machine's CPU use over the window (/proc/stat, Linux).
 *  2. listing: GET /monitors (first page, and a deep page) at N monitors ÷ at 10.
 *  3. fsyncs per saved check at ~100 checks/s (100 monitors at 1 s), one user and 100 users
 *     (embedded store only).
 *
 *   node bench/monitors.js [--monitors 10000] [--window 300] [--targets 16] [--skip-hold]
 *                          [--skip-fsync] [--postgres] [--profile DIR] [--users 1] [--assertions]
 *
 * --users N: the monitors are spread over N users (round robin) instead of one agency account
 * owning them all; the listing part needs one user owning every monitor and is skipped.
 *
 * --assertions: every monitor carries three assertions (a `status_code`, a `text_body` and a
 * `response_time` one) that its runs evaluate; the hold reports how many runs in the window carry
 * all three results and how many of those passed (the farm answers so that all pass).
 *
 * --postgres: every server stores in its own fresh PostgreSQL database, created on the server of
 * BENCH_PG_URL (default postgres://postgres@127.0.0.1:5432/postgres) and dropped at the end; the
 * fsync part does not apply and is skipped.
 *
 * Needs a build (`npm run build`). The full run takes about 8 minutes and two busy cores; use a
 * smaller --monitors / --window while developing.
 */
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { readFile } from 'node:fs/promises'
import { loadavg } from 'node:os'
import { setTimeout } from 'node:timers'
import { parseArgs } from 'node:util'
import {
  apiOk,
  cleanup,
  createPgDatabase,
  fmtInt,
  fmtMB,
  fmtMs,
  fmtRatio,
  makeTempDir,
  onCleanup,
  summarize,
  table,
} from './lib.js'

const { values: o } = parseArgs({
  options: {
    monitors: { type: 'string', default: '10000' },
    window: { type: 'string', default: '300' },
    targets: { type: 'string', default: '16' },
    'skip-hold': { type: 'boolean', default: false },
    'skip-fsync': { type: 'boolean', default: false },
    postgres: { type: 'boolean', default: false },
    users: { type: 'string', default: '1' },
    assertions: { type: 'boolean', default: false },
    // writes a V8 CPU profile of each server process into this directory (node --cpu-prof)
    profile: { type: 'string' },
  },
})
const N = Number(o.monitors)
const WINDOW_S = Number(o.window)
const INTERVAL = 60
const WARMUP_S = 2 * INTERVAL
const ADMIN = 'bench-admin-token-0123456789abcdef0123456789'
const PG_ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
const STORE = o.postgres ? 'PostgreSQL' : 'embedded'
/** The three assertions of --assertions; the farm's page passes all of them. */
const ASSERTIONS = [
  { source: 'status_code', comparison: 'equals', target: '200' },
  { source: 'text_body', comparison: 'contains', target: 'loopback target' },
  { source: 'response_time', comparison: 'less_than', target: '5000' },
]
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

function child(args, { ipc = false } = {}) {
  const p = spawn(process.execPath, args, {
    stdio: /** @type {import('node:child_process').StdioOptions} */ ([
      'ignore',
      'pipe',
      'inherit',
      ...(ipc ? ['ipc'] : []),
    ]),
  })
  onCleanup(async () => {
    if (p.exitCode === null && p.signalCode === null) {
      p.kill('SIGTERM')
      await once(p, 'exit')
    }
  })
  return p
}

async function firstLine(p) {
  let out = ''
  for await (const chunk of p.stdout) {
    out += chunk
    if (out.includes('\n')) return out.split('\n')[0]
  }
  throw new Error('child ended before printing')
}

async function startFarm(count) {
  const p = child(['bench/fixtures/monitors-farm.js', String(count)])
  return JSON.parse(await firstLine(p))
}

async function startServer(minInterval = 60) {
  const dir = await makeTempDir('monitors')
  const db = o.postgres ? [await createPgDatabase(PG_ADMIN_URL, 'monitors')] : []
  const profile = o.profile ? ['--cpu-prof', `--cpu-prof-dir=${o.profile}`] : []
  const p = child([...profile, 'bench/fixtures/monitors-server.js', dir, String(minInterval), '100', ...db], {
    ipc: true,
  })
  const url = await firstLine(p)
  p.stdout?.resume()
  const stats = () =>
    new Promise((resolve) => {
      p.once('message', resolve)
      p.send('stats')
    })
  const stop = async () => {
    p.kill('SIGTERM')
    await once(p, 'exit')
  }
  return { url, stats, stop }
}

async function key(url, user, credits = 1_000_000_000) {
  return (
    await apiOk(
      url,
      '/api/admin/v1/keys',
      { method: 'POST', token: ADMIN, body: { name: user, user, credits } },
      201,
    )
  ).body.key
}

/** Runs `fn` over `items` with `limit` at a time. */
async function pool(items, limit, fn) {
  let i = 0
  const worker = async () => {
    while (i < items.length) {
      const k = i++
      await fn(items[k], k)
    }
  }
  await Promise.all(Array.from({ length: limit }, worker))
}

async function createMonitors(url, keys, farm, n, interval) {
  const ids = []
  await pool(
    Array.from({ length: n }, (_, i) => i),
    32,
    async (i) => {
      const res = await apiOk(
        url,
        '/api/public/v1/monitors',
        {
          method: 'POST',
          token: keys[i % keys.length],
          body: {
            url: `${farm[i % farm.length]}/m/${i}`,
            interval_seconds: interval,
            ...(o.assertions ? { assertions: ASSERTIONS } : {}),
          },
        },
        201,
      )
      ids[i] = { id: res.body.id, key: keys[i % keys.length] }
    },
  )
  return ids
}

async function listTimes(url, token, reps) {
  const first = []
  const deep = []
  const page1 = await apiOk(url, '/api/public/v1/monitors?limit=50', { token })
  // a deep page: walk to the middle once, then time that page
  let cursor = page1.body.next_cursor
  let hops = 0
  while (cursor && hops < 100) {
    const p = await apiOk(url, `/api/public/v1/monitors?limit=50&cursor=${cursor}`, { token })
    if (!p.body.next_cursor) break
    cursor = p.body.next_cursor
    hops++
  }
  for (let i = 0; i < reps; i++) {
    first.push((await apiOk(url, '/api/public/v1/monitors?limit=50', { token })).ms)
    deep.push(
      (await apiOk(url, `/api/public/v1/monitors?limit=50${cursor ? `&cursor=${cursor}` : ''}`, { token }))
        .ms,
    )
  }
  return { first: summarize(first).p50, deep: summarize(deep).p50, hops }
}

/** Busy and total jiffies of the whole machine (/proc/stat, Linux), or undefined elsewhere. */
async function machineCpu() {
  try {
    const f = (await readFile('/proc/stat', 'utf8')).split('\n')[0].trim().split(/\s+/).slice(1).map(Number)
    const total = f.reduce((a, b) => a + b, 0)
    return { busy: total - f[3] - f[4], total }
  } catch {
    return undefined
  }
}

async function hold(farm) {
  const s = await startServer(60)
  // by default one agency account owning every monitor: listing is measured on it, and every
  // check of the schedule goes through one user's commit queue (the hardest case for the store)
  const users = Number(o.users)
  const keys = []
  for (let u = 0; u < users; u++) keys.push(await key(s.url, `agency-${u}`))
  const t0 = Date.now()
  const ids = await createMonitors(s.url, keys, farm, N, INTERVAL)
  const createdS = (Date.now() - t0) / 1000
  // a new monitor runs at once, then moves onto its phase of the interval (src/monitors/interval.ts:
  // one gap of half an interval to one and a half); two intervals put every monitor on its phase,
  // and the runs before that stay out of the window and of the gaps checked
  console.error(`created ${N} monitors in ${createdS.toFixed(1)} s; warming up ${WARMUP_S} s`)
  await sleep(WARMUP_S * 1000)
  const s0 = await s.stats() // drops warm-up lags
  const m0 = await machineCpu()
  const load0 = loadavg()[0]
  const windowStart = Date.now()
  const lags = []
  const mem = []
  let started0
  for (let t = 0; t < WINDOW_S; t += 5) {
    await sleep(5000)
    const st = await s.stats()
    started0 ??= st.started - st.lags.length
    lags.push(...st.lags)
    mem.push(st.memory)
  }
  const end = await s.stats()
  lags.push(...end.lags)
  const windowEnd = Date.now()
  const m1 = await machineCpu()
  const load1 = loadavg()[0]
  const started = end.started - s0.started
  // each monitor's history: doubles and misses within the window
  let doubled = 0
  let missed = 0
  let runsInWindow = 0
  let offCount = 0
  let asserted = 0
  let assertedPassed = 0
  await pool(ids, 16, async ({ id, key: k }) => {
    const r = await apiOk(s.url, `/api/public/v1/monitors/${id}/runs?limit=50`, { token: k })
    for (const run of r.body.runs) {
      // the same window as runsInWindow: runs keep coming while the histories are read, and a run
      // after windowEnd counted here but not there gave "2,203 of 2,009"
      const at = Date.parse(run.started_at)
      if (at < windowStart || at > windowEnd || (run.assertions ?? []).length !== ASSERTIONS.length) continue
      asserted++
      if (run.assertions.every((a) => a.passed)) assertedPassed++
    }
    const times = r.body.runs
      .map((x) => Date.parse(x.started_at))
      .filter((x) => x >= windowStart - INTERVAL * 1000 && x <= windowEnd)
      .sort((a, b) => a - b)
    const inWindow = times.filter((x) => x >= windowStart).length
    runsInWindow += inWindow
    // a monitor runs floor(W / P) or ceil(W / P) times in a window of W seconds
    const w = (windowEnd - windowStart) / 1000 / INTERVAL
    if (inWindow < Math.floor(w) || inWindow > Math.ceil(w)) offCount++
    for (let j = 1; j < times.length; j++) {
      const gap = times[j] - times[j - 1]
      if (gap < (INTERVAL * 1000) / 2) doubled++
      if (gap > INTERVAL * 1000 + 2000) missed++
    }
    const lastRun = times[times.length - 1] ?? 0
    if (windowEnd - lastRun > INTERVAL * 1000 + 2000) missed++
  })
  // pause all for the listing measurement (the scheduler then idles)
  await pool(ids, 32, ({ id, key: k }) =>
    apiOk(s.url, `/api/public/v1/monitors/${id}`, { method: 'PATCH', token: k, body: { paused: true } }),
  )
  await sleep(3000)
  const lag = summarize(lags)
  const rss = mem.map((m) => m.rss)
  const heap = mem.map((m) => m.heapUsed)
  const res = {
    createdS,
    lag,
    runsInWindow,
    offCount,
    asserted,
    assertedPassed,
    windowS: (windowEnd - windowStart) / 1000,
    doubled,
    missed,
    checksPerS: started / ((windowEnd - windowStart) / 1000),
    cpuMsPerRun: (end.cpuMs - s0.cpuMs) / started,
    machineBusy: m0 && m1 ? (m1.busy - m0.busy) / (m1.total - m0.total) : undefined,
    load: [load0, load1],
    rssFirst: rss[0],
    rssLast: rss.at(-1),
    rssMax: Math.max(...rss),
    heapFirst: heap[0],
    heapLast: heap.at(-1),
    writes: end.writes,
    journalSyncs: end.journalSyncs,
    server: s,
    keys,
  }
  return res
}

async function listing(farm, atN) {
  // at 10 monitors: a fresh server; monitors paused after their first run
  const small = await startServer(60)
  const k = await key(small.url, 'agency-0')
  const ids = await createMonitors(small.url, [k], farm, 10, INTERVAL)
  await sleep(2000)
  for (const { id } of ids)
    await apiOk(small.url, `/api/public/v1/monitors/${id}`, {
      method: 'PATCH',
      token: k,
      body: { paused: true },
    })
  const reps = 300
  const tSmall = await listTimes(small.url, k, reps)
  await small.stop()
  const tBig = await listTimes(atN.server.url, atN.keys[0], reps)
  return { tSmall, tBig }
}

async function fsyncs(farm, users) {
  const s = await startServer(1)
  const keys = []
  for (let u = 0; u < users; u++) keys.push(await key(s.url, `u${u}`))
  await createMonitors(s.url, keys, farm, 100, 1)
  await sleep(5000)
  const a = await s.stats()
  const seconds = 20
  await sleep(seconds * 1000)
  const b = await s.stats()
  await s.stop()
  const checks = b.started - a.started
  // a durable shard write is 2 fsyncs (the file, then its directory); a journal flush is 1
  const shardWrites = b.writes - a.writes
  const journal = b.journalSyncs - a.journalSyncs
  return {
    users,
    checksPerS: checks / seconds,
    perCheck: (2 * shardWrites + journal) / checks,
    shardWrites,
    journal,
    checks,
  }
}

try {
  const farm = await startFarm(Number(o.targets))
  const lines = []
  if (!o['skip-hold']) {
    const h = await hold(farm)
    lines.push(
      `## Hold (${STORE}): ${fmtInt(N)} monitors of ${o.users === '1' ? 'one user' : `${o.users} users`} at ${INTERVAL} s${o.assertions ? ', three assertions each' : ''}, ${WINDOW_S} s measured after ${WARMUP_S} s of warm-up`,
      '',
      table(
        [
          'monitors',
          'runs in window',
          'monitors off ⌊W/P⌋..⌈W/P⌉',
          'lag p50',
          'lag p99',
          'lag max',
          'doubled',
          'missed',
          'RSS first → last (max)',
          'heap first → last',
        ],
        [
          [
            fmtInt(N),
            `${fmtInt(h.runsInWindow)} in ${h.windowS.toFixed(1)} s`,
            String(h.offCount),
            `${fmtMs(h.lag.p50)} ms`,
            `${fmtMs(h.lag.p99)} ms`,
            `${fmtMs(h.lag.max)} ms`,
            String(h.doubled),
            String(h.missed),
            `${fmtMB(h.rssFirst)} → ${fmtMB(h.rssLast)} (${fmtMB(h.rssMax)})`,
            `${fmtMB(h.heapFirst)} → ${fmtMB(h.heapLast)}`,
          ],
        ],
      ),
      '',
      `Runs started ${h.checksPerS.toFixed(1)}/s (${fmtInt(N / INTERVAL)}/s due); server CPU ${h.cpuMsPerRun.toFixed(2)} ms per run; ` +
        `whole machine ${h.machineBusy === undefined ? 'n/a' : `${(100 * h.machineBusy).toFixed(0)} % busy`} over the window; ` +
        `load average ${h.load[0].toFixed(2)} → ${h.load[1].toFixed(2)}.`,
      '',
      ...(o.assertions
        ? [
            `Assertions: ${fmtInt(h.asserted)} of ${fmtInt(h.runsInWindow)} runs in the window carry all ${ASSERTIONS.length} results, ${fmtInt(h.assertedPassed)} of them all passed` +
              (h.asserted < h.runsInWindow ? ' (**not every run evaluated its assertions**)' : '') +
              '.',
            '',
          ]
        : []),
    )
    const l = o.users === '1' ? await listing(farm, h) : undefined
    if (l)
      lines.push(
        `## Listing monitors (${STORE}, limit 50), median of 300: ${fmtInt(N)} monitors of one user ÷ 10`,
        '',
        table(
          ['page', 'at 10', `at ${fmtInt(N)}`, 'ratio'],
          [
            [
              'first',
              `${fmtMs(l.tSmall.first)} ms`,
              `${fmtMs(l.tBig.first)} ms`,
              fmtRatio(l.tBig.first / l.tSmall.first),
            ],
            [
              `deep (${l.tBig.hops + 1} pages in)`,
              `${fmtMs(l.tSmall.deep)} ms`,
              `${fmtMs(l.tBig.deep)} ms`,
              fmtRatio(l.tBig.deep / l.tSmall.deep),
            ],
          ],
        ),
        '',
      )
    await h.server.stop()
  }
  if (!o['skip-fsync'] && !o.postgres) {
    const rows = []
    for (const users of [1, 100]) {
      const f = await fsyncs(farm, users)
      rows.push([
        String(f.users),
        f.checksPerS.toFixed(0),
        fmtInt(f.checks),
        fmtInt(f.shardWrites),
        fmtInt(f.journal),
        f.perCheck.toFixed(2),
      ])
    }
    lines.push(
      '## fsyncs per saved check at ~100 checks/s (100 monitors at 1 s, 20 s)',
      '',
      table(
        ['users', 'checks/s', 'checks', 'shard writes (2 fsyncs each)', 'journal fsyncs', 'fsyncs / check'],
        rows,
      ),
      '',
    )
  }
  console.log(lines.join('\n'))
} finally {
  await cleanup()
}
