// @ts-check
/**
 * Benchmark 5, PostgreSQL store scaling (issue 12). Two databases, one seeded with 1,000 saved
 * checks and one with 1,000,000 (10 users; the measured user holds a tenth), each served by its
 * own `serve --database-url`; beside them an embedded `serve` with the same run-check target.
 * Measured round-robin (one request of each server in turn, so machine drift hits all alike), one
 * request at a time over a keep-alive client: run-check, recent first page, a deep page (cursor
 * in the oldest tenth of the user's history, but with at least a full page older than it, so that
 * both sizes answer the same 50 checks and a next cursor: at 1,000 checks the oldest tenth of the
 * user's 100 holds only 10, and a 10-check page against a 50-check one measures the page size,
 * not the depth) and get by id (ids drawn over the whole history).
 * Seeding is server-side SQL (generate_series), not timed.
 *
 * Needs PostgreSQL: SITEHEALTH_BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres);
 * the databases it creates are dropped at the end.
 */
import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { performance } from 'node:perf_hooks'
import pg from 'pg'
import {
  CLI,
  NO_LIMITS,
  PUBLIC,
  api,
  apiOk,
  createPgDatabase,
  fmtInt,
  fmtMs,
  fmtRatio,
  makeTempDir,
  spawnServer,
  startServe,
  startTarget,
  stopChild,
  summarize,
  table,
} from './lib.js'
import { toCheckRecord } from '../dist/runs/index.js'
import { runCheck } from '../dist/checks/index.js'

const ADMIN_URL = process.env.SITEHEALTH_BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
const SIZES = [1_000, 1_000_000]
const USERS = 10
const READS = Number(process.env.BENCH_READS ?? 200)
const RUNS = Number(process.env.BENCH_RUNS ?? 40)
const TARGET = 1.3
const PAGE = 50
const FIRST = `GET recent, first page (limit ${PAGE})`
const DEEP = 'GET recent, deep page (oldest tenth, a full page)'
const TOKEN = `sha_admin_${randomBytes(24).toString('base64url')}`

/**
 * @param {string} url
 * @param {string} text
 * @param {unknown[]} [values]
 * @returns {Promise<any[]>}
 */
async function sqlOn(url, text, values) {
  const c = new pg.Client({ connectionString: url })
  await c.connect()
  try {
    return (await c.query(text, values)).rows
  } finally {
    await c.end()
  }
}

const createDb = (label) => createPgDatabase(ADMIN_URL, label)

async function pgServe(url) {
  const { child, url: base } = await spawnServer(
    [CLI, 'serve', '--port', '0', '--database-url', url, '--allow-private-targets', '--quiet', ...NO_LIMITS],
    { env: { SITEHEALTH_ADMIN_TOKEN: TOKEN } },
  )
  return { url: base, child, adminToken: TOKEN }
}

async function createKey(s, user) {
  const res = await api(s.url, '/api/admin/v1/keys', {
    method: 'POST',
    token: s.adminToken,
    body: { name: 'bench', user, credits: 10_000_000 },
  })
  if (res.status !== 201) throw new Error(`create key: HTTP ${res.status}`)
  return res.body.key
}

/** n checks over USERS users, one a second of history ending an hour ago; server-side. */
async function seed(url, n, record) {
  const t0 = Date.now() - (n + 3600) * 1000
  await sqlOn(
    url,
    `INSERT INTO users (id, credits_granted, credits_used, last_check_ms, created_at)
     SELECT 'bench-' || u, 10000000, count(*), max(ms), now()
     FROM (SELECT i % ${USERS} AS u, $1::bigint + i * 1000 AS ms FROM generate_series(0, $2::int - 1) i) s GROUP BY u`,
    [t0, n],
  )
  await sqlOn(
    url,
    `INSERT INTO checks (id, user_id, created_ms, record)
     SELECT (lpad(to_hex(ms), 12, '0') || '7' || substr(replace(gen_random_uuid()::text, '-', ''), 14))::uuid,
            'bench-' || (i % ${USERS}), ms, $3::json
     FROM (SELECT i, $1::bigint + i * 1000 AS ms FROM generate_series(0, $2::int - 1) i) s`,
    [t0, n, JSON.stringify(record)],
  )
  await sqlOn(url, 'ANALYZE')
  const ids = await sqlOn(
    url,
    `SELECT id FROM checks TABLESAMPLE SYSTEM (50) WHERE user_id = 'bench-0' LIMIT 5000`,
  )
  const deep = await sqlOn(
    url,
    `SELECT created_ms FROM checks WHERE user_id = 'bench-0' ORDER BY created_ms ASC
     OFFSET greatest((SELECT count(*) / 10 FROM checks WHERE user_id = 'bench-0'), $1::int + 1) LIMIT 1`,
    [PAGE],
  )
  return { ids: ids.map((r) => r.id), deepCursor: new Date(Number(deep[0].created_ms)).toISOString() }
}

