/**
 * Hostile `json_body` assertions against a real `serve` (issue 31): JSONPath payloads that ran
 * code through jsonpath-plus, sent through the run route and a monitor, must run nothing.
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
