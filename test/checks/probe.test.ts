import net from 'node:net'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { assertTargetAllowed } from '../../src/checks/guard.js'
import { companionUrl, probe, PROBE_DEFAULTS, type ProbeOptions } from '../../src/checks/probe.js'
import { DOCS_URL } from '../../src/checks/user-agent.js'
import { PAGE_BYTES, startTargets, type Targets } from '../fixtures/targets.js'
import { failure } from './check-error.js'

// The real guard everywhere; a test can wave one call through to reach the loopback fixtures
// with the private-target block on, so what is judged next is a redirect hop.
vi.mock('../../src/checks/guard.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/checks/guard.js')>()
  return { ...real, assertTargetAllowed: vi.fn(real.assertTargetAllowed) }
})

let t: Targets
let base: ProbeOptions
const port = (url: string) => Number(new URL(url).port)

beforeAll(async () => {
  t = await startTargets({ slowMs: 700 })
  base = { allowPrivateTargets: true, extraCA: t.pki.ca.cert, totalTimeoutMs: 5_000 }
})
afterAll(() => t?.close())

describe('timings', () => {
  it('measures connect, TLS, server wait, TTFB and total in a sane order', async () => {
    const r = await probe(new URL(t.healthy), base)
    const { dnsMs, connectMs, tlsMs, serverWaitMs, ttfbMs, totalMs } = r.timings
    expect(dnsMs).toBeNull() // an IP literal needs no lookup
    expect(connectMs).toBeGreaterThanOrEqual(0)
    expect(tlsMs).toBeGreaterThan(0)
    expect(serverWaitMs).toBeGreaterThanOrEqual(0)
    expect(ttfbMs).toBeGreaterThanOrEqual(connectMs! + tlsMs! + serverWaitMs - 1)
    expect(totalMs).toBeGreaterThanOrEqual(ttfbMs)
    expect(totalMs).toBeLessThan(5_000)
    expect(Date.parse(r.startedAt)).toBeLessThanOrEqual(Date.now())
  })

  it('times the DNS lookup of a name through the guarded lookup', async () => {
    const r = await probe(new URL(t.healthy.replace('127.0.0.1', 'localhost')), base)
    expect(r.timings.dnsMs).toBeGreaterThanOrEqual(0)
    expect(r.tls?.hostnameMatches).toBe(true)
  })

  it('counts the server think time of a slow first byte', async () => {
    const r = await probe(new URL(t.slow), base)
    expect(r.timings.serverWaitMs).toBeGreaterThanOrEqual(650)
    expect(r.timings.ttfbMs).toBeGreaterThanOrEqual(r.timings.serverWaitMs)
  })
})

describe('the response', () => {
  it('records HTTP/2 when ALPN negotiates it, HTTP/1.1 otherwise', async () => {
    expect((await probe(new URL(t.healthy), base)).response.httpVersion).toBe('2')
    expect((await probe(new URL(t.plainHttp), base)).response.httpVersion).toBe('1.1')
    expect((await probe(new URL(t.expired), base)).response.httpVersion).toBe('1.1')
  })

  it('counts gzip bytes on the wire and decoded bytes apart', async () => {
    const { response } = await probe(new URL(t.healthy), base)
    expect(response.contentEncoding).toBe('gzip')
    expect(response.bodyBytesWire).toBe(PAGE_BYTES.healthyGzip)
    expect(response.bodyBytesDecoded).toBe(PAGE_BYTES.healthy)
    expect(response.bodyTruncated).toBe(false)
  })

  it('keeps lowercase headers and a non-HTML content type', async () => {
    const { response } = await probe(new URL(t.json), base)
    expect(response.contentType).toBe('application/json')
    expect(response.headers['x-content-type-options']).toBe('nosniff')
    expect(response.setCookies).toEqual([])
  })

  it('reads a large page whole under the default cap', async () => {
    const { response } = await probe(new URL(t.large), base)
    expect(response.contentEncoding).toBeNull()
    expect(response.bodyBytesDecoded).toBe(PAGE_BYTES.large)
    expect(response.bodyTruncated).toBe(false)
  })

  it('stops reading at the cap of decoded bytes', async () => {
    const large = await probe(new URL(t.large), { ...base, maxBodyBytes: 100_000 })
    expect(large.response.bodyBytesDecoded).toBe(100_000)
    expect(large.response.bodyTruncated).toBe(true)
    expect(large.response.bodyBytesWire).toBeLessThan(PAGE_BYTES.large)

    const gzip = await probe(new URL(t.healthy), { ...base, maxBodyBytes: 1_000 })
    expect(gzip.response.bodyBytesDecoded).toBe(1_000)
    expect(gzip.response.bodyTruncated).toBe(true)
  })

  it('sends the sitehealth User-Agent, Accept and Accept-Encoding, or the given User-Agent', async () => {
    const path = `/json?ua=${Date.now()}`
    await probe(new URL(path, t.httpsOrigin), base)
    await probe(new URL(path + '-own', t.httpsOrigin), { ...base, userAgent: 'my-bot/2' })
    const seen = t.requests.filter((r) => r.url.includes(path) && r.method === 'GET')
    expect(seen[0].headers['user-agent']).toBe(`sitehealth/1.0.0 (+${DOCS_URL})`)
    expect(seen[0].headers.accept).toBe('text/html,*/*;q=0.8')
    expect(seen[0].headers['accept-encoding']).toBe('gzip, deflate, br')
    expect(seen[1].headers['user-agent']).toBe('my-bot/2')
  })

  it('returns a 500 as a result, not an error', async () => {
    const r = await probe(new URL(t.serverError), base)
    expect(r.response.status).toBe(500)
  })
})

