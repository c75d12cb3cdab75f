import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCheck, type CheckOptions, type CheckReport } from '../../src/checks/index.js'
import { startTargets, type Targets } from '../fixtures/targets.js'
import { failure } from './check-error.js'

let t: Targets
let opts: CheckOptions

// the test CA is trusted the way a self-hoster trusts an internal CA: added to Node's roots
beforeAll(async () => {
  t = await startTargets()
  opts = { allowPrivateTargets: true, extraCA: t.pki.ca.cert, totalTimeoutMs: 8_000 }
})
afterAll(() => t?.close())

const check = (url: string, extra: CheckOptions = {}) => runCheck(url, { ...opts, ...extra })

describe('runCheck', () => {
  it('scores a healthy HTTPS site high, with low risk', async () => {
    const before = Date.now()
    const r = await check(t.healthy)
    expect(r.url).toBe(t.healthy)
    expect(r.finalUrl).toBe(t.healthy)
    expect(r.healthScore).toBeGreaterThanOrEqual(90)
    expect(r.riskLevel).toBe('low')
    expect(r.status).toBe('ok')
    // each signal by name, with its message, so a failure says which one and why
    for (const [name, signal] of Object.entries(r.signals))
      expect({ name, status: signal.status, message: signal.message }).toMatchObject({ name, status: 'ok' })
    expect(r.missingHeaders).toEqual([])
    expect(r.performanceScore).toBeGreaterThanOrEqual(90)
    expect(r.responseTimeMs).toBeGreaterThan(0)
    expect(Date.parse(r.startedAt)).toBeGreaterThanOrEqual(before - 1)
    expect(r.durationMs).toBeGreaterThanOrEqual(0)
    expect(r.summary).toContain('127.0.0.1')
  })

  it.each<[keyof Targets, RegExp]>([
    ['plainHttp', /plain http/],
    ['selfSigned', /self-signed/],
    ['expired', /expired \d+ days? ago/],
    ['notYetValid', /not valid until/],
    ['wrongHost', /does not cover 127\.0\.0\.1.*wrong\.example/],
    ['expiringSoon', /expires in 5 days/],
  ])('flags the certificate problem of %s', async (name, message) => {
    const r = await check(t[name] as string)
    expect(r.signals.https_ssl.status).toBe('needs_review')
    expect(r.signals.https_ssl.message).toMatch(message)
    // a bad certificate is a finding: the site still answered
    expect(r.signals.reachability.status).not.toBe('unavailable')
    expect(r.riskLevel).toBe('high')
  })

  it('lists every missing security header', async () => {
    const r = await check(t.missingHeaders)
    expect(r.signals.security_headers.status).toBe('needs_review')
    expect(r.missingHeaders).toEqual([
      'content-security-policy',
      'strict-transport-security',
      'x-content-type-options',
      'x-frame-options',
      'referrer-policy',
      'permissions-policy',
    ])
    expect(r.signals.security_headers.message).toMatch(/content-security-policy|Content-Security-Policy/)
  })

  it('notices a weak HSTS max-age', async () => {
    const r = await check(t.weakHsts)
    expect(r.missingHeaders).toEqual([])
    // a weak value counts: extra credit cannot lift the signal back to ok
    expect(r.signals.security_headers.status).toBe('warning')
    expect(r.signals.security_headers.message).toMatch(/Strict-Transport-Security is weak.*300 s/i)
    expect(r.signals.security_headers.findings.some((f) => f.severity !== 'info')).toBe(true)
  })

  it('judges a slow first byte', async () => {
    const r = await check(t.slow)
    expect(r.responseTimeMs).toBeGreaterThanOrEqual(2_400)
    expect(r.signals.response_time.status).not.toBe('ok')
    expect(r.signals.response_time.message).toMatch(/slow/i)
  })

  it('penalises a large uncompressed page', async () => {
    const healthy = await check(t.healthy)
    const r = await check(t.large)
    expect(r.performanceScore).toBeLessThan(healthy.performanceScore)
    expect(r.signals.pagespeed.status).not.toBe('ok')
  })

  it('returns a 500 as a result that needs review', async () => {
    const r: CheckReport = await check(t.serverError)
    expect(r.signals.reachability.status).toBe('needs_review')
    expect(r.signals.reachability.message).toMatch(/500/)
    expect(r.healthScore).toBeLessThan(50)
  })

  it('follows redirects and reports where it landed', async () => {
    const r = await check(t.redirectChain)
    expect(r.url).toBe(t.redirectChain)
    expect(r.finalUrl).toBe(`${t.httpsOrigin}/redirect/0`)
    expect(r.signals.reachability.status).not.toBe('unavailable')
  })

  it('fails with check_failed on a closed port', async () => {
    const err = await failure(check(t.closedPort))
    expect(err.code).toBe('check_failed')
    expect(err.message).toMatch(/connection refused/)
  })

  it('fails with check_failed on a server that never answers, within the budget', async () => {
    const started = Date.now()
    const err = await failure(check(t.neverAnswers, { totalTimeoutMs: 1_000 }))
    expect(err.code).toBe('check_failed')
    expect(err.message).toBe('No answer from 127.0.0.1 within 1 s')
    expect(Date.now() - started).toBeLessThan(3_000)
  })

  it.each([
    ['a loopback literal', () => t.healthy],
    ['localhost', () => t.healthy.replace('127.0.0.1', 'localhost')],
    ['cloud metadata', () => 'http://169.254.169.254/latest/meta-data/'],
  ])('refuses %s with invalid_url when private targets are not allowed', async (_, url) => {
    const before = t.requests.length
    const err = await failure(runCheck(url(), { extraCA: t.pki.ca.cert }))
    expect(err.code).toBe('invalid_url')
    expect(err.message).toMatch(/blocked/i)
    expect(t.requests.length).toBe(before)
  })

  it('refuses malformed input with invalid_url', async () => {
    expect((await failure(runCheck('not a url'))).code).toBe('invalid_url')
    expect((await failure(runCheck(42))).code).toBe('invalid_url')
  })
})
