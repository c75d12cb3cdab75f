/**
 * Issue 16 item 7 as attacks on a real `serve`: a flood of runs at a target that never answers
 * must not hold more outbound connections than --max-concurrent-checks (the rest wait briefly,
 * then 503 with Retry-After, nothing charged), and one key must not cause unlimited free failures
 * (a port scanner's budget).
 */
import { setTimeout as sleep } from 'node:timers/promises'
import { request } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startHostileTargets, type HostileTargets } from '../fixtures/hostile.js'
import { startServe } from '../helpers/serve.js'

const RUN = '/api/public/v1/checks/run'
const CREDITS = '/api/public/v1/credits'
const HIGH_LIMITS = ['--run-limit', '100000', '--rate-limit', '1000000']

async function call(base: string, method: 'GET' | 'POST', path: string, key: string, body?: unknown) {
  const res = await request(base + path, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
    headersTimeout: 30_000,
    bodyTimeout: 30_000,
  })
  const text = await res.body.text()
  return { status: res.statusCode, headers: res.headers, json: JSON.parse(text), text }
}

let hostile: HostileTargets
beforeAll(async () => {
  hostile = await startHostileTargets({ maxLifeMs: 20_000 })
})
afterAll(() => hostile?.close())

describe('checks in flight are capped (--max-concurrent-checks)', () => {
  it('holds at most the cap of connections to a silent target; the rest get 503 + Retry-After, uncharged', async () => {
    const served = await startServe({
      args: ['--max-concurrent-checks', '2', '--check-timeout', '8', ...HIGH_LIMITS],
    })
    try {
      const { key } = await served.createKey({ user: 'flood', credits: 50 })
      // a check holds one GET and, beside it, at most one CORS OPTIONS (src/checks/cors-probe.ts)
      let peak = 0
      let peakSockets = 0
      const watch = setInterval(() => {
        peak = Math.max(peak, hostile.openRequests().get('GET /silent') ?? 0)
        peakSockets = Math.max(peakSockets, hostile.openSockets())
      }, 20)
      const runs = await Promise.all(
        Array.from({ length: 8 }, () => call(served.url, 'POST', RUN, key, { url: hostile.silent })),
      )
      clearInterval(watch)
      const busy = runs.filter((r) => r.status === 503)
      const failed = runs.filter((r) => r.status === 502)
      expect(failed.length, JSON.stringify(runs.map((r) => r.status))).toBe(2)
      expect(busy.length).toBe(6)
      for (const r of busy) {
        expect(r.json.ok).toBe(false)
        expect(r.json.error.code).toBe('server_busy')
        expect(String(r.headers['retry-after'])).toMatch(/^[1-9]\d*$/)
      }
      // the silent target never saw more checks than the cap
      expect(peak).toBeGreaterThan(0)
      expect(peak).toBeLessThanOrEqual(2)
      expect(peakSockets).toBeLessThanOrEqual(2 * 2)
      expect((await call(served.url, 'GET', CREDITS, key)).json.credits_remaining).toBe(50)
    } finally {
      await served.stop()
    }
  }, 90_000)

  it('caps one user while another user’s run goes through', async () => {
    const served = await startServe({
      args: ['--max-concurrent-checks-per-user', '1', '--check-timeout', '8', ...HIGH_LIMITS],
    })
    try {
      const a = await served.createKey({ user: 'busy', credits: 10 })
      const b = await served.createKey({ user: 'other', credits: 10 })
      const before = hostile.stats.requests
      const held = call(served.url, 'POST', RUN, a.key, { url: hostile.silent })
      // the silent target has the request: the slot is taken
      for (let i = 0; i < 100 && hostile.stats.requests === before; i++) await sleep(50)
      const [second, other] = await Promise.all([
        call(served.url, 'POST', RUN, a.key, { url: hostile.ok }),
        call(served.url, 'POST', RUN, b.key, { url: hostile.ok }),
      ])
      expect(second.status).toBe(503)
      expect(second.json.error.message).toMatch(/account/)
      expect(other.status, other.text).toBe(200)
      expect((await held).status).toBe(502)
    } finally {
      await served.stop()
    }
  }, 90_000)
})

describe('free failures per key are bounded (--failure-limit)', () => {
  it('refuses a key’s runs with 429 after the bound of failed checks, while other keys still run', async () => {
    const served = await startServe({
      args: ['--failure-limit', '3', '--failure-window', '600', ...HIGH_LIMITS],
    })
    try {
      const scanner = await served.createKey({ user: 'scanner', credits: 100 })
      const honest = await served.createKey({ user: 'honest', credits: 100 })
      const closed = `${hostile.origin.replace(/:\d+$/, '')}:1/`
      const targets = [hostile.notHttp, closed, hostile.notHttp, closed, hostile.ok, hostile.notHttp]
      const statuses: number[] = []
      let last
      for (const url of targets) {
        last = await call(served.url, 'POST', RUN, scanner.key, { url })
        statuses.push(last.status)
      }
      // three free failures, then every run of that key is refused, successes included
      expect(statuses).toEqual([502, 502, 502, 429, 429, 429])
      expect(last!.json.error.code).toBe('rate_limited')
      expect(last!.json.error.message).toMatch(/failed checks/)
      expect(Number(last!.headers['retry-after'])).toBeGreaterThan(500)
      expect((await call(served.url, 'GET', CREDITS, scanner.key)).json.credits_remaining).toBe(100)
      const ok = await call(served.url, 'POST', RUN, honest.key, { url: hostile.ok })
      expect(ok.status, ok.text).toBe(200)
    } finally {
      await served.stop()
    }
  }, 90_000)
})

