// @ts-check
/**
 * Benchmark 1, API overhead: autocannon against an authenticated `GET /api/public/v1/credits` of
 * `sitehealth serve` versus a bare node:http hello-world server, same connections and duration,
 * side by side in one run (interleaved in rounds). Two more servers break the gap down (information only): an h3
 * hello-world JSON route through toNodeHandler (the framework alone) and sitehealth's
 * unauthenticated `GET /api/public/v1/health` (framework + sitehealth's hooks, no auth).
 * Every server is a child process; autocannon runs in this one. Besides req/s, the server's own
 * CPU time per request is read from /proc (Linux), which is steadier on a busy machine.
 * Target: sitehealth credits req/s >= 0.6 x the bare server's.
 *
 * When PostgreSQL answers (BENCH_PG_URL, default postgres://postgres@127.0.0.1:5432/postgres), two
 * more servers join the same rounds: `serve --database-url` on a fresh database and a bare node:http
 * server running the same credits statement with `pg` (bare-pg-server.js); their ratio is reported
 * beside the embedded one.
 */
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { join } from 'node:path'
import autocannon from 'autocannon'
import {
  NO_LIMITS,
  PUBLIC,
  ROOT,
  apiOk,
  cpuMs,
  fmtInt,
  fmtRatio,
  makeTempDir,
  median,
  removeTempDir,
  spawnServer,
  startServe,
  stopChild,
  table,
} from './lib.js'

const CONNECTIONS = Number(process.env.BENCH_API_CONNECTIONS ?? 50)
const DURATION = Number(process.env.BENCH_API_SECONDS ?? 10)
const ROUNDS = 5
const SLICE = DURATION / ROUNDS
const WARMUP = 2
const TARGET = 0.6
const PG_ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'