describe('the page', () => {
  it('reads the decoded HTML of the final response (gzip undone) into page', async () => {
    const r = await probe(new URL(t.redirectChain), base)
    expect(r.page).not.toBeNull()
    expect(r.page!.baseUrl).toBe(r.finalUrl)
    expect(r.page!.bytesParsed).toBe(PAGE_BYTES.healthy)
    expect(r.page!.truncated).toBe(false)
    expect(r.page!.textChars).toBeGreaterThan(1_000)
  })

  it('reads no page for a non-HTML response', async () => {
    expect((await probe(new URL(t.json), base)).page).toBeNull()
  })

  it('keeps at most the HTML cap (512 KiB by default) while still counting the whole body', async () => {
    const r = await probe(new URL(t.large), base)
    expect(PAGE_BYTES.large).toBeGreaterThan(PROBE_DEFAULTS.maxHtmlBytes)
    expect(r.page!.bytesParsed).toBeLessThanOrEqual(PROBE_DEFAULTS.maxHtmlBytes)
    expect(r.page!.bytesParsed).toBeGreaterThan(PROBE_DEFAULTS.maxHtmlBytes - 4)
    expect(r.page!.truncated).toBe(true)
    expect(r.response.bodyBytesDecoded).toBe(PAGE_BYTES.large)

    const small = await probe(new URL(t.healthy), { ...base, maxHtmlBytes: 300 })
    expect(small.page!.bytesParsed).toBeLessThanOrEqual(300)
    expect(small.page!.truncated).toBe(true)
    expect(small.response.bodyBytesDecoded).toBe(PAGE_BYTES.healthy)
  })
})

describe('redirects', () => {
  it('follows a chain within the cap and lands on the final response', async () => {
    const r = await probe(new URL(t.redirectChain), base)
    expect(r.redirects.map((h) => [h.status, h.location])).toEqual([
      [302, '/redirect/2'],
      [302, '/redirect/1'],
      [302, '/redirect/0'],
    ])
    expect(r.redirects[0].url).toBe(t.redirectChain)
    expect(r.finalUrl).toBe(`${t.httpsOrigin}/redirect/0`)
    expect(r.response.status).toBe(200)
    expect(r.redirectLimitExceeded).toBe(false)
    // TTFB runs from the check's start, hops included
    expect(r.timings.ttfbMs).toBeGreaterThan(r.timings.serverWaitMs)
  })

  it('stops after five hops and returns the last 3xx', async () => {
    const r = await probe(new URL(t.redirectTooLong), base)
    expect(r.redirects).toHaveLength(5)
    expect(r.redirectLimitExceeded).toBe(true)
    expect(r.response.status).toBe(302)
    expect(r.finalUrl).toBe(`${t.httpsOrigin}/redirect/2`)
  })
})