export async function run(log) {
  const target = await startTarget()
  const record = toCheckRecord(await runCheck(target.url, { allowPrivateTargets: true }))
  const servers = []
  try {
    for (const n of SIZES) {
      const url = await createDb(n >= 1e6 ? 'large' : 'small')
      const t = performance.now()
      execFileSync('node', [CLI, 'db', 'migrate', '--database-url', url])
      log(`  seeding ${fmtInt(n)} checks`)
      const { ids, deepCursor } = await seed(url, n, record)
      log(`  seeded ${fmtInt(n)} in ${((performance.now() - t) / 1000).toFixed(0)} s`)
      const s = await pgServe(url)
      servers.push({
        label: `PostgreSQL, ${fmtInt(n)} checks`,
        n,
        s,
        key: await createKey(s, 'bench-0'),
        ids,
        deepCursor,
      })
    }
    const embedded = await startServe({ dataDir: await makeTempDir('pg-embedded'), args: NO_LIMITS })
    const emb = { label: 'embedded, empty', s: embedded, key: await createKey(embedded, 'bench-0') }

    const ops = {
      'POST run-check': (x) =>
        apiOk(x.s.url, `${PUBLIC}/checks/run`, { method: 'POST', token: x.key, body: { url: target.url } }),
      [FIRST]: (x) => apiOk(x.s.url, `${PUBLIC}/checks/recent?limit=${PAGE}`, { token: x.key }),
      [DEEP]: (x) =>
        apiOk(x.s.url, `${PUBLIC}/checks/recent?limit=${PAGE}&cursor=${encodeURIComponent(x.deepCursor)}`, {
          token: x.key,
        }),
      'GET check by id': (x) =>
        apiOk(x.s.url, `${PUBLIC}/checks/${x.ids[Math.floor(Math.random() * x.ids.length)]}`, {
          token: x.key,
        }),
    }
    // the pages compared must be alike: a full page and a next cursor at every size
    for (const x of servers) {
      const { body } = await ops[DEEP](x)
      if (body.checks.length !== PAGE || !body.next_cursor)
        throw new Error(`${x.label}: the deep page holds ${body.checks.length} checks, not a full page`)
    }
    const samples = new Map()
    const measure = async (op, who, rounds, warm) => {
      for (let i = -warm; i < rounds; i++)
        for (const x of who) {
          const { ms } = await ops[op](x)
          if (i < 0) continue
          const k = `${op}|${x.label}`
          if (!samples.has(k)) samples.set(k, [])
          samples.get(k).push(ms)
        }
    }
    log(`  run-check: ${RUNS} rounds over ${servers.length + 1} servers`)
    await measure('POST run-check', [...servers, emb], RUNS, 3)
    for (const op of Object.keys(ops).slice(1)) {
      log(`  ${op}: ${READS} rounds`)
      await measure(op, servers, READS, 20)
    }
    const [lo, hi] = servers
    const p50 = (op, x) => summarize(samples.get(`${op}|${x.label}`)).p50
    const p99 = (op, x) => summarize(samples.get(`${op}|${x.label}`)).p99
    const rows = Object.keys(ops).map((op) => [
      op,
      `${fmtMs(p50(op, lo))} (${fmtMs(p99(op, lo))})`,
      `${fmtMs(p50(op, hi))} (${fmtMs(p99(op, hi))})`,
      fmtRatio(p50(op, hi) / p50(op, lo)),
    ])
    const text = [
      `${USERS} users, the measured user holds a tenth of the checks; seeded server-side; served by one \`serve --database-url\` per database (pool 10), measured round-robin, one request at a time, keep-alive client; ${READS} reads after 20 warm-ups, ${RUNS} run-checks after 3 warm-ups. Target page: ${target.pageBytes} bytes on 127.0.0.1. p50 (p99), ms.`,
      '',
      table(['operation', lo.label, hi.label, 'ratio'], rows),
      '',
      table(
        ['run-check p50', 'ms', 'ratio'],
        [
          ['embedded', fmtMs(p50('POST run-check', emb)), '1.00×'],
          [
            lo.label,
            fmtMs(p50('POST run-check', lo)),
            fmtRatio(p50('POST run-check', lo) / p50('POST run-check', emb)),
          ],
        ],
      ),
    ].join('\n')
    const targets = Object.keys(ops).map((op) => {
      const r = p50(op, hi) / p50(op, lo)
      return {
        name: `PostgreSQL scaling: ${op} p50 at ${fmtInt(hi.n)} vs ${fmtInt(lo.n)}`,
        value: fmtRatio(r),
        target: `<= ${TARGET}`,
        met: r <= TARGET,
      }
    })
    return { title: '5. PostgreSQL store scaling', text, targets }
  } finally {
    for (const x of servers) await stopChild(x.s.child)
    await target.close()
  }
}
