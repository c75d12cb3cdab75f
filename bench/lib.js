// @ts-check
/**
 * Shared plumbing of the benchmarks: spawning `serve` (as users do) and other child servers,
 * temporary directories, a keep-alive HTTP client, local target sites, statistics and tables.
 * Everything spawned or created here is tracked, so `cleanup()` kills and removes it all, also
 * after an error.
 */
import { Buffer } from 'node:buffer'
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises'
import http from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { clearTimeout, setTimeout } from 'node:timers'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { Agent, request } from 'undici'

export const ROOT = fileURLToPath(new URL('..', import.meta.url))
export const CLI = join(ROOT, 'bin', 'run.js')
export const PUBLIC = '/api/public/v1'

/** Flags that take the rate limits out of the way of a benchmark. */
export const NO_LIMITS = [
  '--rate-limit',
  '1000000000',
  '--rate-window',
  '1',
  '--run-limit',
  '1000000000',
  '--run-window',
  '1',
  '--max-monitors-per-account',
  '1000000',
  '--monitor-create-rate',
  '100000',
]

const children = new Set()
const tempDirs = new Set()
const closers = new Set()

// ---------------------------------------------------------------------------------------------
// temp dirs and cleanup

export async function makeTempDir(label) {
  const dir = await mkdtemp(join(tmpdir(), `sitehealth-bench-${label}-`))
  tempDirs.add(dir)
  return dir
}

export async function removeTempDir(dir) {
  await rm(dir, { recursive: true, force: true })
  tempDirs.delete(dir)
}

/** Something to close at cleanup (servers, agents); returns a function that forgets it. */
export function onCleanup(fn) {
  closers.add(fn)
  return () => closers.delete(fn)
}

export async function cleanup() {
  for (const child of [...children]) await stopChild(child)
  for (const fn of [...closers]) await Promise.resolve(fn()).catch(() => {})
  closers.clear()
  for (const dir of [...tempDirs]) await removeTempDir(dir).catch(() => {})
}

// ---------------------------------------------------------------------------------------------
// PostgreSQL

/**
 * A fresh database on the PostgreSQL server of `adminUrl` (a URL any database of which the user
 * may CREATE DATABASE from), dropped at cleanup. Returns its URL.
 */
export async function createPgDatabase(adminUrl, label) {
  const name = `sitehealth_bench_${label}_${Date.now().toString(36)}`
  const sqlOnAdmin = async (text) => {
    const c = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5000 })
    await c.connect()
    try {
      await c.query(text)
    } finally {
      await c.end()
    }
  }
  await sqlOnAdmin(`CREATE DATABASE ${name}`)
  onCleanup(() => sqlOnAdmin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`))
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  return url.toString()
}

// ---------------------------------------------------------------------------------------------
// child processes

/**
 * Spawns `node ...args` and resolves once it prints an `http://...` URL alone on a stdout line.
 * `startupMs` runs from just before the spawn to that line.
 */
/**
 * @param {string[]} args
 * @param {{ env?: Record<string, string>, timeoutMs?: number }} [opts]
 */
export async function spawnServer(args, { env, timeoutMs = 60_000 } = {}) {
  const started = performance.now()
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  children.add(child)
  let stdout = ''
  let stderr = ''
  child.stderr.on('data', (d) => {
    stderr = (stderr + d.toString()).slice(-20_000)
  })
  try {
    const url = await new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`${args.join(' ')}: no URL in time\n${stderr}`)),
        timeoutMs,
      )
      child.stdout.on('data', (d) => {
        stdout += d.toString()
        const m = /^(http:\/\/\S+)$/m.exec(stdout)
        if (m) {
          clearTimeout(timer)
          resolve(m[1])
        }
      })
      child.once('exit', (code, signal) => {
        clearTimeout(timer)
        reject(new Error(`${args.join(' ')} exited (${code ?? signal}) before it was ready\n${stderr}`))
      })
    })
    const startupMs = performance.now() - started
    child.stdout.resume()
    return { child, url, startupMs, stderr: () => stderr }
  } catch (err) {
    await stopChild(child)
    throw err
  }
}

/** SIGTERM, then SIGKILL after 15 s; resolves when the process is gone. */
export async function stopChild(child) {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = once(child, 'exit')
    child.kill('SIGTERM')
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000)
    await exited
    clearTimeout(timer)
  }
  children.delete(child)
}

/**
 * `sitehealth serve` on a free port, the way users start it. Returns its URL, admin token,
 * start-up time and helpers to create keys and stop it.
 */
/** @param {{ dataDir: string, args?: string[], adminToken?: string, cli?: string, timeoutMs?: number }} opts */
export async function startServe({ dataDir, args = [], adminToken: token, cli = CLI, timeoutMs = 60_000 }) {
  // with --database-url the admin token must come from the environment (docs/decisions.md#scale-out)
  const env = { SITEHEALTH_ADMIN_TOKEN: token ?? '' }
  const { child, url, startupMs, stderr } = await spawnServer(
    [cli, 'serve', '--port', '0', '--data-dir', dataDir, '--allow-private-targets', '--quiet', ...args],
    { env, timeoutMs },
  )
  const adminToken = token ?? (await readFile(join(dataDir, 'admin-token'), 'utf8')).trim()
  return {
    url,
    dataDir,
    adminToken,
    startupMs,
    child,
    stderr,
    /** POST /api/admin/v1/keys; returns {key, id, user_id}. */
    /** @param {{ user?: string, credits?: number, name?: string }} [opts] */
    async createKey({ user, credits, name = 'bench' } = {}) {
      const res = await api(url, '/api/admin/v1/keys', {
        method: 'POST',
        token: adminToken,
        body: { name, user, credits },
      })
      if (res.status !== 201) throw new Error(`create key: HTTP ${res.status} ${JSON.stringify(res.body)}`)
      return res.body
    },
    stop: () => stopChild(child),
  }
}