describe('TLS states', () => {
  const cases = [
    ['healthy', true, null, true],
    ['expiringSoon', true, null, true],
    ['expired', false, 'CERT_HAS_EXPIRED', true],
    ['notYetValid', false, 'CERT_NOT_YET_VALID', true],
    ['selfSigned', false, 'DEPTH_ZERO_SELF_SIGNED_CERT', true],
    ['wrongHost', false, 'ERR_TLS_CERT_ALTNAME_INVALID', false],
  ] as const

  it.each(cases)('%s: authorized %s, %s, hostname matches %s', async (name, authorized, error, matches) => {
    const r = await probe(new URL(t[name]), base)
    expect(r.response.status).toBe(200) // a bad certificate is a finding, not a failure
    expect(r.tls).toMatchObject({ authorized, authorizationError: error, hostnameMatches: matches })
    expect(r.tls?.protocol).toMatch(/^TLSv1\.[23]$/)
    expect(r.tls?.certificate?.fingerprint256).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/)
  })

  it('reads the leaf: names, issuer, dates, self-signed', async () => {
    const days = async (name: 'expired' | 'expiringSoon' | 'notYetValid') => {
      const r = await probe(new URL(t[name]), base)
      return (Date.parse(r.tls!.certificate!.validTo) - Date.parse(r.startedAt)) / 86_400_000
    }
    expect(await days('expired')).toBeCloseTo(-10, 0)
    expect(Math.floor(await days('expiringSoon'))).toBe(5)
    expect(await days('notYetValid')).toBeGreaterThan(90)

    const healthy = (await probe(new URL(t.healthy), base)).tls!.certificate!
    expect(healthy).toMatchObject({
      subject: 'localhost',
      issuer: 'sitehealth Test CA',
      subjectAltNames: ['localhost', '127.0.0.1', '::1'],
      selfSigned: false,
    })
    expect((await probe(new URL(t.selfSigned), base)).tls!.certificate!.selfSigned).toBe(true)
    expect((await probe(new URL(t.wrongHost), base)).tls!.certificate!.subjectAltNames).toEqual([
      'wrong.example',
    ])
  })

  it('trusts only Node’s store when no extra CA is given', async () => {
    const r = await probe(new URL(t.healthy), { ...base, extraCA: undefined })
    expect(r.tls?.authorized).toBe(false)
    expect(r.tls?.authorizationError).toBe('UNABLE_TO_VERIFY_LEAF_SIGNATURE')
  })
})

describe('the companion request', () => {
  it('is skipped off the default port, where the other scheme’s port is unknown', async () => {
    const r = await probe(new URL(t.healthy), base)
    expect(r.alternate).toMatchObject({ kind: 'http_to_https', attempted: false, ok: false })
  })

  it('sees plain http redirect to https', async () => {
    const yes = await probe(new URL('/to-https', t.httpsOrigin), {
      ...base,
      alternatePort: port(t.plainHttp),
    })
    expect(yes.alternate).toMatchObject({ kind: 'http_to_https', attempted: true, ok: true, status: 301 })
    expect(yes.alternate?.location).toBe(t.healthy)
    const no = await probe(new URL(t.healthy), { ...base, alternatePort: port(t.plainHttp) })
    expect(no.alternate).toMatchObject({ attempted: true, ok: false, status: 200 })
  })

  it('sees https offered for an http site, with its TLS', async () => {
    const r = await probe(new URL(t.plainHttp), { ...base, alternatePort: port(t.healthy) })
    expect(r.alternate).toMatchObject({ kind: 'https_offered', attempted: true, ok: true, status: 200 })
    expect(r.alternate?.tls?.authorized).toBe(true)
  })

  // issue 11 item 7: the companion scheme on the matching port (IANA 80/443 and http-alt/https-alt 8080/8443)
  it.each([
    ['https://example.com/', 'http://example.com/'],
    ['http://example.com/a?b', 'https://example.com/a?b'],
    ['https://example.com:8443/', 'http://example.com:8080/'],
    ['http://example.com:8080/x', 'https://example.com:8443/x'],
    ['https://example.com:9443/', null],
    ['http://example.com:3000/', null],
  ])('the companion of %s is %s', (url, expected) => {
    expect(companionUrl(new URL(url))?.href ?? null).toBe(expected)
  })

  it('takes alternatePort over the pairs, on any port', () => {
    expect(companionUrl(new URL('https://example.com:9443/'), 9080)?.href).toBe('http://example.com:9080/')
  })

  it('says which URL it would have asked when it was skipped', async () => {
    const r = await probe(new URL(t.healthy), base)
    expect(r.alternate?.url).toBe(t.healthy.replace(/^https:\/\/([^:/]+):\d+/, 'http://$1'))
  })

  it('never fails the check when it fails', async () => {
    const r = await probe(new URL(t.plainHttp), { ...base, alternatePort: port(t.closedPort) })
    expect(r.response.status).toBe(200)
    expect(r.alternate).toMatchObject({ attempted: true, ok: false })
    expect(r.alternate?.error).toMatch(/connection refused/)
  })
})

