/**
 * Hostile `json_body` assertions against a real `serve` (issue 31): JSONPath payloads that ran
 * code through jsonpath-plus, sent through the run route and a monitor, must run nothing; paths
 * and regular expressions that froze the server must not stall another client.
 */
import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hostileJsonPaths, markerJs } from '../helpers/hostile-jsonpath.js'
import { startServe, UNLIMITED, type Served } from '../helpers/serve.js'

let served: Served
let site: Server
let siteUrl: string
let dir: string

/** Each path of the site answers JSON: the body is the path's entry in BODIES (or a small object). */
const BODIES: Record<string, string> = {
  '/': JSON.stringify({ status: 'ok', a: [{ b: 1 }, { b: 'x' }] }),
  // the 200-byte body: arrays nested 100 deep
  '/nested': '['.repeat(100) + ']'.repeat(100),
  // the string for ^(a+)+$, and a long one
  '/aaa': JSON.stringify(['a'.repeat(28) + '!', 'a'.repeat(20_000) + '!']),
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sitehealth-attacks-'))
  site = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(BODIES[req.url ?? '/'] ?? BODIES['/'])
  })
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r))
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`
  served = await startServe({ args: UNLIMITED })
}, 60_000)

afterAll(async () => {
  await served?.stop()
  await new Promise<void>((r) => site?.close(() => r()))
  await rm(dir, { recursive: true, force: true })
})

/** POST with `key` (the run route allows 10 runs a minute per key: tests take a key each). */
async function post(
  key: string,
  path: string,
  body: unknown,
): Promise<{ status: number; body: any; ms: number }> {
  const started = performance.now()
  const res = await fetch(`${served.url}/api/public/v1${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  const parsed = await res.json()
  return { status: res.status, body: parsed, ms: performance.now() - started }
}

describe('JSONPath payloads run no code in serve', () => {
  const payloads = Object.keys(hostileJsonPaths('')).map((name, i) => ({ name, i }))

  it.each(payloads)('$name: the run route and a monitor refuse it, naming the field', async ({ name, i }) => {
    const [runFile, monitorFile] = [join(dir, `run-${i}`), join(dir, `monitor-${i}`)]
    const assertion = (file: string) => ({
      source: 'json_body',
      property: hostileJsonPaths(markerJs(file, 'pwned'))[name],
      comparison: 'not_empty',
    })
    const { key } = await served.createKey({ credits: 10 })
    const run = await post(key, '/checks/run', { url: `${siteUrl}/`, assertions: [assertion(runFile)] })
    const monitor = await post(key, '/monitors', {
      url: `${siteUrl}/`,
      interval_seconds: 60,
      assertions: [{ source: 'status_code', comparison: 'equals', target: 200 }, assertion(monitorFile)],
    })
    for (const r of [run, monitor]) {
      expect(r.status, JSON.stringify(r.body)).toBe(400)
      expect(r.body.error.message).toMatch(/assertions\.\d\.property.*RFC 9535/)
    }
    expect(run.body.error.message).toContain('assertions.0.property')
    expect(monitor.body.error.message).toContain('assertions.1.property')
    expect(existsSync(runFile)).toBe(false)
    expect(existsSync(monitorFile)).toBe(false)
  })
})

describe('hostile paths and regular expressions do not stall another client', () => {
  async function timed<T>(f: () => Promise<T>): Promise<{ value: T; ms: number }> {
    const started = performance.now()
    const value = await f()
    return { value, ms: performance.now() - started }
  }
  const health = () => timed(() => fetch(`${served.url}/api/public/v1/health`).then((r) => r.status))
  const run = async (path: string, assertions: unknown[]) =>
    post((await served.createKey({ credits: 10 })).key, '/checks/run', {
      url: `${siteUrl}${path}`,
      assertions,
    })
  const json = (property: string, comparison = 'is_empty') => ({ source: 'json_body', property, comparison })

  it('each answers promptly (a 400 or a failed assertion) while /health keeps its pace', async () => {
    // baselines in this test: the cheap request alone, and a benign run of the same kind
    const base: number[] = []
    for (let i = 0; i < 10; i++) base.push((await health()).ms)
    const benign = await run('/nested', [json('$[0][0]', 'not_empty')])
    expect(benign.status).toBe(200)

    const hostile = Promise.all([
      run('/nested', [json('$..*..*..*..x')]),
      run('/aaa', [json("$[?(@.match('^(a+)+$'))]")]),
      run('/aaa', [json("$[?match(@, '^(a+)+$')]")]),
      run(
        '/nested',
        Array.from({ length: 20 }, () => json('$' + '[0,0,0,0,0,0,0,0]'.repeat(20))),
      ),
    ])
    let done = false
    void hostile.finally(() => (done = true))
    const during: number[] = []
    while (!done || during.length < 5) during.push((await health()).ms)
    const [descendants, oldRegex, regex, duplicates] = await hostile

    const bound = 3 * Math.max(...base) + 1000
    expect(
      Math.max(...during),
      `health ${during.map(Math.round).join(', ')} ms; alone ${base.map(Math.round).join(', ')}`,
    ).toBeLessThan(bound)
    const runBound = 3 * benign.ms + 1000
    for (const r of [descendants, oldRegex, regex, duplicates]) expect(r.ms).toBeLessThan(runBound)

    expect(descendants.status).toBe(400)
    expect(descendants.body.error.message).toMatch(/assertions\.0\.property.*4 descendant segments/)
    expect(oldRegex.status).toBe(400)
    expect(oldRegex.body.error.message).toMatch(/assertions\.0\.property.*RFC 9535/)
    expect(regex.status).toBe(200)
    expect(regex.body.data.assertions[0]).toMatchObject({ passed: true, actual: null })
    expect(duplicates.status).toBe(200)
    expect(duplicates.body.data.assertions.map((a: { passed: boolean }) => a.passed)).toEqual(
      Array(20).fill(false),
    )
    expect(duplicates.body.data.assertions[0].actual).toBe('JSONPath visited more than 10,000 nodes')
  })
})
