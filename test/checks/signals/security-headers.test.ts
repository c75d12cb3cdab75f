import { describe, expect, it } from 'vitest'
import { securityHeaders } from '../../../src/checks/signals/security-headers.js'
import { healthyProbe, NOW, plainHttpProbe } from '../probe-builder.js'

const ALL = [
  'content-security-policy',
  'strict-transport-security',
  'x-content-type-options',
  'x-frame-options',
  'referrer-policy',
  'permissions-policy',
]

/** The healthy site with some headers changed (a string) or removed (undefined). */
const judge = (headers: Record<string, string | undefined>) =>
  securityHeaders(healthyProbe({ response: { headers } }), NOW)
const without = (...names: string[]) => Object.fromEntries(names.map((n) => [n, undefined]))

describe('security_headers: present or missing', () => {
  it('is ok with every header set', () => {
    const s = judge({})
    expect(s).toMatchObject({
      status: 'ok',
      score: 100,
      message: 'All recommended security headers are set (100/100)',
      findings: [],
    })
    expect(s.details).toMatchObject({
      missing: [],
      weak: [],
      score: 100,
      uncurvedScore: 100,
      extraCredit: true,
    })
  })

  it('lists all six missing headers in the stable order and scores 30', () => {
    const s = judge(without(...[...ALL].reverse()))
    expect(s.score).toBe(30)
    expect(s.status).toBe('needs_review')
    expect(s.details.missing).toEqual(ALL)
    expect(s.message).toBe(`Missing 6 security headers: ${ALL.join(', ')}`)
    expect(s.findings).toEqual([{ severity: 'medium', message: s.message }])
  })

  it('names the missing headers in the message', () => {
    const s = judge(without('permissions-policy', 'x-frame-options', 'content-security-policy'))
    expect(s.message).toBe(
      'Missing 3 security headers: content-security-policy, x-frame-options, permissions-policy',
    )
    expect(s).toMatchObject({ status: 'warning', score: 55 })
  })

  it.each([
    // header removed → score, status (Observatory: CSP −25, HSTS −20, XCTO −5, XFO −20, referrer 0,
    // permissions 0); a listed header is never "perfect", so extra credit stops at 99 (issue 26)
    ['content-security-policy', 75, 'warning', 'medium'],
    ['strict-transport-security', 80, 'warning', 'medium'],
    ['x-content-type-options', 99, 'ok', 'low'],
    ['referrer-policy', 99, 'ok', 'low'],
    ['permissions-policy', 99, 'ok', 'low'],
  ] as const)('only %s missing → %d (%s)', (header, score, status, severity) => {
    const s = judge(without(header))
    expect(s.score).toBe(score)
    expect(s.status).toBe(status)
    expect(s.details.missing).toEqual([header])
    expect(s.findings[0]).toEqual({ severity, message: `Missing 1 security header: ${header}` })
  })

  it('does not count x-frame-options as missing when CSP frame-ancestors is set', () => {
    const s = judge(without('x-frame-options'))
    expect(s.details.missing).toEqual([])
    expect(s.score).toBe(100)
  })

  it('counts x-frame-options as missing when CSP has no frame-ancestors', () => {
    const s = judge({ 'content-security-policy': "default-src 'self'", 'x-frame-options': undefined })
    expect(s.details.missing).toEqual(['x-frame-options'])
    expect(s.score).toBe(80)
  })

  it('does not count a Report-Only CSP', () => {
    const s = judge({
      'content-security-policy': undefined,
      'content-security-policy-report-only': "default-src 'self'",
    })
    expect(s.details.missing).toEqual(['content-security-policy'])
    expect(s.score).toBe(75)
    expect(s.findings.map((f) => f.severity)).toEqual(['medium', 'low'])
    expect(s.findings[1].message).toMatch(
      /^Only Content-Security-Policy-Report-Only is set: it reports violations but blocks nothing/,
    )
  })
})