describe('the CORS request', () => {
  it('sends one OPTIONS with a made-up Origin, once the page is read', async () => {
    const before = t.requests.length
    const r = await probe(new URL(t.healthy), base)
    const options = t.requests.slice(before).filter((q) => q.method === 'OPTIONS')
    expect(options).toHaveLength(1)
    expect(options[0].url).toBe(r.finalUrl)
    expect(options[0].headers.origin).toBe(r.cors?.origin)
    expect(options[0].headers['access-control-request-method']).toBe('GET')
    expect(r.cors).toMatchObject({ url: r.finalUrl, answered: true, status: 200, allowOrigin: null })
  })

  it('asks the final URL after redirects (the first answer would be the redirect’s)', async () => {
    const before = t.requests.length
    const r = await probe(new URL(t.redirectChain), base)
    const options = t.requests.slice(before).filter((q) => q.method === 'OPTIONS')
    expect(options.at(-1)?.url).toBe(r.finalUrl)
    expect(options.length).toBeLessThanOrEqual(2)
    expect(r.cors).toMatchObject({ url: r.finalUrl, answered: true })
  })

  it('uses a new random Origin for every check', async () => {
    const [a, b] = await Promise.all([probe(new URL(t.healthy), base), probe(new URL(t.healthy), base)])
    expect(a.cors?.origin).not.toBe(b.cors?.origin)
  })

  it('is not sent for a redirect past the cap', async () => {
    const r = await probe(new URL(t.redirectTooLong), base)
    expect(r.cors).toBeNull()
  })
})

describe('blocked targets', () => {
  it('refuses a loopback literal before connecting', async () => {
    const before = t.requests.length
    const err = await failure(probe(new URL(t.plainHttp), { ...base, allowPrivateTargets: false }))
    expect(err.code).toBe('invalid_url')
    expect(t.requests.length).toBe(before)
  })

  it.each([
    ['redirectToMetadata', '169.254.169.254'],
    ['redirectToLoopbackV6', '[::1]'],
  ] as const)('refuses a redirect hop to a blocked address (%s)', async (name, host) => {
    // wave the fixture itself through, so the hop is what the real guard judges
    vi.mocked(assertTargetAllowed).mockImplementationOnce(() => {})
    const err = await failure(probe(new URL(t[name]), { ...base, allowPrivateTargets: false }))
    expect(err.code).toBe('invalid_url')
    expect(err.message).toContain(host)
  })

  it('refuses a name whose DNS answer is private, at connect time (DNS rebinding)', async () => {
    const resolver = stubResolver({ 'rebind.test': ['8.8.8.8', '127.0.0.1'] })
    const url = new URL(`http://rebind.test:${port(t.plainHttp)}/`)
    const err = await failure(probe(url, { ...base, allowPrivateTargets: false, resolver }))
    expect(err.code).toBe('invalid_url')
    expect(err.message).toContain('rebind.test')
  })

  it('does not tell the caller which address a blocked name resolves to (only the log gets it)', async () => {
    const resolver = stubResolver({ vm: ['10.1.2.3'], 'db.internal': ['127.0.0.1'] })
    for (const [host, address] of [
      ['vm', '10.1.2.3'],
      ['db.internal', '127.0.0.1'],
    ]) {
      const url = new URL(`http://${host}:${port(t.plainHttp)}/`)
      const err = await failure(probe(url, { ...base, allowPrivateTargets: false, resolver }))
      expect(err.code).toBe('invalid_url')
      expect(err.message).toBe(`Blocked for safety: ${host} resolves to a private or local address`)
      expect(err.message).not.toMatch(/loopback|\d+\.\d+\.\d+/)
      expect(err.detail).toContain(address)
    }
  })

  it('connects through the same lookup when private targets are allowed', async () => {
    const resolver = stubResolver({ 'site.test': ['127.0.0.1'] })
    const r = await probe(new URL(`http://site.test:${port(t.plainHttp)}/`), { ...base, resolver })
    expect(r.response.status).toBe(200)
    expect(r.timings.dnsMs).toBeGreaterThanOrEqual(0)
  })
})

