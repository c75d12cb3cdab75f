/**
 * POST /checks/run-batch and `sitehealth test` on it: many checks in one request against the run
 * limit, each charged only when saved, each failure its own envelope in order; a file of 40
 * monitors tested under a run limit of 2 without waiting on it (it waited 60 s per 10 before).
 */
import { writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { closedPortUrl } from '../helpers/cli.js'
import { serveWithAccount } from '../helpers/e2e.js'

const acct = serveWithAccount({
  args: ['--quiet', '--run-limit', '2', '--rate-limit', '1000'],
  user: 'batch',
})
const { api, cli } = acct
let site: Server
let siteUrl: string

beforeAll(async () => {
  site = createServer((req, res) => {
    res.writeHead(req.url === '/missing' ? 404 : 200, { 'content-type': 'text/html' })
    res.end('<!doctype html><title>ok</title><p>ok</p>')
  })
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r))
  siteUrl = `http://127.0.0.1:${(site.address() as { port: number }).port}`
})

afterAll(() => site?.close())

describe('run-batch', () => {
  it('answers each check in order, charging only the saved ones, as one request against the run limit', async () => {
    const before = (await api('GET', '/credits')).body.credits_remaining
    const r = await api('POST', '/checks/run-batch', {
      checks: [
        { url: `${siteUrl}/`, pagespeed: 'estimate' },
        { url: await closedPortUrl(), pagespeed: 'estimate' },
        { url: 'ftp://example.com/', pagespeed: 'estimate' },
        {
          url: `${siteUrl}/missing`,
          pagespeed: 'estimate',
          assertions: [{ source: 'status_code', comparison: 'equals', target: 200 }],
        },
      ],
    })
    expect(r.status).toBe(200)
    const [ok, dead, bad, judged] = r.body.results
    expect(ok.ok).toBe(true)
    expect(dead).toMatchObject({ ok: false, error: { code: 'check_failed' } })
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_url' } })
    expect(judged.ok).toBe(true)
    expect(judged.data.assertions[0]).toMatchObject({ passed: false, actual: 404 })
    expect((await api('GET', '/credits')).body.credits_remaining).toBe(before - 2)
    // one request of the two the run limit allows: a second batch still goes through, a third does not
    expect(
      (await api('POST', '/checks/run-batch', { checks: [{ url: `${siteUrl}/`, pagespeed: 'estimate' }] }))
        .status,
    ).toBe(200)
    const limited = await api('POST', '/checks/run-batch', { checks: [{ url: `${siteUrl}/` }] })
    expect(limited.status).toBe(429)
    expect(limited.body.error.code).toBe('rate_limited')
  })

  it('refuses a batch that is empty, too long or not the shape, naming the field, charging nothing', async () => {
    const tooMany = { checks: Array.from({ length: 101 }, () => ({ url: `${siteUrl}/` })) }
    let n = 0
    for (const body of [
      { checks: [] },
      tooMany,
      { checks: [{ url: `${siteUrl}/`, colour: 'red' }] },
      { urls: [] },
    ]) {
      // a fresh key each: a refused body counts against the run limit, as on the run route
      const other = (await acct.served.createKey({ user: `batch-bad-${n++}`, credits: 5 })).key
      const r = await api('POST', '/checks/run-batch', body, other)
      expect(r.status, JSON.stringify(body).slice(0, 80)).toBe(400)
      expect(r.body.ok).toBe(false)
      expect(r.body.error.message).toMatch(/checks|colour|urls/)
      expect((await api('GET', '/credits', undefined, other)).body.credits_remaining).toBe(5)
    }
  })
})

describe('sitehealth test', () => {
  it('tests 40 monitors under a run limit of 2 without waiting on it', { timeout: 180_000 }, async () => {
    const other = (await acct.served.createKey({ user: 'batch-ci', credits: 100 })).key
    const monitors = Array.from(
      { length: 40 },
      (_, i) => `  - ref: site-${i}\n    url: ${siteUrl}/?n=${i}\n    every: 1h`,
    ).join('\n')
    const f = join(acct.home, 'sitehealth.yaml')
    await writeFile(f, `monitors:\n${monitors}\n`)
    const r = await cli(['test', '--file', f, '--reporter', 'json'], {
      env: { SITEHEALTH_API_URL: acct.served.url, SITEHEALTH_API_KEY: other },
    })
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).not.toMatch(/waiting|rate.?limit/i)
    const report = JSON.parse(r.stdout)
    expect(report.passed).toBe(40)
    expect(report.tests.map((t: { ref: string }) => t.ref)).toEqual(
      Array.from({ length: 40 }, (_, i) => `site-${i}`),
    )
    expect((await api('GET', '/credits', undefined, other)).body.credits_remaining).toBe(60)
  })
})