describe('security_headers: weak values', () => {
  it.each([
    [
      "default-src 'self'; script-src 'self' 'unsafe-inline'; frame-ancestors 'none'",
      80,
      "'unsafe-inline' in script-src without a nonce or hash",
    ],
    [
      "default-src 'self' 'unsafe-inline'; frame-ancestors 'none'",
      80,
      "'unsafe-inline' in default-src without a nonce or hash",
    ],
    ["default-src 'self'; script-src 'self' data:; frame-ancestors 'none'", 80, 'data: URLs in script-src'],
    [
      "script-src https:; object-src 'none'; frame-ancestors 'none'",
      80,
      'script-src allows any source (https:)',
    ],
    [
      "frame-ancestors 'none'; object-src 'none'",
      80,
      'neither script-src nor default-src is set, so scripts are not restricted',
    ],
    // −10 leaves the uncurved score at 90; Observatory's extra credit would lift it back to 100, but a
    // weak value must count, so the score stops at the top of the warning band
    [
      "default-src 'self'; script-src 'self' 'unsafe-eval'; frame-ancestors 'none'",
      89,
      "'unsafe-eval' in script-src",
    ],
  ])('CSP %s → %d', (csp, score, problem) => {
    const s = judge({ 'content-security-policy': csp })
    expect(s.score).toBe(score)
    expect(s.details.weak).toEqual([{ header: 'content-security-policy', problem }])
    expect(s.message).toBe(`Content-Security-Policy is weak: ${problem}`)
    expect(s.details.missing).toEqual([])
  })

  it('unsafe-eval does cost points once the score is below the extra-credit line', () => {
    const s = judge({
      'content-security-policy':
        "default-src 'self'; script-src 'self' 'unsafe-eval'; frame-ancestors 'none'",
      'x-content-type-options': undefined,
    })
    expect(s.score).toBe(85)
    expect(s.details.extraCredit).toBe(false)
  })

  it("accepts 'unsafe-inline' next to a nonce ('strict-dynamic' ignores host sources too)", () => {
    const s = judge({
      'content-security-policy':
        "script-src 'nonce-r4nd0m' 'unsafe-inline' 'strict-dynamic' https:; object-src 'none'; frame-ancestors 'none'",
    })
    expect(s.details.weak).toEqual([])
    expect(s.score).toBe(100)
  })

  it('judges several CSP policies by the strictest one', () => {
    const s = judge({ 'content-security-policy': "frame-ancestors 'none', default-src 'self'" })
    expect(s.details.weak).toEqual([])
    expect(s.details.missing).toEqual([])
    expect(s.score).toBe(100)
  })

  it('reports a short HSTS max-age with the actual days', () => {
    const s = judge({ 'strict-transport-security': 'max-age=2592000' })
    expect(s.details.weak).toEqual([
      { header: 'strict-transport-security', problem: 'max-age is 30 days (2592000 s), under 180 days' },
    ])
    expect(s.message).toBe(
      'Strict-Transport-Security is weak: max-age is 30 days (2592000 s), under 180 days; use at least 180 days (15552000 s)',
    )
    expect(s.findings[0].severity).toBe('low')
    expect(
      judge({ 'strict-transport-security': 'max-age=2592000', 'x-content-type-options': undefined }).score,
    ).toBe(85)
  })

  // RFC 6797 §6.1 / §8.1: a value that does not parse, one without max-age, and max-age=0 leave the
  // host unprotected, exactly as no header does (issue 11 item 5): the same score as a missing HSTS
  it.each([
    ['max-age=0', 'max-age=0'],
    ['includeSubDomains', 'no max-age'],
    ['includeSubDomains, max-age=31536000', 'no max-age'],
    ['max-age=31536000; max-age=31536000', 'unparsable value'],
    ['max-age=abc', 'unparsable value'],
  ])('HSTS %s is ignored by browsers → scored as missing', (value, reason) => {
    const s = judge({ 'strict-transport-security': value })
    const absent = judge(without('strict-transport-security'))
    expect(s.details.ignored).toEqual([{ header: 'strict-transport-security', reason }])
    expect(s.details.weak).toEqual([])
    expect(s.details.missing).toEqual(['strict-transport-security'])
    expect(s.score).toBe(absent.score)
    expect(s.score).toBe(80)
  })

  it('treats the HSTS six-month line as a pass', () => {
    expect(judge({ 'strict-transport-security': 'max-age=15552000' }).details.weak).toEqual([])
  })

  it('scores an X-Content-Type-Options value other than nosniff exactly as a missing header (Fetch "determine nosniff")', () => {
    const s = judge({ 'x-content-type-options': 'sniff' })
    expect(s.score).toBe(judge(without('x-content-type-options')).score)
    expect(s.score).toBe(99) // listed, so never 100 (issue 26)
    expect(s.details.ignored).toEqual([
      { header: 'x-content-type-options', reason: 'first value is not nosniff' },
    ])
    expect(s.details.missing).toEqual(['x-content-type-options'])
    expect(s.findings.map((f) => f.message)).toContain(
      'X-Content-Type-Options is "sniff", which browsers ignore (only nosniff means anything), the same as no header; send exactly nosniff',
    )
  })

  it('accepts nosniff in any case with whitespace', () => {
    expect(judge({ 'x-content-type-options': ' NoSniff ' }).details.weak).toEqual([])
  })

  // HTML Standard X-Frame-Options processing: ALLOW-FROM and unknown values are ignored
  it.each([
    ['ALLOWALL', 'invalid value'],
    ['ALLOW-FROM https://example.net/', 'ALLOW-FROM is ignored by current browsers'],
  ])('X-Frame-Options %s (no frame-ancestors) scores exactly as a missing one', (value, reason) => {
    const s = judge({ 'content-security-policy': "default-src 'self'", 'x-frame-options': value })
    const absent = judge({ 'content-security-policy': "default-src 'self'", 'x-frame-options': undefined })
    expect(s.score).toBe(absent.score)
    expect(s.score).toBe(80)
    expect(s.details.ignored).toEqual([{ header: 'x-frame-options', reason }])
    expect(s.details.missing).toEqual(['x-frame-options'])
  })

  it.each([
    ['unsafe-url', 'unsafe-url leaks page URLs to other sites'],
    ['no-referrer, unsafe-url', 'unsafe-url leaks page URLs to other sites'],
  ])('Referrer-Policy %s is weak', (value, problem) => {
    expect(judge({ 'referrer-policy': value }).details.weak).toEqual([{ header: 'referrer-policy', problem }])
  })

  it('scores a Referrer-Policy browsers do not know exactly as a missing one (W3C Referrer Policy §8.1)', () => {
    const s = judge({ 'referrer-policy': 'nonsense' })
    expect(s.score).toBe(judge(without('referrer-policy')).score)
    expect(s.details.weak).toEqual([])
    expect(s.details.ignored).toEqual([{ header: 'referrer-policy', reason: 'no value browsers know' }])
  })

  it('uses the last referrer policy the browser knows', () => {
    expect(judge({ 'referrer-policy': 'unsafe-url, strict-origin' }).details.weak).toEqual([])
  })
})

describe('security_headers: plain http and error pages', () => {
  it('does not list HSTS as missing on plain http, but takes the no-https penalty', () => {
    const s = securityHeaders(plainHttpProbe(), NOW)
    expect(s.details.missing).toEqual([])
    expect(s.details.notApplicable).toEqual(['strict-transport-security'])
    expect(s.score).toBe(80)
    expect(s.status).toBe('warning')
    expect(s.message).toBe(
      'Served over plain http, so Strict-Transport-Security cannot protect visitors; move the site to https first',
    )
  })

  it('is unavailable for an error page (Observatory grades 2xx, 3xx, 401 and 403 only)', () => {
    const s = securityHeaders(healthyProbe({ response: { status: 500 } }), NOW)
    expect(s).toMatchObject({ status: 'unavailable', score: null })
    expect(s.details.missing).toEqual([])
    expect(s.message).toBe(
      "Security headers not judged: https://example.com/ answers 500 Internal Server Error, and an error page's headers say little about the site",
    )
  })

  it('still judges a 403', () => {
    expect(securityHeaders(healthyProbe({ response: { status: 403 } }), NOW).status).toBe('ok')
  })
})
