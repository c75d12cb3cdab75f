/**
 * `GET /metrics` end to end (docs/decisions.md#the-public-face): off without `--metrics-token`,
 * the bearer token checked, and the Prometheus text format parsed line by line: HTTP requests by
 * route template and status, check durations and outcomes, scheduler lag, checks in flight, per
 * monitor up / score / response time / certificate expiry labelled by id and (escaped) name,
 * Node process metrics, and no URL or key anywhere.
 */
import { execa } from 'execa'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CLI, startServe, type Served } from '../helpers/serve.js'
import { callApi } from '../helpers/api.js'

const TOKEN = 'metrics-token-for-tests-0123456789'
let served: Served
let plain: Served
let site: Server
let key: string

interface Sample {
  name: string
  labels: Record<string, string>
  value: number
}

/** The exposition format's sample lines (comments skipped), label values unescaped. */
function parse(text: string): { samples: Sample[]; types: Map<string, string> } {
  const samples: Sample[] = []
  const types = new Map<string, string>()
  for (const line of text.split('\n')) {
    if (line === '') continue
    const t = /^# TYPE (\S+) (\S+)$/.exec(line)
    if (t) types.set(t[1], t[2])
    if (line.startsWith('#')) continue
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line)
    expect(m, line).not.toBeNull()
    const labels: Record<string, string> = {}
    const re = /([a-zA-Z_]\w*)="((?:[^"\\]|\\.)*)",?/g
    let l: RegExpExecArray | null
    while ((l = re.exec(m![2] ?? '')))
      labels[l[1]] = l[2].replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c))
    samples.push({ name: m![1], labels, value: Number(m![3]) })
  }
  return { samples, types }
}

/** The public API with the test's key: the answer's body. */
const api = async (method: string, path: string, body?: unknown) =>
  (await callApi(served.url, key, method, path, body)).body

