// Issue 26 item 3, the last header misses: a listed finding never scores 100; a CSP that lets
// images, media or fonts load over plain http is a finding; HSTS sent over a certificate browsers
// refuse is ignored by them (RFC 6797 §8.1) and is not credited.
import { describe, expect, it } from 'vitest'
import { judgeWith, messages, without } from './helpers.js'

const SRI_PAGE = (integrity: string) =>
  `<head><script src="https://cdn.example.org/lib.js"${integrity}></script></head><body>x</body>`

describe('a signal that lists a finding never scores 100', () => {
  it('missing X-Content-Type-Options is reported and costs a point after the curve', () => {
    const s = judgeWith(without('x-content-type-options'))
    expect(s.details.missing).toEqual(['x-content-type-options'])
    expect(s.findings.length).toBeGreaterThan(0)
    expect(s.score).toBeLessThan(100)
    expect(s.status).toBe('ok')
  })

  it('an https third-party script without Subresource Integrity is reported and below 100', () => {
    const s = judgeWith({}, { html: SRI_PAGE('') })
    expect(messages(s).some((m) => /integrity/i.test(m))).toBe(true)
    expect(s.score).toBeLessThan(100)
  })

  it('the same script with integrity is clean and scores 100', () => {
    const s = judgeWith({}, { html: SRI_PAGE(' integrity="sha384-abc" crossorigin="anonymous"') })
    expect(s.findings).toEqual([])
    expect(s.score).toBe(100)
  })

  it('a cookie without Secure on an HSTS site is reported and below 100', () => {
    const s = judgeWith({}, { overrides: { response: { setCookies: ['theme=dark; SameSite=Lax'] } } })
    expect(messages(s).some((m) => /Secure/.test(m))).toBe(true)
    expect(s.score).toBeLessThan(100)
  })

  it('an info-only note (HSTS sent twice) does not cost the point', () => {
    const s = judgeWith({
      'strict-transport-security': ['max-age=31536000; includeSubDomains', 'max-age=31536000'],
    })
    expect(s.findings.every((f) => f.severity === 'info')).toBe(true)
    expect(s.score).toBe(100)
  })
})

describe('CSP allowing plain http for images, media or fonts (Observatory passive content −10)', () => {
  const BASE = "default-src 'self'; object-src 'none'; frame-ancestors 'none'"
  it.each([
    ['img-src', `${BASE}; img-src 'self' http:`],
    ['media-src', `${BASE}; media-src http://media.example.org`],
    ['font-src', `${BASE}; font-src http:`],
    ['default-src', "default-src 'self' http:; script-src 'self'; object-src 'none'; frame-ancestors 'none'"],
  ])('%s with an http source on an https page is a finding', (directive, policy) => {
    const s = judgeWith({ 'content-security-policy': policy })
    const finding = s.findings.find(
      (f) => /plain http/.test(f.message) && f.message.includes('Content-Security-Policy'),
    )
    expect(finding).toBeDefined()
    expect(finding?.severity).toBe('low')
    expect(s.details.uncurvedScore).toBe(90)
    expect(s.score).toBeLessThan(100)
  })

  it('https-only image sources are not a finding', () => {
    const s = judgeWith({ 'content-security-policy': `${BASE}; img-src 'self' https: data:` })
    expect(s.findings).toEqual([])
    expect(s.score).toBe(100)
  })

  it('a plain-http page is not faulted for http image sources', () => {
    const s = judgeWith(
      { 'content-security-policy': `${BASE}; img-src http:` },
      { finalUrl: 'http://example.com/', overrides: { tls: null } },
    )
    expect(messages(s).some((m) => /images.*plain http/.test(m))).toBe(false)
  })
})

describe('HSTS over a certificate browsers refuse (RFC 6797 §8.1)', () => {
  const refused = (tls: Record<string, unknown>) => judgeWith({}, { overrides: { tls } })

  it.each([
    ['an expired certificate', { authorized: false, authorizationError: 'CERT_HAS_EXPIRED' }],
    ['a self-signed certificate', { authorized: false, authorizationError: 'DEPTH_ZERO_SELF_SIGNED_CERT' }],
    ['a name mismatch', { hostnameMatches: false }],
  ])('is ignored over %s: not credited, and the finding says why', (_name, tls) => {
    const s = refused(tls)
    expect(s.details.ignored).toContainEqual(expect.objectContaining({ header: 'strict-transport-security' }))
    expect(s.details.missing).toContain('strict-transport-security')
    expect(s.details.uncurvedScore).toBe(80)
    expect(messages(s).some((m) => /certificate/i.test(m) && /ignore/i.test(m))).toBe(true)
  })

  it('is not counted as protecting cookies either', () => {
    const s = judgeWith(
      {},
      {
        overrides: {
          tls: { authorized: false, authorizationError: 'CERT_HAS_EXPIRED' },
          response: { setCookies: ['theme=dark; SameSite=Lax'] },
        },
      },
    )
    // without HSTS a non-session cookie without Secure is −20 (not the −5 "protected by HSTS")
    expect(s.details.uncurvedScore).toBe(100 - 20 - 20)
  })
})