describe('failures', () => {
  it('reports a refused connection', async () => {
    const err = await failure(probe(new URL(t.closedPort), base))
    expect(err.code).toBe('check_failed')
    expect(err.message).toMatch(/^Could not connect to 127\.0\.0\.1:\d+: connection refused$/)
  })

  it('gives up on a server that never answers within the budget', async () => {
    const started = Date.now()
    const err = await failure(probe(new URL(t.neverAnswers), { ...base, totalTimeoutMs: 800 }))
    expect(err.code).toBe('check_failed')
    expect(err.message).toBe('No answer from 127.0.0.1 within 0.8 s')
    expect(Date.now() - started).toBeLessThan(2_000)
  })

  it('keeps the budget while reading the body, and returns what arrived', async () => {
    const started = Date.now()
    const r = await probe(new URL(t.slowBody), { ...base, totalTimeoutMs: 800 })
    expect(Date.now() - started).toBeLessThan(2_000)
    expect(r.response.status).toBe(200)
    expect(r.response.bodyTruncated).toBe(true)
    expect(r.response.bodyBytesDecoded).toBe(Math.floor(PAGE_BYTES.healthy / 2))
  })

  it('reports a TLS handshake that cannot happen', async () => {
    const url = new URL(t.plainHttp.replace('http:', 'https:'))
    const err = await failure(probe(url, base))
    expect(err.code).toBe('check_failed')
    expect(err.message).toMatch(
      /^127\.0\.0\.1:\d+ does not speak TLS: it answered the handshake with something else, most likely plain HTTP/,
    )
  })

  it('reports a name that does not resolve', async () => {
    const resolver = stubResolver({})
    const err = await failure(probe(new URL('http://nowhere.test/'), { ...base, resolver }))
    expect(err.code).toBe('check_failed')
    expect(err.message).toBe('Could not resolve nowhere.test: no such host')
  })

  it.each([
    ['an SSH banner', 'SSH-2.0-OpenSSH_9.2\r\n'],
    ['an invalid status line', 'HTTP/1.1 abc OK\r\n\r\n'],
    ['a control character in a header', 'HTTP/1.1 200 OK\r\nX: a\x01b\r\nContent-Length: 0\r\n\r\n'],
    ['bare LF line ends', 'HTTP/1.1 200 OK\nContent-Length: 0\n\n'],
  ])('maps undici’s code-less parser error for %s to one clear sentence', async (_name, reply) => {
    const server = net.createServer((s) => {
      s.on('error', () => {})
      s.once('data', () => s.end(reply))
    })
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    try {
      const where = `127.0.0.1:${(server.address() as net.AddressInfo).port}`
      const err = await failure(probe(new URL(`http://${where}/`), base))
      expect(err.code).toBe('check_failed')
      expect(err.message).toBe(`${where} did not answer with valid HTTP`)
      expect(err.detail).toMatch(/HTTPParserError/)
    } finally {
      server.close()
    }
  })

  it('honours the caller’s signal', async () => {
    const controller = new AbortController()
    setTimeout(() => controller.abort(), 100)
    const err = await failure(probe(new URL(t.slow), { ...base, signal: controller.signal }))
    expect(err.code).toBe('check_failed')
    expect(err.message).toMatch(/cancelled/)
  })
})

/** A resolver answering from a table; an unknown name is ENOTFOUND, as getaddrinfo says it. */
function stubResolver(table: Record<string, string[]>): NonNullable<ProbeOptions['resolver']> {
  return ((hostname: string) => {
    const addresses = table[hostname]
    if (!addresses) {
      return Promise.reject(
        Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), {
          code: 'ENOTFOUND',
          syscall: 'getaddrinfo',
          hostname,
        }),
      )
    }
    return Promise.resolve(addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })))
  }) as unknown as NonNullable<ProbeOptions['resolver']>
}