const scrape = (token = TOKEN, base = served.url) =>
  fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${token}` } })

beforeAll(async () => {
  site = createServer((_q, s) =>
    s.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><p>ok'),
  )
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r))
  ;[served, plain] = await Promise.all([
    startServe({ args: ['--min-interval', '1', '--quiet', '--metrics-token', TOKEN] }),
    startServe({ args: ['--quiet'] }),
  ])
  key = (await served.createKey({ user: 'metrics', credits: 500 })).key
}, 120_000)

afterAll(async () => {
  await Promise.all([served?.stop(), plain?.stop()])
  await new Promise((r) => site?.close(r))
})

describe('/metrics', () => {
  it('does not exist without --metrics-token, and needs the token when set', async () => {
    const off = await fetch(`${plain.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })
    expect(off.status).toBe(404)
    expect((await fetch(`${served.url}/metrics`)).status).toBe(401)
    const wrong = await scrape('not-the-token')
    expect(wrong.status).toBe(401)
    expect(wrong.headers.get('www-authenticate')).toMatch(/^Bearer/)
    expect((await scrape(TOKEN + 'x')).status).toBe(401)
    const ok = await scrape()
    expect(ok.status).toBe(200)
    expect(ok.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/)
  })

  it('exposes requests, checks, lag, in-flight, per-monitor gauges and process metrics', async () => {
    const port = (site.address() as AddressInfo).port
    const up = await api('POST', '/monitors', {
      url: `http://127.0.0.1:${port}/private-path`,
      name: 'Web "main" \\ shop',
      interval_seconds: 1,
    })
    const down = await api('POST', '/monitors', {
      url: 'http://127.0.0.1:9/',
      name: 'Gone',
      interval_seconds: 1,
      alerts: { down_after: 1 },
    })
    const deadline = Date.now() + 30_000
    let parsed = parse(await (await scrape()).text())
    const value = (name: string, id: string) =>
      parsed.samples.find((s) => s.name === name && s.labels.monitor_id === id)?.value
    while (Date.now() < deadline) {
      if (value('sitehealth_monitor_up', up.id) === 1 && value('sitehealth_monitor_up', down.id) === 0) break
      await new Promise((r) => setTimeout(r, 300))
      parsed = parse(await (await scrape()).text())
    }
    const { samples, types } = parsed
    const upSample = samples.find((s) => s.name === 'sitehealth_monitor_up' && s.labels.monitor_id === up.id)
    expect(upSample?.labels.monitor_name).toBe('Web "main" \\ shop')
    expect(upSample?.value).toBe(1)
    expect(value('sitehealth_monitor_up', down.id)).toBe(0)
    const score = value('sitehealth_monitor_health_score', up.id)!
    expect(score).toBeGreaterThanOrEqual(0)
    expect(score).toBeLessThanOrEqual(100)
    expect(value('sitehealth_monitor_response_time_seconds', up.id)).toBeGreaterThanOrEqual(0)
    expect(value('sitehealth_monitor_health_score', down.id)).toBeUndefined()
    expect(types.get('sitehealth_monitor_certificate_expiry_timestamp_seconds')).toBe('gauge')

    const requests = samples.filter((s) => s.name === 'sitehealth_http_requests_total')
    expect(
      requests.find(
        (s) =>
          s.labels.route === '/api/public/v1/monitors' &&
          s.labels.method === 'POST' &&
          s.labels.status === '201',
      )?.value,
    ).toBe(2)
    expect(requests.find((s) => s.labels.route === '/metrics' && s.labels.status === '401')).toBeDefined()
    expect(types.get('sitehealth_http_request_duration_seconds')).toBe('histogram')
    expect(types.get('sitehealth_check_duration_seconds')).toBe('histogram')
    const checks = samples.filter((s) => s.name === 'sitehealth_checks_total')
    expect(checks.find((s) => s.labels.outcome === 'saved')!.value).toBeGreaterThan(0)
    expect(checks.find((s) => s.labels.outcome === 'check_failed')!.value).toBeGreaterThan(0)
    expect(samples.find((s) => s.name === 'sitehealth_scheduler_lag_seconds_count')!.value).toBeGreaterThan(0)
    expect(types.get('sitehealth_checks_in_flight')).toBe('gauge')
    expect(samples.find((s) => s.name === 'process_cpu_user_seconds_total')).toBeDefined()
    expect(samples.find((s) => s.name === 'nodejs_heap_size_used_bytes')).toBeDefined()

    // bounded labels: no URL, no key, no raw path with an id in it
    const text = await (await scrape()).text()
    expect(text).not.toContain('private-path')
    expect(text).not.toContain('127.0.0.1')
    expect(text).not.toContain(key)
    expect(requests.every((s) => !/[0-9a-f]{8}-[0-9a-f]{4}/.test(s.labels.route))).toBe(true)
  }, 60_000)

  it.each([
    ['--metrics-token changeme', ['--metrics-token', 'changeme'], {}],
    ['SITEHEALTH_METRICS_TOKEN of one letter', [], { SITEHEALTH_METRICS_TOKEN: 'x'.repeat(40) }],
  ])(
    'serve refuses a weak metrics token: %s',
    async (_name, args, env) => {
      const dir = await mkdtemp(join(tmpdir(), 'sitehealth-metrics-'))
      try {
        const r = await execa('node', [CLI, 'serve', '--port', '0', '--data-dir', dir, ...args], {
          env: { NO_COLOR: '1', ...env },
          reject: false,
          timeout: 20_000,
        })
        expect(r.exitCode).toBe(1)
        expect(r.stdout).toBe('')
        expect(r.stderr).toMatch(/--metrics-token \(SITEHEALTH_METRICS_TOKEN\) is too weak/)
        expect(r.stderr).toContain('openssl rand -base64 32')
        expect(r.stderr).not.toMatch(/\n\s+at /)
      } finally {
        await rm(dir, { recursive: true, force: true })
      }
    },
    60_000,
  )

  // last: it leaves this client's address refused for the rest of the minute
  it('answers 429 with Retry-After past 10 wrong tokens a minute from one address, the right one included', async () => {
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => scrape(`wrong-guess-${i}`)))
    const statuses = answers.map((r) => r.status)
    // the first test spent a few of the 10 already
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(10)
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(20)
    const refused = answers.find((r) => r.status === 429)!
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    expect((await refused.json()).error.code).toBe('rate_limited')
    const right = await scrape()
    expect(right.status).toBe(429)
    expect(await right.text()).not.toContain('sitehealth_')
  })
})
