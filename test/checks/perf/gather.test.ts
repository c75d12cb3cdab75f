/**
 * The gatherer's bounds and its guard: every subresource URL and every redirect hop of a
 * subresource passes the same SSRF guard as the page (src/checks/guard.ts); a blocked one is
 * recorded and never requested.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createGuardedAgent } from '../../../src/checks/http-agent.js'
import { readPage } from '../../../src/checks/page/index.js'
import { GATHER_BOUNDS } from '../../../src/checks/perf/constants.js'
import { gatherCritical } from '../../../src/checks/perf/gather.js'

// the fixture's own redirecting paths are waved through the URL check (the page's origin passed it
// in a real check); everything else meets the real guard, including every redirect target
vi.mock('../../../src/checks/guard.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../src/checks/guard.js')>()
  return {
    ...real,
    assertTargetAllowed: (url: URL, opts: { allowPrivateTargets?: boolean }) =>
      url.hostname === '127.0.0.1' && url.pathname.startsWith('/to-')
        ? undefined
        : real.assertTargetAllowed(url, opts),
  }
})

let server: http.Server
let origin: string
const seen: string[] = []

beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.push(req.url ?? '')
    const url = req.url ?? '/'
    if (url.startsWith('/to-metadata'))
      return res.writeHead(302, { location: 'http://169.254.169.254/latest/' }).end()
    if (url.startsWith('/to-loopback')) return res.writeHead(302, { location: 'http://[::1]/x.css' }).end()
    if (url.startsWith('/slow'))
      return void setTimeout(() => res.writeHead(200, { 'content-type': 'text/css' }).end('a{}'), 3000)
    if (url.endsWith('.css'))
      return res
        .writeHead(200, { 'content-type': 'text/css' })
        .end(
          `@import "deep${url.length}.css";\n@font-face { font-family: F; src: url(f.woff2) format("woff2"); font-display: swap }\nbody{}`,
        )
    res
      .writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': '5000' })
      .end(Buffer.alloc(5000))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

const gather = async (html: string, allowPrivateTargets: boolean, wallMs?: number) => {
  const agent = createGuardedAgent({ allowPrivateTargets, connectTimeoutMs: 2000, ioTimeoutMs: 5000 })
  try {
    const page = readPage(html, `${origin}/`, { truncated: false })
    return await gatherCritical(page, {
      agent,
      headers: { 'user-agent': 'test', 'accept-encoding': 'gzip' },
      signal: AbortSignal.timeout(10_000),
      allowPrivateTargets,
      wallMs,
    })
  } finally {
    await agent.destroy()
  }
}

describe('gatherCritical: the guard', () => {
  it('never requests a subresource on a blocked address (metadata, loopback, private, localhost)', async () => {
    seen.length = 0
    const html = `<head>
      <link rel="stylesheet" href="http://169.254.169.254/latest/meta-data/a.css">
      <link rel="stylesheet" href="http://[::1]:${origin.split(':')[2]}/b.css">
      <script src="http://localhost:${origin.split(':')[2]}/c.js"></script>
      <link rel="stylesheet" href="${origin}/own.css">
    </head><body><img src="http://10.0.0.1/d.png"></body>`
    // the page's own origin is 127.0.0.1: without allowPrivateTargets it is blocked too
    const result = await gather(html, false)
    expect(seen).toEqual([])
    expect(result.requests).toBe(0)
    expect(result.resources.length).toBe(5)
    for (const r of result.resources) {
      expect(r.fetched).toBe(false)
      expect(r.error).toMatch(/^not fetched: /)
    }
  })

  it('refuses a subresource redirect to a blocked address even when the first hop was allowed', async () => {
    seen.length = 0
    const html = `<head><link rel="stylesheet" href="${origin}/to-metadata.css"><script src="${origin}/to-loopback.js"></script></head>`
    const result = await gather(html, false)
    const [css, js] = result.resources
    expect(css.fetched).toBe(false)
    expect(js.fetched).toBe(false)
    expect(css.error).toMatch(/^not fetched: redirects to .*169\.254\.169\.254/)
    expect(js.error).toMatch(/^not fetched: redirects to .*\[::1\]/)
    expect(seen.sort()).toEqual(['/to-loopback.js', '/to-metadata.css'])
  })
})

describe('gatherCritical: what it finds and its bounds', () => {
  it('follows @import chains two levels down and finds the fonts, with font-display', async () => {
    const result = await gather(`<head><link rel="stylesheet" href="${origin}/a.css"></head>`, true)
    const sheets = result.resources.filter((r) => r.kind === 'stylesheet')
    expect(sheets.map((r) => r.parent)).toEqual([null, 0, 1])
    expect(sheets.every((r) => r.renderBlocking && r.fetched)).toBe(true)
    const font = result.resources.find((r) => r.kind === 'font')!
    expect(font).toMatchObject({
      url: `${origin}/f.woff2`,
      blocksText: false,
      size: 'content-length',
      wireBytes: 5000,
    })
  })

  it('stays within the request bound however many subresources a page names', async () => {
    const many = Array.from(
      { length: 60 },
      (_, i) =>
        `<link rel="stylesheet" href="${origin}/s${i}.css"><script src="${origin}/j${i}.js"></script><img src="${origin}/i${i}.png">`,
    ).join('')
    seen.length = 0
    const result = await gather(`<head>${many}</head>`, true)
    expect(result.requests).toBeLessThanOrEqual(GATHER_BOUNDS.maxRequests)
    expect(seen.length).toBeLessThanOrEqual(GATHER_BOUNDS.maxRequests)
    expect(result.leftOut).toBeGreaterThan(0)
  })

  it('stops at the wall-time bound and says so', async () => {
    const started = Date.now()
    const result = await gather(`<head><link rel="stylesheet" href="${origin}/slow.css"></head>`, true, 300)
    expect(Date.now() - started).toBeLessThan(2500)
    expect(result.bound).toBe('time')
    expect(result.resources[0]).toMatchObject({ fetched: false, error: 'not fetched within the time bound' })
  })
})
