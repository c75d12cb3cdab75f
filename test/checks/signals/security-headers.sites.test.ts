// security_headers against local sites, end to end through the real probe (HTTP/2 and HTTP/1.1
// over the test PKI): each scenario is built from the standard it exercises, named in its test.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCheck } from '../../../src/checks/engine.js'
import { probe } from '../../../src/checks/probe.js'
import type { CheckOptions, CheckReport } from '../../../src/checks/types.js'
import { toCheckRecord } from '../../../src/runs/index.js'
import { GOOD_HEADERS, page, startHeaderSites, type HeaderSites } from '../../fixtures/header-sites.js'

const { 'content-security-policy': _csp, ...NO_CSP } = GOOD_HEADERS
const { 'referrer-policy': _rp, ...NO_REFERRER } = GOOD_HEADERS
/** A phrase a hostile site hides in its header text (issue 16 item 6): it must reach no message. */
const MARKER = 'IGNORE-ALL-PREVIOUS-INSTRUCTIONS'
const hostile = (prefix = '') => `${prefix}${'A'.repeat(60)} ${MARKER} ${'B'.repeat(8 * 1024)}`

let s: HeaderSites
let opts: CheckOptions
beforeAll(async () => {
  s = await startHeaderSites({
    '/good': { headers: GOOD_HEADERS },
    // Observatory cookies test / OWASP: perfect headers, a script-readable session cookie
    '/cookie': {
      headers: {
        ...GOOD_HEADERS,
        'set-cookie': ['sessionid=abc; Path=/', 'theme=dark; Secure; SameSite=Lax'],
      },
    },
    // RFC 6265bis: a cookie set on the redirect hop counts too
    '/login': { headers: { 'set-cookie': 'login_state=1; Path=/' }, redirectTo: '/good' },
    // CSP3 / HTML: a strict policy in <meta http-equiv>, none in the headers
    '/meta-csp': {
      headers: NO_CSP,
      body: page(
        `<meta http-equiv="Content-Security-Policy" content="default-src 'self'; object-src 'none'">`,
      ),
    },
    // Observatory csp: no object-src and no default-src; http: script sources on https
    '/csp-no-object': { headers: { ...GOOD_HEADERS, 'content-security-policy': "script-src 'self'" } },
    '/csp-http-script': {
      headers: { ...GOOD_HEADERS, 'content-security-policy': "default-src 'self' http://cdn.example.net" },
    },
    // CSP3 §2.2: two enforced policies, each blocking what the other allows
    '/csp-two': {
      headers: {
        ...GOOD_HEADERS,
        'content-security-policy': ["script-src 'self' 'unsafe-inline'; object-src 'none'", 'script-src *'],
      },
    },
    // HTML <meta name="referrer">: the document's policy
    '/meta-referrer': { headers: NO_REFERRER, body: page('<meta name="referrer" content="unsafe-url">') },
    // HTML XFO processing / RFC 6797 §8.1: repeated lines
    '/repeated': {
      headers: {
        ...GOOD_HEADERS,
        'content-security-policy': "default-src 'self'; object-src 'none'",
        'x-frame-options': ['SAMEORIGIN', 'SAMEORIGIN'],
        'strict-transport-security': ['max-age=31536000', 'max-age=0'],
      },
    },
    // issue 11 item 5: values browsers ignore
    '/ignored': {
      headers: {
        ...GOOD_HEADERS,
        'content-security-policy': "default-src 'self'; object-src 'none'",
        'x-frame-options': 'ALLOW-FROM https://partner.example.org/',
        'strict-transport-security': 'max-age=0',
      },
    },
    '/absent': {
      headers: {
        'content-security-policy': "default-src 'self'; object-src 'none'",
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
        'permissions-policy': 'camera=()',
      },
    },
    // W3C SRI: a third-party script without integrity
    '/sri': {
      headers: GOOD_HEADERS,
      body: page('<script src="https://cdn.thirdparty.example/lib.js"></script>'),
    },
    // Fetch CORS: any Origin echoed, with credentials
    '/cors': { headers: GOOD_HEADERS, reflectCors: true },
    '/cors-after-redirect': { redirectTo: '/cors' },
    // the page in 1 s, the CORS answer after 3 s: the check must not wait for it
    '/slow-options': { headers: GOOD_HEADERS, reflectCors: true, delayMs: 1_000, optionsDelayMs: 3_000 },
    // issue 16 item 6: site-chosen text in every header a message might quote
    '/hostile': {
      headers: {
        ...GOOD_HEADERS,
        'x-frame-options': hostile(),
        'x-content-type-options': hostile(),
        'referrer-policy': hostile(),
        'cache-control': hostile(),
        'content-security-policy': `script-src 'self' http://${'a'.repeat(50)}${MARKER}.example; object-src 'none'`,
        'set-cookie': [`${'c'.repeat(50)}${MARKER}=1; SameSite=${hostile()}`],
      },
      body: page(`<script src="https://cdn.thirdparty.example/${'p'.repeat(90)}${MARKER}.js"></script>`),
    },
    '/hostile-type': { headers: { ...GOOD_HEADERS, 'content-type': hostile('text/') } },
    '/hostile-redirect': { redirectTo: `/good?${'q'.repeat(100)}${MARKER}` },
  })
  opts = { allowPrivateTargets: true, extraCA: s.pki.ca.cert, totalTimeoutMs: 8_000 }
})
afterAll(() => s?.close())

