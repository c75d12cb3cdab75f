// Content-Security-Policy as browsers enforce it: CSP Level 3 (several policies are all enforced;
// <meta> policies minus frame-ancestors/report-uri/sandbox; first directive wins), graded with the
// MDN HTTP Observatory's modifiers (object-src fallback, insecure schemes).
import { describe, expect, it } from 'vitest'
import { judgeWith, messages, without } from './helpers.js'

const STRICT = "default-src 'self'; object-src 'none'; base-uri 'none'"

describe('CSP in <meta http-equiv> (CSP3 §3.3, HTML http-equiv processing)', () => {
  it('counts a strict <meta> CSP in the head: not "Missing content-security-policy"', () => {
    const s = judgeWith(
      { 'content-security-policy': undefined },
      { html: `<head><meta http-equiv="Content-Security-Policy" content="${STRICT}"></head><body>x</body>` },
    )
    expect(s.details.missing).toEqual([])
    expect(s.details.csp).toEqual({ sources: ['meta'], policies: 1 })
    expect(s.score).toBe(100)
  })

  it('ignores a <meta> CSP in the body (browsers apply it only from the head)', () => {
    const s = judgeWith(
      { 'content-security-policy': undefined },
      { html: `<body><p>x</p><meta http-equiv="Content-Security-Policy" content="${STRICT}"></body>` },
    )
    expect(s.details.missing).toEqual(['content-security-policy'])
  })

  it('drops frame-ancestors from a <meta> CSP: it does not replace X-Frame-Options', () => {
    const s = judgeWith(
      { 'content-security-policy': undefined, 'x-frame-options': undefined },
      {
        html: `<head><meta http-equiv="content-security-policy" content="${STRICT}; frame-ancestors 'none'"></head>`,
      },
    )
    expect(s.details.missing).toEqual(['x-frame-options'])
  })

  it('a <meta> CSP holding only header-only directives is no CSP at all', () => {
    const s = judgeWith(
      { 'content-security-policy': undefined },
      {
        html: `<head><meta http-equiv="content-security-policy" content="frame-ancestors 'none'; sandbox"></head>`,
      },
    )
    expect(s.details.missing).toContain('content-security-policy')
  })

  it('enforces header and <meta> policies together: a weakness counts only if every policy has it', () => {
    const s = judgeWith(
      {
        'content-security-policy': "script-src * 'unsafe-inline'; object-src 'none'; frame-ancestors 'none'",
      },
      { html: `<head><meta http-equiv="content-security-policy" content="script-src 'self'"></head>` },
    )
    expect(s.details.weak).toEqual([])
    expect(s.details.csp).toEqual({ sources: ['header', 'meta'], policies: 2 })
  })
})

describe('several CSP headers (CSP3 §2.2: a comma separates enforced policies)', () => {
  it('judges the combined effect: inline blocked by one policy, any host blocked by the other', () => {
    const s = judgeWith({
      'content-security-policy': [
        "script-src 'self' 'unsafe-inline'; object-src 'none'; frame-ancestors 'none'",
        "script-src *; object-src 'none'",
      ],
    })
    expect(s.details.weak).toEqual([])
    expect(s.score).toBe(100)
  })

  it("reports 'unsafe-inline' when every policy allows inline scripts", () => {
    const s = judgeWith({
      'content-security-policy': [
        "script-src 'self' 'unsafe-inline'; object-src 'none'; frame-ancestors 'none'",
        "default-src 'unsafe-inline'",
      ],
    })
    expect(s.details.weak).toEqual([
      { header: 'content-security-policy', problem: "'unsafe-inline' in script-src without a nonce or hash" },
    ])
    expect(s.score).toBe(80)
  })
})

describe('the two missing CSP rules (Observatory csp test)', () => {
  it('no object-src and no default-src: plugins may load from anywhere (−20)', () => {
    const s = judgeWith({ 'content-security-policy': "script-src 'self'; frame-ancestors 'none'" })
    expect(s.details.weak).toEqual([
      {
        header: 'content-security-policy',
        problem:
          'neither object-src nor default-src is set, so plugins (<object>, <embed>) may load from anywhere',
      },
    ])
    expect(s.score).toBe(80)
    expect(
      judgeWith({ 'content-security-policy': "script-src 'self'; object-src 'none'; frame-ancestors 'none'" })
        .score,
    ).toBe(100)
  })

  it('http: script sources on an https page (−20), not on an http page', () => {
    const csp = "default-src 'self' http://cdn.example.net; frame-ancestors 'none'"
    const s = judgeWith({ 'content-security-policy': csp })
    expect(s.details.weak).toEqual([
      {
        header: 'content-security-policy',
        problem: 'default-src allows scripts over plain http (http://cdn.example.net) on an https page',
      },
    ])
    expect(s.score).toBe(80)
    const plain = judgeWith(
      { 'content-security-policy': csp, 'strict-transport-security': undefined },
      { finalUrl: 'http://example.com/', overrides: { tls: null } },
    )
    expect(plain.details.weak).toEqual([])
  })

  it("'strict-dynamic' with a nonce makes browsers ignore http: host sources", () => {
    const s = judgeWith({
      'content-security-policy':
        "script-src 'nonce-abc' 'strict-dynamic' http://cdn.example.net; object-src 'none'; frame-ancestors 'none'",
    })
    expect(s.details.weak).toEqual([])
  })
})

describe('a CSP that restricts nothing', () => {
  it('counts as missing when it has no directive browsers know', () => {
    const s = judgeWith({ 'content-security-policy': 'nonsense-directive foo' })
    expect(s.details.missing).toContain('content-security-policy')
    expect(s.details.ignored).toEqual([
      { header: 'content-security-policy', reason: 'no directive browsers know' },
    ])
    expect(s.score).toBe(judgeWith(without('content-security-policy')).score)
    expect(messages(s).join('\n')).toMatch(/restricts nothing/)
  })
})

describe('CSP frame-ancestors and X-Frame-Options (HTML Standard XFO processing)', () => {
  it('frame-ancestors * makes browsers skip X-Frame-Options while allowing any framing', () => {
    const s = judgeWith({
      'content-security-policy': "default-src 'self'; frame-ancestors *",
      'x-frame-options': 'DENY',
    })
    expect(s.details.missing).toEqual(['x-frame-options'])
    expect(s.score).toBe(80)
  })
})