describe('scheduled monitor runs share the cap with API runs (docs/decisions.md#monitors-and-alerts)', () => {
  it('never holds more than --max-concurrent-checks connections across API and scheduled runs', async () => {
    const served = await startServe({
      args: [
        '--max-concurrent-checks',
        '2',
        '--check-timeout',
        '4',
        '--min-interval',
        '1',
        '--quiet',
        ...HIGH_LIMITS,
      ],
    })
    try {
      const owner = await served.createKey({ user: 'watcher', credits: 50 })
      const caller = await served.createKey({ user: 'caller', credits: 50 })
      // one check holds one GET (its CORS OPTIONS runs beside it): open GETs are checks in flight
      let peak = 0
      let last = 0
      const timeline: string[] = []
      const watch = setInterval(() => {
        const n = hostile.openRequests().get('GET /silent') ?? 0
        if (n !== last) timeline.push(String((last = n)))
        peak = Math.max(peak, n)
      }, 10)
      const ids: string[] = []
      for (let i = 0; i < 3; i++) {
        const created = await call(served.url, 'POST', '/api/public/v1/monitors', owner.key, {
          url: `${hostile.silent}?m=${i}`,
          interval_seconds: 3600,
        })
        expect(created.status, created.text).toBe(201)
        ids.push(created.json.id)
      }
      const api = await Promise.all(
        Array.from({ length: 3 }, () => call(served.url, 'POST', RUN, caller.key, { url: hostile.silent })),
      )
      // every monitor's first (scheduled) run ends as a failed run once it had its slot
      const failedRuns = async () => {
        let n = 0
        for (const id of ids) {
          const r = await call(served.url, 'GET', `/api/public/v1/monitors/${id}/runs`, owner.key)
          n += (r.json.runs as Array<{ outcome: string }>).filter((x) => x.outcome === 'failed').length
        }
        return n
      }
      for (let i = 0; i < 300 && (await failedRuns()) < 3; i++) await sleep(100)
      clearInterval(watch)
      expect(await failedRuns()).toBe(3)
      expect(api.map((r) => r.status).every((s) => s === 502 || s === 503)).toBe(true)
      expect(peak).toBeGreaterThan(0)
      expect(peak, timeline.join(' ')).toBeLessThanOrEqual(2)
    } finally {
      await served.stop()
    }
  }, 90_000)
})

describe('a monitor run on demand is a run like any other (shared cap, failure budget)', () => {
  it('waits for the shared cap, then 503 uncharged; counts its failures against the key', async () => {
    const served = await startServe({
      args: [
        '--max-concurrent-checks',
        '1',
        '--check-timeout',
        '8',
        '--failure-limit',
        '1',
        '--failure-window',
        '600',
        '--min-interval',
        '1',
        '--quiet',
        ...HIGH_LIMITS,
      ],
    })
    const MONITORS = '/api/public/v1/monitors'
    try {
      const owner = await served.createKey({ user: 'owner', credits: 20 })
      const other = await served.createKey({ user: 'other', credits: 20 })
      const ok = await call(served.url, 'POST', MONITORS, owner.key, {
        url: hostile.ok,
        interval_seconds: 3600,
      })
      expect(ok.status, ok.text).toBe(201)
      const runsOf = async (id: string) =>
        (await call(served.url, 'GET', `${MONITORS}/${id}/runs`, owner.key)).json.runs as unknown[]
      // the first scheduled run is over: the only slot is free again
      for (let i = 0; i < 100 && (await runsOf(ok.json.id)).length < 1; i++) await sleep(50)
      const credits = (await call(served.url, 'GET', CREDITS, owner.key)).json.credits_remaining

      const held = call(served.url, 'POST', RUN, other.key, { url: hostile.silent })
      for (let i = 0; i < 100 && !hostile.openRequests().get('GET /silent'); i++) await sleep(50)
      const busy = await call(served.url, 'POST', `${MONITORS}/${ok.json.id}/run`, owner.key)
      expect(busy.status, busy.text).toBe(503)
      expect(busy.json.error.code).toBe('server_busy')
      expect(String(busy.headers['retry-after'])).toMatch(/^[1-9]\d*$/)
      expect((await call(served.url, 'GET', CREDITS, owner.key)).json.credits_remaining).toBe(credits)
      expect((await held).status).toBe(502)

      const closed = `${hostile.origin.replace(/:\d+$/, '')}:1/`
      const bad = await call(served.url, 'POST', MONITORS, owner.key, { url: closed, interval_seconds: 3600 })
      expect(bad.status, bad.text).toBe(201)
      const first = await call(served.url, 'POST', `${MONITORS}/${bad.json.id}/run`, owner.key)
      expect(first.status, first.text).toBe(502)
      const second = await call(served.url, 'POST', `${MONITORS}/${bad.json.id}/run`, owner.key)
      expect(second.status, second.text).toBe(429)
      expect(second.json.error.message).toMatch(/failed checks/)
      // as for the run route, a key out of free failures is refused for every run
      const fine = await call(served.url, 'POST', `${MONITORS}/${ok.json.id}/run`, owner.key)
      expect(fine.status, fine.text).toBe(429)
    } finally {
      await served.stop()
    }
  }, 90_000)
})