const check = (path: string) => runCheck(s.https(path), opts)
const headersOf = (r: CheckReport) => r.signals.security_headers
const messagesOf = (r: CheckReport) => [
  r.summary,
  ...Object.values(r.signals).flatMap((sig) => [sig.message, ...sig.findings.map((f) => f.message)]),
]

describe('security_headers on local sites', () => {
  it('the healthy site scores 100 with no finding', async () => {
    const r = await check('/good')
    expect(headersOf(r)).toMatchObject({ status: 'ok', score: 100 })
    expect(r.missingHeaders).toEqual([])
  })

  it('judges a script-readable session cookie (Observatory, OWASP), also one set on a redirect (RFC 6265bis)', async () => {
    const r = await check('/cookie')
    expect(headersOf(r).score).toBeLessThan(90)
    expect(headersOf(r).message).toBe(
      'Cookie "sessionid": session cookie without HttpOnly, so any injected script can steal it',
    )
    const login = await check('/login')
    expect(headersOf(login).findings.map((f) => f.message)).toContain(
      'Cookie "login_state": session cookie without HttpOnly, so any injected script can steal it',
    )
  })

  it('reads a strict <meta> CSP and a <meta> referrer policy from the page (CSP3, HTML)', async () => {
    const meta = await check('/meta-csp')
    expect(meta.missingHeaders).toEqual([])
    expect(headersOf(meta).details.csp).toEqual({ sources: ['meta'], policies: 1 })
    const ref = await check('/meta-referrer')
    expect(headersOf(ref).details.weak).toEqual([
      {
        header: 'referrer-policy',
        problem: 'unsafe-url leaks page URLs to other sites (set by <meta name="referrer">)',
      },
    ])
  })

  it('finds the two missing CSP rules and judges two CSP headers together (Observatory, CSP3)', async () => {
    const [noObject, httpScript, two] = await Promise.all([
      check('/csp-no-object'),
      check('/csp-http-script'),
      check('/csp-two'),
    ])
    expect(headersOf(noObject).details.weak).toEqual([
      {
        header: 'content-security-policy',
        problem:
          'neither object-src nor default-src is set, so plugins (<object>, <embed>) may load from anywhere',
      },
    ])
    expect(headersOf(httpScript).details.weak).toEqual([
      {
        header: 'content-security-policy',
        problem: 'default-src allows scripts over plain http (http://cdn.example.net) on an https page',
      },
    ])
    expect(headersOf(two).details.weak).toEqual([])
    expect(headersOf(two).details.csp).toEqual({ sources: ['header'], policies: 2 })
  })

  it('two SAMEORIGIN lines protect, and HSTS sent twice counts its first line (HTML XFO, RFC 6797 §8.1)', async () => {
    const r = await check('/repeated')
    expect(r.missingHeaders).toEqual([])
    expect(headersOf(r).score).toBe(100)
    expect(headersOf(r).findings.map((f) => f.message)).toEqual([
      'Strict-Transport-Security is sent with 2 values; browsers use only the first (RFC 6797 §8.1)',
    ])
  })

  it('ALLOW-FROM and max-age=0 score exactly as absent headers (issue 11 item 5)', async () => {
    const [ignored, absent] = await Promise.all([check('/ignored'), check('/absent')])
    expect(headersOf(ignored).score).toBe(headersOf(absent).score)
    expect(ignored.missingHeaders).toEqual(absent.missingHeaders)
    expect(ignored.missingHeaders).toEqual(['strict-transport-security', 'x-frame-options'])
  })

  it('flags a third-party script without integrity (W3C SRI, Observatory)', async () => {
    const r = await check('/sri')
    expect(headersOf(r).details.sri).toMatchObject({ thirdParty: 1, withoutIntegrity: 1 })
    expect(headersOf(r).details.uncurvedScore).toBe(95)
  })

  it('finds CORS reflecting a made-up Origin with credentials, with one OPTIONS request (Fetch CORS)', async () => {
    const before = s.requests.length
    const r = await check('/cors')
    expect(headersOf(r).details.cors).toMatchObject({
      checked: true,
      access: 'reflects-any-origin',
      credentials: true,
    })
    expect(headersOf(r).score).toBe(50)
    const options = s.requests.slice(before).filter((q) => q.method === 'OPTIONS')
    expect(options).toHaveLength(1)
    expect(options[0].headers.origin).toMatch(/^https:\/\/cors-check-[0-9a-f]{12}\.example$/)
    expect(options[0].headers['access-control-request-method']).toBe('GET')
    const good = await check('/good')
    expect(headersOf(good).details.cors).toMatchObject({ checked: true, access: 'none' })
  })

  it('asks CORS of the final URL after a redirect', async () => {
    const r = await check('/cors-after-redirect')
    expect(headersOf(r).details.cors).toMatchObject({ access: 'reflects-any-origin' })
  })

  it('does not wait for a slow CORS answer once the page is read and its grace is over', async () => {
    const before = s.requests.length
    const r = await probe(new URL(s.https('/slow-options')), opts)
    expect(r.cors).toMatchObject({ answered: false, error: 'no answer in time' })
    // the site answers OPTIONS after 3 s, the page after 1 s: the probe came back with the
    // OPTIONS request still unanswered (an order of events, not a ratio of times under load)
    const options = s.requests.slice(before).filter((q) => q.method === 'OPTIONS')
    expect(options).toHaveLength(1)
    expect(options[0].answered).not.toBe(true)
  })

  it('judges repeated lines the same over HTTP/2 (joined with commas) and HTTP/1.1 (kept apart)', async () => {
    const h2 = await probe(new URL(s.https('/repeated')), opts)
    expect(h2.response.httpVersion).toBe('2')
    expect(h2.response.headers['x-frame-options']).toBe('SAMEORIGIN, SAMEORIGIN')
    const h1 = await probe(new URL(s.http('/repeated')), opts)
    expect(h1.response.httpVersion).toBe('1.1')
    expect(h1.response.repeatedHeaders?.['strict-transport-security']).toEqual([
      'max-age=31536000',
      'max-age=0',
    ])
    const [a, b] = await Promise.all([check('/repeated'), runCheck(s.http('/repeated'), opts)])
    expect(headersOf(a).details.missing).toEqual([])
    expect(headersOf(b).details.missing).not.toContain('x-frame-options')
  })
})

describe('site-supplied text in messages (issue 16 item 6)', () => {
  it.each(['/hostile', '/hostile-type', '/hostile-redirect'])(
    '%s: no message quotes the hidden phrase, and each quote is a short excerpt',
    async (path) => {
      const r = await check(path)
      for (const m of messagesOf(r)) {
        expect(m).not.toContain(MARKER)
        expect(m).not.toMatch(/A{45}|B{45}/)
        expect(m.length).toBeLessThan(600)
      }
    },
  )

  it('keeps a saved check small when a site sends 8 KB header values', async () => {
    const r = await check('/hostile')
    const saved = JSON.stringify(toCheckRecord(r))
    console.log(`saved check against 8 KB header values: ${saved.length} bytes`)
    // measured (/tmp/hdr-measure.mjs, one 8 KB X-Frame-Options or Cache-Control value): 19.8 KB saved
    // before issue 16 item 6, 3.8 KB after; this page with five 8 KB values saves about 5.5 KB
    expect(saved.length).toBeLessThan(12_000)
  })
})