/** Runs `node ...args` to completion; resolves with its wall time, exit code and output. */
/**
 * @param {string[]} args
 * @param {{ env?: Record<string, string> }} [opts]
 */
export function timeNode(args, { env } = {}) {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const child = spawn(process.execPath, args, {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    children.add(child)
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => (stdout += d.toString()))
    child.stderr.on('data', (d) => (stderr += d.toString()))
    child.once('error', reject)
    child.once('close', (code) => {
      children.delete(child)
      resolve({ ms: performance.now() - started, code, stdout, stderr })
    })
  })
}

// ---------------------------------------------------------------------------------------------
// HTTP client (keep-alive, like any real client)

export const client = new Agent({ connections: 512, keepAliveTimeout: 60_000, pipelining: 1 })
onCleanup(() => client.close())

/** One JSON request; resolves with status, parsed body and the wall time in ms. */
/**
 * @param {string} base
 * @param {string} path
 * @param {{ method?: import('undici').Dispatcher.HttpMethod, token?: string, body?: unknown, dispatcher?: import('undici').Dispatcher }} [opts]
 */
export async function api(base, path, { method = 'GET', token, body, dispatcher = client } = {}) {
  /** @type {Record<string, string>} */
  const headers = {}
  if (token) headers.authorization = `Bearer ${token}`
  if (body !== undefined) headers['content-type'] = 'application/json'
  const started = performance.now()
  const res = await request(base + path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    dispatcher,
  })
  const text = await res.body.text()
  const ms = performance.now() - started
  let parsed
  try {
    parsed = JSON.parse(text)
  } catch {
    parsed = text
  }
  return { status: res.statusCode, body: parsed, ms }
}

/** Like `api`, but throws unless the status is `expect`; resolves with the body and time. */
export async function apiOk(base, path, opts = {}, expect = 200) {
  const res = await api(base, path, opts)
  if (res.status !== expect)
    throw new Error(`${opts.method ?? 'GET'} ${path}: HTTP ${res.status} ${JSON.stringify(res.body)}`)
  return res
}

// ---------------------------------------------------------------------------------------------
// local target sites

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Bench target</title>
<link rel="stylesheet" href="/style.css">
</head>
<body>
<header><h1>Bench target</h1><nav><a href="/">Home</a> <a href="/about">About</a></nav></header>
<main>
${'<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore.</p>\n'.repeat(40)}
</main>
<footer>sitehealth benchmark</footer>
</body>
</html>
`

const TARGET_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': "default-src 'self'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'permissions-policy': 'camera=()',
  'cache-control': 'no-cache',
}

/**
 * A small HTML site on 127.0.0.1 (random port) in this process; `delayMs` holds every answer
 * back that long. Resolves with its URL and a close function.
 */
export async function startTarget({ delayMs = 0 } = {}) {
  const sockets = new Set()
  const server = http.createServer((req, res) => {
    const answer = () => {
      res.writeHead(200, { ...TARGET_HEADERS, 'content-length': Buffer.byteLength(PAGE) })
      res.end(PAGE)
    }
    if (delayMs > 0) setTimeout(answer, delayMs)
    else answer()
  })
  server.on('connection', (s) => {
    sockets.add(s)
    s.once('close', () => sockets.delete(s))
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address())
  const close = async () => {
    for (const s of sockets) s.destroy()
    await new Promise((resolve) => server.close(() => resolve()))
  }
  const forget = onCleanup(close)
  return {
    url: `http://127.0.0.1:${port}/`,
    pageBytes: Buffer.byteLength(PAGE),
    close: async () => {
      forget()
      await close()
    },
  }
}

// ---------------------------------------------------------------------------------------------
// statistics, sizes and tables

export function summarize(samples) {
  const s = [...samples].sort((a, b) => a - b)
  const pick = (p) => s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]
  const mean = s.reduce((a, b) => a + b, 0) / s.length
  return { n: s.length, min: s[0], p50: pick(50), p90: pick(90), p99: pick(99), max: s[s.length - 1], mean }
}

export const median = (xs) => summarize(xs).p50

/** Files, apparent bytes and allocated bytes (du) of a directory tree. */
export async function dirSize(dir) {
  let files = 0
  let bytes = 0
  let allocated = 0
  const walk = async (d) => {
    for (const e of await readdir(d, { withFileTypes: true })) {
      const p = join(d, e.name)
      if (e.isDirectory()) await walk(p)
      else {
        const st = await stat(p)
        files++
        bytes += st.size
        allocated += st.blocks * 512
      }
    }
  }
  await walk(dir)
  return { files, bytes, allocated }
}

export const fmtMs = (ms) => (ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2))
export const fmtRatio = (r) => `${r.toFixed(2)}×`
export const fmtInt = (n) => Math.round(n).toLocaleString('en-US')
export const fmtMB = (b) => `${(b / 1024 / 1024).toFixed(1)} MB`

/** A markdown table (also readable as plain text). */
export function table(headers, rows) {
  const cells = [headers, ...rows].map((r) => r.map((c) => String(c)))
  const widths = headers.map((_, i) => Math.max(3, ...cells.map((r) => (r[i] ?? '').length)))
  const line = (r) => `| ${r.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`
  return [
    line(cells[0]),
    `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`,
    ...cells.slice(1).map(line),
  ].join('\n')
}

/** User + system CPU time of a process in ms (Linux /proc), or undefined elsewhere. */
export async function cpuMs(pid) {
  try {
    const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1].split(' ')
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100
  } catch {
    return undefined
  }
}
