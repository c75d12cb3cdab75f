// @ts-check
/**
 * Benchmark 2, store scaling. For 100, 10 000 and 100 000 saved checks (over 10 users, seeded
 * through the Store interface with checks.import in batches), start `serve` on the data dir and time,
 * for one of the users: a run-check of a local target, `GET recent` (first page, and a page deep in
 * the history), and `GET` by id. Also reports seeding time, data-dir size and `serve` start-up.
 * Target: each p50 at 100 000 within 1.3x of its p50 at 100.
 *
 * The measured user's newest shard holds 10 checks at every size (its count is 10 more than a
 * multiple of the shard size), so a run-check rewrites a shard of the same size everywhere.
 */
import { performance } from 'node:perf_hooks'
import { runCheck } from '../dist/checks/index.js'
import { toCheckRecord } from '../dist/runs/index.js'
import { DEFAULT_SHARD_SIZE, openStore } from '../dist/store/index.js'
import {
  NO_LIMITS,
  PUBLIC,
  apiOk,
  dirSize,
  fmtInt,
  fmtMB,
  fmtMs,
  fmtRatio,
  makeTempDir,
  median,
  removeTempDir,
  startServe,
  startTarget,
  summarize,
  table,
} from './lib.js'

const SIZES = (process.env.BENCH_STORE_SIZES ?? '100,10000,100000').split(',').map(Number)
const USERS = 10
const BATCH = 2000
const STARTS = 3
const RUNS = Number(process.env.BENCH_STORE_RUNS ?? 60)
const READS = Number(process.env.BENCH_STORE_READS ?? 300)
const UNCACHED_READS = 200
const TARGET = 1.3

/** Per-user check counts summing to n; user 0 (measured) ends with a 10-check newest shard. */
function plan(n) {
  const per = Math.floor(n / USERS)
  const first = per >= DEFAULT_SHARD_SIZE ? per - (per % DEFAULT_SHARD_SIZE) + 10 : per
  const rest = n - first
  const counts = [first]
  for (let u = 1; u < USERS; u++) {
    const share = Math.floor(rest / (USERS - 1)) + (u - 1 < rest % (USERS - 1) ? 1 : 0)
    counts.push(share)
  }
  const now = Date.now()
  return counts.map((count, u) => ({
    id: `bench-u${u}`,
    count,
    // one check a second, ending a minute ago: run-checks of the benchmark come after them all
    t0: now - (count + 60) * 1000,
  }))
}

/** A real saved-check record: one check of the local target, through the engine. */
async function sampleRecord(url) {
  return toCheckRecord(await runCheck(url, { allowPrivateTargets: true }))
}

async function seed(dataDir, users, base) {
  const store = await openStore(dataDir)
  const started = performance.now()
  try {
    await Promise.all(
      users.map(async (u) => {
        await store.users.ensure(u.id, 1_000_000)
        for (let off = 0; off < u.count; off += BATCH) {
          const n = Math.min(BATCH, u.count - off)
          const records = new Array(n)
          const dates = new Array(n)
          for (let i = 0; i < n; i++) {
            const k = off + i
            records[i] = {
              ...base,
              url: `https://site-${k % 997}.example.com/`,
              health_score: (base.health_score + k) % 101,
            }
            dates[i] = new Date(u.t0 + k * 1000)
          }
          await store.checks.import(u.id, records, dates)
        }
      }),
    )
  } finally {
    await store.close()
  }
  return performance.now() - started
}

const iso = (ms) => new Date(ms).toISOString()

/** Seeds one size and measures the data dir; the servers are started later, all together. */
async function prepare(n, base, log) {
  const users = plan(n)
  const dataDir = await makeTempDir(`store-${n}`)
  log(`  ${fmtInt(n)}: seeding ${users.map((u) => u.count).join('/')} checks`)
  const seedMs = await seed(dataDir, users, base)
  const size = await dirSize(dataDir)
  return { n, users, dataDir, seedMs, size, startups: [] }
}

