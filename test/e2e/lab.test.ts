/**
 * `serve --lab-browser /usr/bin/chromium` end to end: the built CLI's serve with a real Chromium,
 * a local page on 127.0.0.1, and the built CLI's `check` against it. The check's performance is
 * measured by Lighthouse 12.8 (details.method lab, its version, FCP/LCP/TBT/CLS/SI, the estimate
 * beside them), the CLI says "measured", and the check costs one credit like any other. A run
 * request with "pagespeed": "estimate" skips the browser. Isolation between runs (cookies,
 * localStorage) is tested on the lab itself in test/lab/lab.test.ts.
 * Skipped with a notice without Chromium, failed instead under CI.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { CHROMIUM, describeLab, labSite, page } from '../lab/helpers.js'
import { cliRunner } from '../helpers/cli.js'
import { startServe, type Served } from '../helpers/serve.js'

describeLab('serve --lab-browser: a check measured in Chromium', () => {
  let served: Served
  let site: Awaited<ReturnType<typeof labSite>>
  let home: string
  const { cli } = cliRunner(() => home)
  const api = async (path: string, key: string, init: RequestInit = {}) => {
    const res = await fetch(served.url + path, {
      ...init,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    })
    return { status: res.status, body: (await res.json()) as any }
  }

  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'sitehealth-lab-e2e-'))
    site = await labSite((req, res) => {
      if (req.url !== '/') return false
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(page('<h1>Lab page</h1><p>Measured in a real browser.</p>'))
      return true
    })
    // the browser and Lighthouse's worker start before serve listens: 13-16 s at a load of 20 here
    served = await startServe({
      args: ['--lab-browser', CHROMIUM!, '--lab-timeout', '120'],
      startTimeoutMs: 60_000,
    })
  }, 90_000)

  afterAll(async () => {
    await served?.stop()
    await site?.close()
    if (home) await rm(home, { recursive: true, force: true })
  })

  it('measures with Lighthouse 12.8, keeps the estimate beside it, says "measured", charges 1 credit', async () => {
    const { key } = await served.createKey({ user: 'lab-measured', credits: 5 })
    const env = { SITEHEALTH_API_URL: served.url, SITEHEALTH_API_KEY: key, NO_COLOR: '1' }
    const r = await cli(['check', site.url('/')], { env, timeout: 180_000 })
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toMatch(/pagespeed\s+\w+\s+Performance \d+\/100 \(measured by Lighthouse 12\.8\.\d+/)
    const id = /check id\s+([0-9a-f-]{36})/.exec(r.stdout)?.[1]
    expect(id).toBeDefined()

    const saved = await api(`/api/public/v1/checks/${id}`, key)
    expect(saved.status).toBe(200)
    const d = saved.body.checks.pagespeed.details
    expect(d.method).toBe('lab')
    expect(d.lighthouseVersion).toMatch(/^12\.8\./)
    for (const k of ['fcp', 'lcp', 'tbt', 'cls', 'si']) expect(typeof d.metrics[k], k).toBe('number')
    expect(d.metrics.fcp).toBeGreaterThan(0)
    expect(d.metrics.lcp).toBeGreaterThanOrEqual(d.metrics.fcp)
    expect(typeof d.estimate.performanceScore).toBe('number')
    expect(typeof d.estimate.metrics.fcp).toBe('number')
    expect(d.performanceScore).toBe(d.score)
    expect(saved.body.checks.pagespeed.message).toMatch(/measured/)

    const credits = await api('/api/public/v1/credits', key)
    expect(credits.body.credits_remaining).toBe(4)
  }, 240_000)

  it('"pagespeed": "estimate" skips the browser: estimated, method in the run result, 1 credit', async () => {
    const { key } = await served.createKey({ user: 'lab-estimate', credits: 5 })
    const run = await api('/api/public/v1/checks/run', key, {
      method: 'POST',
      body: JSON.stringify({ url: site.url('/'), pagespeed: 'estimate' }),
    })
    expect(run.status).toBe(200)
    expect(run.body.data.checks.pagespeed.method).toBe('estimate')
    expect(run.body.data.checks.pagespeed.message).toMatch(/estimated/)
    expect(run.body.credits).toEqual({ used: 1, remaining: 4 })
    const saved = await api(`/api/public/v1/checks/${run.body.data.id}`, key)
    expect(saved.body.checks.pagespeed.details.method).toBe('estimate')
    expect(saved.body.checks.pagespeed.details.lab).toBeNull()
  }, 60_000)
})