/** A fresh database for the PostgreSQL pair, or undefined when no PostgreSQL answers. */
async function freshPgDatabase(log) {
  const name = `sitehealth_bench_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 3000 })
  try {
    await admin.connect()
    await admin.query(`CREATE DATABASE ${name}`)
  } catch (err) {
    log(`  no PostgreSQL at ${PG_ADMIN_URL} (${err.message}): PostgreSQL pair skipped`)
    return undefined
  } finally {
    await admin.end().catch(() => {})
  }
  const url = new URL(PG_ADMIN_URL)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: PG_ADMIN_URL })
      await c.connect()
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).finally(() => c.end())
    },
  }
}

function cannon(url, headers, duration) {
  return autocannon({ url, connections: CONNECTIONS, duration, headers })
}

export async function run(log) {
  const dataDir = await makeTempDir('api')
  const bare = await spawnServer([join(ROOT, 'bench', 'fixtures', 'bare-server.js')])
  const h3 = await spawnServer([join(ROOT, 'bench', 'fixtures', 'h3-hello-server.js')])
  const serve = await startServe({ dataDir, args: NO_LIMITS })
  const pgDb = await freshPgDatabase(log)
  let pgServe
  let pgBare
  try {
    const { key } = await serve.createKey({ user: 'bench-api' })
    await apiOk(serve.url, `${PUBLIC}/credits`, { token: key })
    const auth = { authorization: `Bearer ${key}` }
    const servers = [
      { name: 'bare node:http hello world', url: `${bare.url}/`, pid: bare.child.pid, headers: {} },
      {
        name: 'h3 hello-world JSON, toNodeHandler (info)',
        url: `${h3.url}/`,
        pid: h3.child.pid,
        headers: {},
      },
      {
        name: 'sitehealth GET /health, no auth (info)',
        url: `${serve.url}${PUBLIC}/health`,
        pid: serve.child.pid,
        headers: {},
      },
      {
        name: 'sitehealth GET /credits, authenticated',
        url: `${serve.url}${PUBLIC}/credits`,
        pid: serve.child.pid,
        headers: auth,
      },
    ]
    if (pgDb) {
      const adminToken = `sha_admin_${randomBytes(24).toString('base64url')}`
      pgServe = await startServe({
        dataDir,
        adminToken,
        args: [...NO_LIMITS, '--database-url', pgDb.url],
      })
      const pgKey = await pgServe.createKey({ user: 'bench-api-pg' })
      await apiOk(pgServe.url, `${PUBLIC}/credits`, { token: pgKey.key })
      pgBare = await spawnServer([join(ROOT, 'bench', 'fixtures', 'bare-pg-server.js')], {
        env: { BENCH_PG_URL: pgDb.url, BENCH_PG_USER: 'bench-api-pg' },
      })
      servers.push(
        {
          name: 'bare node:http + one pg query (PostgreSQL baseline)',
          url: `${pgBare.url}/`,
          pid: pgBare.child.pid,
          headers: {},
        },
        {
          name: 'sitehealth GET /credits, authenticated, PostgreSQL',
          url: `${pgServe.url}${PUBLIC}/credits`,
          pid: pgServe.child.pid,
          headers: { authorization: `Bearer ${pgKey.key}` },
        },
      )
    }
    log(`  ${servers.length} servers, ${CONNECTIONS} connections: warm-up ${WARMUP} s each`)
    for (const s of servers) await cannon(s.url, s.headers, WARMUP)
    log(`  ${ROUNDS} rounds of ${SLICE} s per server, round-robin`)
    for (const s of servers) s.slices = []
    for (let round = 0; round < ROUNDS; round++) {
      for (const s of servers) {
        const before = await cpuMs(s.pid)
        const r = await cannon(s.url, s.headers, SLICE)
        const after = await cpuMs(s.pid)
        if (r.errors || r.non2xx || r.timeouts)
          throw new Error(`${s.name}: ${r.errors} errors, ${r.non2xx} non-2xx, ${r.timeouts} timeouts`)
        s.slices.push({ r, cpu: before === undefined || after === undefined ? undefined : after - before })
      }
    }
    for (const s of servers) {
      const total = s.slices.reduce((a, x) => a + x.r.requests.total, 0)
      const seconds = s.slices.reduce((a, x) => a + x.r.duration, 0)
      const cpu = s.slices.every((x) => x.cpu !== undefined)
        ? s.slices.reduce((a, x) => a + x.cpu, 0)
        : undefined
      s.result = {
        reqPerSec: total / seconds,
        total,
        p50: median(s.slices.map((x) => x.r.latency.p50)),
        p99: median(s.slices.map((x) => x.r.latency.p99)),
        perSlice: s.slices.map((x) => x.r.requests.total / x.r.duration),
      }
      s.cpuUsPerReq = cpu === undefined ? undefined : (cpu * 1000) / total
    }
    const base = servers[0].result.reqPerSec
    const target = servers[3]
    const ratio = target.result.reqPerSec / base
    const pgRatio = pgDb ? servers[5].result.reqPerSec / servers[4].result.reqPerSec : undefined
    const cpuRatio = (a, b) =>
      a.cpuUsPerReq && b.cpuUsPerReq ? fmtRatio(b.cpuUsPerReq / a.cpuUsPerReq) : 'n/a'
    return {
      title: '1. API overhead',
      text: [
        `autocannon (in the benchmark process), ${CONNECTIONS} connections, keep-alive, no pipelining, one server at a time: after a ${WARMUP} s warm-up each, ${ROUNDS} rounds of ${SLICE} s per server, round-robin (${DURATION} s per server in all), so drift of the machine hits every server alike. req/s = requests / seconds over all rounds; p50/p99 = median over the rounds. "server CPU/req" = the server process's user+system CPU time (from /proc, 10 ms ticks) / requests served.`,
        '',
        table(
          ['server', 'req/s', 'req/s per round', 'p50', 'p99', 'server CPU/req', 'req/s vs bare'],
          servers.map((s) => [
            s.name,
            fmtInt(s.result.reqPerSec),
            s.result.perSlice.map((x) => fmtInt(x)).join(', '),
            `${s.result.p50} ms`,
            `${s.result.p99} ms`,
            s.cpuUsPerReq === undefined ? 'n/a' : `${fmtInt(s.cpuUsPerReq)} µs`,
            fmtRatio(s.result.reqPerSec / base),
          ]),
        ),
        '',
        `ratio sitehealth credits / bare (req/s): **${fmtRatio(ratio)}** (target >= ${TARGET}); by server CPU per request, bare / credits: ${cpuRatio(target, servers[0])}`,
        ...(pgDb
          ? [
              '',
              `PostgreSQL: sitehealth credits / bare node:http + pg query (req/s): **${fmtRatio(pgRatio)}**; by server CPU per request: ${cpuRatio(servers[5], servers[4])}`,
            ]
          : []),
      ].join('\n'),
      targets: [
        {
          name: 'API overhead: credits req/s vs bare node:http',
          value: fmtRatio(ratio),
          target: `>= ${TARGET}`,
          met: ratio >= TARGET,
        },
        ...(pgDb
          ? [
              {
                name: 'API overhead, PostgreSQL: credits req/s vs bare node:http + pg query (info)',
                value: fmtRatio(pgRatio),
                target: 'report',
                met: true,
              },
            ]
          : []),
      ],
    }
  } finally {
    await stopChild(bare.child)
    await stopChild(h3.child)
    await serve.stop()
    if (pgServe) await pgServe.stop()
    if (pgBare) await stopChild(pgBare.child)
    await pgDb?.drop().catch(() => {})
    await removeTempDir(dataDir)
  }
}