/** Keys for every user, the deep-page path and ids spread over each user's history. */
async function discover(s) {
  const { serve, users } = s
  s.keys = []
  for (const u of users) s.keys.push((await serve.createKey({ user: u.id })).key)
  const me = users[0]
  s.get = (path, token = s.keys[0]) => apiOk(serve.url, `${PUBLIC}${path}`, { token })

  // a page deep in the history: the 10 checks before the one at 10% of it (90% down from the newest)
  const deepIndex = Math.max(10, Math.floor(me.count * 0.1))
  s.deepPath = `/checks/recent?limit=10&cursor=${encodeURIComponent(iso(me.t0 + deepIndex * 1000))}`
  const cold = await s.get(s.deepPath)
  if (cold.body.checks.length !== Math.min(10, deepIndex)) throw new Error('deep page: wrong length')
  // the first deep-page request of every other user too: only newest shards are cached after start-up
  const colds = [cold.ms]
  for (let u = 1; u < users.length; u++) {
    const idx = Math.max(10, Math.floor(users[u].count * 0.1))
    const cursor = encodeURIComponent(iso(users[u].t0 + idx * 1000))
    colds.push((await s.get(`/checks/recent?limit=10&cursor=${cursor}`, s.keys[u])).ms)
  }
  s.deepColdMs = median(colds)

  // ids from 16 points spread over each user's history
  s.ids = users.map(() => [])
  for (let u = 0; u < users.length; u++) {
    for (let p = 1; p <= 16; p++) {
      const idx = Math.max(1, Math.round((users[u].count * p) / 16))
      const cursor = encodeURIComponent(iso(users[u].t0 + idx * 1000))
      const page = await s.get(`/checks/recent?limit=10&cursor=${cursor}`, s.keys[u])
      for (const c of page.body.checks) s.ids[u].push(c.id)
    }
  }
  s.myIds = [...new Set(s.ids[0])]
}

/** Every measurement, round-robin over the sizes, so drift of the machine hits them all alike. */
async function measure(sizes, targetUrl, log) {
  for (const s of sizes) s.samples = { first: [], deep: [], byId: [], uncached: [], runs: [] }
  log(`  reads: ${READS} of each, interleaved over the sizes`)
  for (let i = -20; i < READS; i++) {
    for (const s of sizes) {
      const first = await s.get('/checks/recent?limit=10')
      const deep = await s.get(s.deepPath)
      const byId = await s.get(`/checks/${s.myIds[(i + 20) % s.myIds.length]}`)
      if (i < 0) continue
      s.samples.first.push(first.ms)
      s.samples.deep.push(deep.ms)
      s.samples.byId.push(byId.ms)
    }
  }
  // by id over every user's whole history: at 10 000 and 100 000 most of these miss the shard cache
  let state = 12345
  const rnd = (m) => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0
    return (state >>> 8) % m
  }
  for (let i = 0; i < UNCACHED_READS; i++) {
    for (const s of sizes) {
      const u = rnd(s.users.length)
      s.samples.uncached.push((await s.get(`/checks/${s.ids[u][rnd(s.ids[u].length)]}`, s.keys[u])).ms)
    }
  }
  log(`  run-checks: ${RUNS} per size, interleaved`)
  for (let i = -3; i < RUNS; i++) {
    for (const s of sizes) {
      const res = await apiOk(s.serve.url, `${PUBLIC}/checks/run`, {
        method: 'POST',
        token: s.keys[0],
        body: { url: targetUrl },
      })
      if (i >= 0) s.samples.runs.push(res.ms)
    }
  }
  return sizes.map((s) => ({
    n: s.n,
    seedMs: s.seedMs,
    size: s.size,
    startupMs: median(s.startups),
    startups: s.startups,
    deepColdMs: s.deepColdMs,
    ops: {
      'run-check (POST /checks/run)': summarize(s.samples.runs),
      'GET recent, first page': summarize(s.samples.first),
      'GET recent, deep page (90% down)': summarize(s.samples.deep),
      'GET check by id': summarize(s.samples.byId),
      'GET by id, any user, anywhere (info)': summarize(s.samples.uncached),
    },
  }))
}

