// @ts-check
/**
 * Benchmark 4, check overhead and concurrency.
 *
 * Overhead: a run-check of a local target through `serve` versus a bare undici GET of the same
 * target (a fresh connection, as a check opens one; keep-alive shown for information), with the
 * parts in between measured in this process for the breakdown: the engine alone (runCheck), the
 * store's commit alone (checks.commit on a temporary store, the user's newest shard holding 10 checks or
 * one short of full: a commit rewrites that shard) and an authenticated API round trip
 * (GET credits). Round-robin, so drift of the machine hits every variant alike.
 * Target: run-check p50 <= 2x the bare GET's.
 *
 * Concurrency: 100 run-checks at once (10 keys of 10 users) of a target that answers after 300 ms,
 * versus one such check alone. Target: the 100 finish in under 3x the single-check time.
 */
import { performance } from 'node:perf_hooks'
import { Agent, request } from 'undici'
import { runCheck } from '../dist/checks/index.js'
import { toCheckRecord } from '../dist/runs/index.js'
import { DEFAULT_SHARD_SIZE, openStore } from '../dist/store/index.js'
import {
  NO_LIMITS,
  PUBLIC,
  api,
  apiOk,
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

const ROUNDS = Number(process.env.BENCH_CHECK_ROUNDS ?? 40)
const WARMUP = 5
const DELAY_MS = 300
const CONCURRENT = 100
const KEYS = 10
const BURSTS = 3
const SINGLES = 7
const OVERHEAD_TARGET = 2
const CONCURRENCY_TARGET = 3

async function timed(fn) {
  const started = performance.now()
  await fn()
  return performance.now() - started
}

/** One GET on a fresh connection (a new undici Agent), body read; the agent is closed untimed. */
async function bareFresh(url) {
  const agent = new Agent()
  try {
    return await timed(async () => {
      const res = await request(url, { dispatcher: agent })
      await res.body.text()
      if (res.statusCode !== 200) throw new Error(`bare GET: HTTP ${res.statusCode}`)
    })
  } finally {
    await agent.close()
  }
}

const keepAlive = new Agent({ keepAliveTimeout: 60_000 })
const bareKeepAlive = (url) =>
  timed(async () => {
    const res = await request(url, { dispatcher: keepAlive })
    await res.body.text()
  })

async function overhead(log) {
  const target = await startTarget()
  const dataDir = await makeTempDir('check')
  const storeDir = await makeTempDir('check-store')
  const serve = await startServe({ dataDir, args: [...NO_LIMITS, '--initial-credits', '1000000'] })
  const store = await openStore(storeDir)
  try {
    const { key } = await serve.createKey({ user: 'bench-check' })
    const report = await runCheck(target.url, { allowPrivateTargets: true })
    const record = toCheckRecord(report)
    // a commit rewrites the user's newest shard: time one with that shard at a given size (a fresh
    // user each time, its history imported untimed)
    let users = 0
    const commitWithTail = async (tail) => {
      const user = `bench-commit-${users++}`
      await store.users.ensure(user, 1_000_000)
      await store.checks.import(
        user,
        Array.from({ length: tail }, () => record),
      )
      const reservation = await store.users.reserveCredit(user)
      return timed(() => store.checks.commit(reservation, { ...record, user_id: user }))
    }
    const variants = [
      { name: 'bare undici GET, fresh connection', fn: () => bareFresh(target.url) },
      { name: 'bare undici GET, keep-alive (info)', fn: () => bareKeepAlive(target.url) },
      {
        name: 'engine only: runCheck() in-process (info)',
        fn: () => timed(() => runCheck(target.url, { allowPrivateTargets: true })),
      },
      {
        name: 'store only: checks.commit(), newest shard holds 10 (info)',
        fn: () => commitWithTail(10),
      },
      {
        name: `store only: checks.commit(), newest shard holds ${DEFAULT_SHARD_SIZE - 1} (info)`,
        fn: () => commitWithTail(DEFAULT_SHARD_SIZE - 1),
      },
      {
        name: 'API round trip: GET credits (info)',
        fn: async () => (await apiOk(serve.url, `${PUBLIC}/credits`, { token: key })).ms,
      },
      {
        name: 'sitehealth run-check (POST /checks/run)',
        fn: async () =>
          (
            await apiOk(serve.url, `${PUBLIC}/checks/run`, {
              method: 'POST',
              token: key,
              body: { url: target.url },
            })
          ).ms,
      },
    ]
    for (const v of variants) v.samples = []
    log(`  overhead: ${ROUNDS} rounds (+${WARMUP} warm-up) of ${variants.length} variants`)
    for (let i = -WARMUP; i < ROUNDS; i++) {
      for (const v of variants) {
        const ms = await v.fn()
        if (i >= 0) v.samples.push(ms)
      }
    }
    for (const v of variants) v.stats = summarize(v.samples)
    return { variants, pageBytes: target.pageBytes }
  } finally {
    await store.close()
    await serve.stop()
    await target.close()
    await removeTempDir(dataDir)
    await removeTempDir(storeDir)
  }
}

async function concurrency(log) {
  const target = await startTarget({ delayMs: DELAY_MS })
  const dataDir = await makeTempDir('check-conc')
  const serve = await startServe({ dataDir, args: [...NO_LIMITS, '--initial-credits', '1000'] })
  try {
    const keys = []
    for (let k = 0; k < KEYS; k++) keys.push((await serve.createKey({ user: `bench-conc-${k}` })).key)
    const runOne = async (key) => {
      const res = await api(serve.url, `${PUBLIC}/checks/run`, {
        method: 'POST',
        token: key,
        body: { url: target.url },
      })
      if (res.status !== 200) throw new Error(`run-check: HTTP ${res.status} ${JSON.stringify(res.body)}`)
      return res.ms
    }
    log(
      `  concurrency: ${SINGLES} single checks, then ${BURSTS} bursts of ${CONCURRENT} (target answers after ${DELAY_MS} ms)`,
    )
    await runOne(keys[0])
    const singles = []
    for (let i = 0; i < SINGLES; i++) singles.push(await runOne(keys[i % KEYS]))
    const bursts = []
    const inBurst = []
    for (let b = 0; b < BURSTS; b++) {
      const started = performance.now()
      const times = await Promise.all(Array.from({ length: CONCURRENT }, (_, i) => runOne(keys[i % KEYS])))
      bursts.push(performance.now() - started)
      inBurst.push(...times)
    }
    // for information: the same burst as bare GETs on fresh connections
    const bareBursts = []
    for (let b = 0; b < BURSTS; b++)
      bareBursts.push(
        await timed(() => Promise.all(Array.from({ length: CONCURRENT }, () => bareFresh(target.url)))),
      )
    const bareSingle = []
    for (let i = 0; i < SINGLES; i++) bareSingle.push(await bareFresh(target.url))
    return { singles, bursts, inBurst: summarize(inBurst), bareBursts, bareSingle }
  } finally {
    await serve.stop()
    await target.close()
    await removeTempDir(dataDir)
  }
}

export async function run(log) {
  try {
    const o = await overhead(log)
    const c = await concurrency(log)
    const bare = o.variants[0].stats.p50
    const runCheckP50 = o.variants[o.variants.length - 1].stats.p50
    const keepAliveP50 = o.variants[1].stats.p50
    const overheadRatio = runCheckP50 / bare
    const single = median(c.singles)
    const burst = median(c.bursts)
    const concRatio = burst / single
    const worstRatio = Math.max(...c.bursts) / single
    return {
      title: '4. Check overhead and concurrency',
      text: [
        `Overhead: local target (${o.pageBytes} bytes of HTML with security headers, answers at once), ${ROUNDS} rounds of every variant after ${WARMUP} warm-up rounds, round-robin, one at a time. "in-process" variants run in the benchmark process, not in \`serve\`; they show where the run-check's time goes.`,
        '',
        table(
          ['variant', 'p50', 'p90', 'p99', 'p50 / bare GET (fresh)'],
          o.variants.map((v) => [
            v.name,
            `${fmtMs(v.stats.p50)} ms`,
            `${fmtMs(v.stats.p90)} ms`,
            `${fmtMs(v.stats.p99)} ms`,
            fmtRatio(v.stats.p50 / bare),
          ]),
        ),
        '',
        `ratio run-check / bare GET (fresh connection): **${fmtRatio(overheadRatio)}** (target <= ${OVERHEAD_TARGET}); against a keep-alive GET: ${fmtRatio(runCheckP50 / keepAliveP50)}`,
        '',
        `Concurrency: target answers after ${DELAY_MS} ms; ${CONCURRENT} run-checks at once over ${KEYS} keys (${KEYS} users), ${BURSTS} bursts; single check = median of ${SINGLES} sequential run-checks.`,
        '',
        table(
          ['measurement', 'time'],
          [
            ['single run-check (median)', `${fmtMs(single)} ms`],
            [
              `${CONCURRENT} concurrent run-checks, wall (median of ${BURSTS})`,
              `${fmtMs(burst)} ms (${c.bursts.map(fmtMs).join(', ')})`,
            ],
            [
              'per-request latency inside the bursts p50 / p99',
              `${fmtMs(c.inBurst.p50)} / ${fmtMs(c.inBurst.p99)} ms`,
            ],
            ['bare GET, fresh connection, single (median, info)', `${fmtMs(median(c.bareSingle))} ms`],
            [
              `${CONCURRENT} concurrent bare GETs, wall (median, info)`,
              `${fmtMs(median(c.bareBursts))} ms (${c.bareBursts.map(fmtMs).join(', ')})`,
            ],
          ],
        ),
        '',
        `ratio ${CONCURRENT} concurrent / single: **${fmtRatio(concRatio)}** (target < ${CONCURRENCY_TARGET}; slowest burst ${fmtRatio(worstRatio)})`,
      ].join('\n'),
      targets: [
        {
          name: 'Check overhead: run-check vs bare undici GET (fresh connection)',
          value: fmtRatio(overheadRatio),
          target: `<= ${OVERHEAD_TARGET}`,
          met: overheadRatio <= OVERHEAD_TARGET,
        },
        {
          name: `Concurrency: ${CONCURRENT} concurrent checks (300 ms target) vs one`,
          value: fmtRatio(concRatio),
          target: `< ${CONCURRENCY_TARGET}`,
          met: concRatio < CONCURRENCY_TARGET,
        },
      ],
    }
  } finally {
    await keepAlive.close()
  }
}
