/**
 * What the end-to-end fault tests (test/e2e/faults-*.test.ts) share: requests that report their
 * status and time and never hang (a client-side bound turns a hang into status 0), a target site
 * on 127.0.0.1 that counts the checks it receives per path, polling, and the measurement lines
 * that `FAULTS_VERBOSE=1` prints for docs/operations.md.
 */
import { once } from 'node:events'
import http from 'node:http'
import type net from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'

export interface Timed {
  /** 0 when no answer came within the client's bound (a hang) or the connection failed. */
  status: number
  ms: number
  json: any
  headers: Headers
  error?: string
}

/** One request, bounded on the client side by `timeoutMs` (default 15 s). */
export async function timed(
  url: string,
  o: {
    method?: string
    key?: string
    body?: unknown
    timeoutMs?: number
    headers?: Record<string, string>
  } = {},
): Promise<Timed> {
  const headers: Record<string, string> = { ...o.headers }
  if (o.key) headers.authorization = `Bearer ${o.key}`
  if (o.body !== undefined) headers['content-type'] = 'application/json'
  const t0 = performance.now()
  try {
    const res = await fetch(url, {
      method: o.method ?? 'GET',
      headers,
      body: o.body === undefined ? undefined : JSON.stringify(o.body),
      signal: AbortSignal.timeout(o.timeoutMs ?? 15_000),
    })
    const text = await res.text()
    let json: any
    try {
      json = JSON.parse(text)
    } catch {
      json = text
    }
    return { status: res.status, ms: performance.now() - t0, json, headers: res.headers }
  } catch (err) {
    return {
      status: 0,
      ms: performance.now() - t0,
      json: undefined,
      headers: new Headers(),
      error: (err as Error).message,
    }
  }
}

/** Calls of one key against one server: `call('GET', '/credits')` is `/api/public/v1/credits`. */
export function client(base: string, key: string) {
  return (method: string, path: string, body?: unknown, timeoutMs?: number) =>
    timed(`${base}/api/public/v1${path}`, { method, key, body, timeoutMs })
}

export interface CountingSite {
  url(path: string): string
  /** Epoch ms of every request to `path`. */
  hits(path: string): number[]
  /** Answer requests to `path` only after `ms` (a check that is still running when a fault starts). */
  slow(path: string, ms: number): void
  close(): Promise<void>
}

/** An HTTP site that answers 200 to everything and remembers when each path was checked (GET). */
export async function countingSite(): Promise<CountingSite> {
  const hits = new Map<string, number[]>()
  const delays = new Map<string, number>()
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]
    // a check is one GET of the page; its CORS probe (an OPTIONS beside it) is not a check
    if (req.method === 'GET') hits.set(path, [...(hits.get(path) ?? []), Date.now()])
    const answer = () =>
      res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>ok</title><p>ok</p>')
    const delay = req.method === 'GET' ? (delays.get(path) ?? 0) : 0
    if (delay > 0) setTimeout(answer, delay).unref()
    else answer()
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const port = (server.address() as net.AddressInfo).port
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    hits: (path) => hits.get(path) ?? [],
    slow: (path, ms) => delays.set(path, ms),
    close: () =>
      new Promise((r) => {
        server.closeAllConnections()
        server.close(() => r())
      }),
  }
}

/** Polls `fn` every `everyMs` until it returns a truthy value; the time it took, or throws. */
export async function until<T>(
  fn: () => Promise<T> | T,
  ms: number,
  what: string,
  everyMs = 100,
): Promise<{ value: NonNullable<T>; ms: number }> {
  const t0 = performance.now()
  for (;;) {
    const value = await fn()
    if (value) return { value: value as NonNullable<T>, ms: performance.now() - t0 }
    if (performance.now() - t0 > ms) throw new Error(`Timed out after ${ms} ms waiting for ${what}`)
    await sleep(everyMs)
  }
}

/** Requests fired one after another for `ms`, each bounded: what a client sees during a fault. */
export async function during(ms: number, fire: () => Promise<Timed>, gapMs = 50): Promise<Timed[]> {
  const out: Timed[] = []
  const end = performance.now() + ms
  while (performance.now() < end) {
    out.push(await fire())
    await sleep(gapMs)
  }
  return out
}

/** Status counts and the slowest and median answer of a set of requests. */
export function summary(replies: Timed[]) {
  const statuses: Record<string, number> = {}
  for (const r of replies) statuses[r.status] = (statuses[r.status] ?? 0) + 1
  const ms = replies.map((r) => r.ms).sort((a, b) => a - b)
  return {
    statuses,
    median_ms: Math.round(ms[Math.floor(ms.length / 2)] ?? 0),
    max_ms: Math.round(ms.at(-1) ?? 0),
  }
}

/** One measurement line (FAULTS_VERBOSE=1): what docs/operations.md reports. */
export function measure(name: string, data: Record<string, unknown>): void {
  if (process.env.FAULTS_VERBOSE) console.log(`measure ${name} ${JSON.stringify(data)}`)
}

/** Largest gap between consecutive times, and the smallest one (a doubled run shows as a tiny gap). */
export function gaps(times: number[]): { min: number; max: number } {
  let min = Infinity
  let max = 0
  for (let i = 1; i < times.length; i++) {
    const g = times[i] - times[i - 1]
    min = Math.min(min, g)
    max = Math.max(max, g)
  }
  return { min, max }
}