export async function run(log) {
  const target = await startTarget()
  try {
    const base = await sampleRecord(target.url)
    log(`  sample record: ${JSON.stringify(base).length} bytes of JSON`)
    const sizes = []
    for (const n of SIZES) sizes.push(await prepare(n, base, log))
    // start-up: each size in turn, three rounds; the servers of the last round stay up
    log(`  serve start-up: ${STARTS} rounds over the sizes`)
    for (let round = 0; round < STARTS; round++) {
      for (const s of sizes) {
        s.serve = await startServe({ dataDir: s.dataDir, args: NO_LIMITS })
        s.startups.push(s.serve.startupMs)
        if (round < STARTS - 1) await s.serve.stop()
      }
    }
    for (const s of sizes) await discover(s)
    const results = await measure(sizes, target.url, log)
    for (const s of sizes) {
      await s.serve.stop()
      await removeTempDir(s.dataDir)
    }

    const lo = results[0]
    const hi = results[results.length - 1]
    const sizesTable = table(
      ['saved checks', 'seed time', 'seed rate', 'data dir', 'files', 'serve start-up (median of 3)'],
      results.map((r) => [
        fmtInt(r.n),
        `${(r.seedMs / 1000).toFixed(1)} s`,
        `${fmtInt(r.n / (r.seedMs / 1000))} checks/s`,
        `${fmtMB(r.size.bytes)} (${fmtMB(r.size.allocated)} on disk)`,
        fmtInt(r.size.files),
        `${fmtMs(r.startupMs)} ms (${r.startups.map((s) => fmtMs(s)).join(', ')})`,
      ]),
    )
    const ops = Object.keys(lo.ops)
    const opsTable = table(
      [
        'operation, ms p50 (p99)',
        ...results.map((r) => fmtInt(r.n)),
        `p50 ratio ${fmtInt(hi.n)} / ${fmtInt(lo.n)}`,
      ],
      [
        ...ops.map((op) => [
          op,
          ...results.map((r) => `${fmtMs(r.ops[op].p50)} (${fmtMs(r.ops[op].p99)})`),
          fmtRatio(hi.ops[op].p50 / lo.ops[op].p50),
        ]),
        [
          'GET recent, deep page, first request per user (median of 10, info)',
          ...results.map((r) => fmtMs(r.deepColdMs)),
          fmtRatio(hi.deepColdMs / lo.deepColdMs),
        ],
      ],
    )
    const targets = ops
      .filter((op) => !op.includes('(info)'))
      .map((op) => {
        const ratio = hi.ops[op].p50 / lo.ops[op].p50
        return {
          name: `Store scaling: ${op} p50 at ${fmtInt(hi.n)} vs ${fmtInt(lo.n)}`,
          value: fmtRatio(ratio),
          target: `<= ${TARGET}`,
          met: ratio <= TARGET,
        }
      })
    return {
      title: '2. Store scaling',
      text: [
        `${USERS} users; seeded with checks.import in batches of ${BATCH} per user (users in parallel), one check a second of history. Measured user: ${results.map((r) => r.n).join(' / ')} total -> ${results.map((r) => plan(r.n)[0].count).join(' / ')} of its own (newest shard: 10 checks at every size). All sizes are served at once and measured round-robin (one request of each size in turn), so drift of the machine hits every size alike: ${READS} of each read after 20 warm-ups, ${RUNS} run-checks after 3 warm-ups, one request at a time, keep-alive client. Target page: ${target.pageBytes} bytes of HTML on 127.0.0.1.`,
        '',
        sizesTable,
        '',
        opsTable,
        '',
        `"any user, anywhere" picks ids at random over all ${USERS} users' whole histories (shard-cache misses once there are more than 32 shards); it is not a target, it shows the uncached cost of one shard read.`,
      ].join('\n'),
      targets,
      data: results,
    }
  } finally {
    await target.close()
  }
}
