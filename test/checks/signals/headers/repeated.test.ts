// Repeated and combined headers judged as browsers act on them: RFC 6797 §8.1 (only the first
// HSTS line), HTML Standard X-Frame-Options processing (a set of values), Fetch "determine nosniff"
// (the first value), W3C Referrer Policy §8.1 and HTML <meta name="referrer"> (the last valid wins).
import { describe, expect, it } from 'vitest'
import { judgeWith, messages, without } from './helpers.js'

describe('Strict-Transport-Security sent twice (RFC 6797 §8.1)', () => {
  it('protects when the first line is good, and says browsers use the first', () => {
    const s = judgeWith({ 'strict-transport-security': ['max-age=31536000; includeSubDomains', 'max-age=0'] })
    expect(s.details.weak).toEqual([])
    expect(s.details.ignored).toEqual([])
    expect(s.score).toBe(100)
    expect(messages(s)).toContain(
      'Strict-Transport-Security is sent with 2 values; browsers use only the first (RFC 6797 §8.1)',
    )
    expect(s.message).not.toMatch(/ignore/)
  })

  it('is ignored when the first line is max-age=0, whatever follows', () => {
    const s = judgeWith({ 'strict-transport-security': ['max-age=0', 'max-age=31536000'] })
    expect(s.details.missing).toEqual(['strict-transport-security'])
    expect(s.score).toBe(judgeWith(without('strict-transport-security')).score)
  })

  it('accepts a quoted max-age and directive names in any case (§6.1)', () => {
    expect(judgeWith({ 'strict-transport-security': 'Max-Age="31536000"; INCLUDESUBDOMAINS' }).score).toBe(
      100,
    )
  })
})

describe('X-Frame-Options on several lines (HTML Standard)', () => {
  it('two identical SAMEORIGIN lines protect (+5, no finding)', () => {
    const s = judgeWith({
      'content-security-policy': "default-src 'self'",
      'x-frame-options': ['SAMEORIGIN', 'sameorigin'],
    })
    expect(s.details.missing).toEqual([])
    expect(s.details.ignored).toEqual([])
    expect(s.findings).toEqual([])
    expect(s.score).toBe(100)
  })

  it('conflicting DENY and SAMEORIGIN lines make browsers refuse all framing: protected', () => {
    const s = judgeWith({
      'content-security-policy': "default-src 'self'",
      'x-frame-options': ['DENY', 'SAMEORIGIN'],
    })
    expect(s.details.missing).toEqual([])
    expect(s.score).toBe(100)
  })

  it('two unknown values protect nothing', () => {
    const s = judgeWith({
      'content-security-policy': "default-src 'self'",
      'x-frame-options': ['ALLOW-FROM a', 'ALLOW-FROM b'],
    })
    expect(s.details.missing).toEqual(['x-frame-options'])
  })
})

describe('X-Content-Type-Options (Fetch "determine nosniff": the first value)', () => {
  it('nosniff first protects; nosniff second does not', () => {
    expect(judgeWith({ 'x-content-type-options': ['nosniff', 'foo'] }).details.missing).toEqual([])
    expect(judgeWith({ 'x-content-type-options': 'foo, nosniff' }).details.missing).toEqual([
      'x-content-type-options',
    ])
  })
})

describe('Referrer-Policy with <meta name="referrer"> (W3C Referrer Policy, HTML Standard)', () => {
  const page = (...contents: string[]) =>
    `<head>${contents.map((c) => `<meta name="referrer" content="${c}">`).join('')}</head><body>x</body>`

  it('a <meta name="referrer" content="unsafe-url"> leaks URLs even without the header', () => {
    const s = judgeWith({ 'referrer-policy': undefined }, { html: page('unsafe-url') })
    expect(s.details.weak).toEqual([
      {
        header: 'referrer-policy',
        problem: 'unsafe-url leaks page URLs to other sites (set by <meta name="referrer">)',
      },
    ])
    expect(s.details.referrerPolicy).toEqual({ policy: 'unsafe-url', from: 'meta' })
    expect(s.score).toBe(89)
  })

  it('the meta policy replaces the header, and the last valid meta wins', () => {
    expect(
      judgeWith({ 'referrer-policy': 'no-referrer' }, { html: page('unsafe-url') }).details.referrerPolicy,
    ).toEqual({
      policy: 'unsafe-url',
      from: 'meta',
    })
    expect(
      judgeWith({ 'referrer-policy': 'unsafe-url' }, { html: page('unsafe-url', 'bogus', 'no-referrer') })
        .details.weak,
    ).toEqual([])
  })

  it('maps the legacy meta keywords (never → no-referrer, always → unsafe-url)', () => {
    expect(
      judgeWith({ 'referrer-policy': undefined }, { html: page('never') }).details.referrerPolicy,
    ).toEqual({
      policy: 'no-referrer',
      from: 'meta',
    })
    expect(judgeWith({ 'referrer-policy': undefined }, { html: page('always') }).details.weak).toHaveLength(1)
  })
})
