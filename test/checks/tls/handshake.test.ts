/**
 * The TLS part of issue 11 against live local servers (Node tls at OpenSSL security level 0 where a
 * weak setting needs it): what the probe reads from the handshake, the legacy-protocol retry, the
 * scan of extra handshakes, and the https_ssl verdict on each. Certificates are made at test time.
 */
import type { AddressInfo } from 'node:net'
import http from 'node:http'
import https from 'node:https'
import net from 'node:net'
import type { SecureContextOptions, TlsOptions } from 'node:tls'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCheck } from '../../../src/checks/engine.js'
import { probe, type ProbeOptions } from '../../../src/checks/probe.js'
import { httpsSsl } from '../../../src/checks/signals/https-ssl.js'
import { makeTestPki, type TestPki } from '../../fixtures/certs.js'
import { makeWeakPki, type WeakPki } from '../../fixtures/tls-certs.js'

let pki: TestPki
let weak: WeakPki
let base: ProbeOptions
const servers: net.Server[] = []

/** An https server answering 200 on every path, with the given TLS settings; resolves to its URL. */
async function serve(options: TlsOptions & SecureContextOptions, onServer?: (s: https.Server) => void) {
  const server = https.createServer({ cert: pki.valid.cert, key: pki.valid.key, ...options }, (_req, res) =>
    res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'),
  )
  server.on('tlsClientError', () => {})
  onServer?.(server)
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `https://127.0.0.1:${(server.address() as AddressInfo).port}/`
}

async function check(url: string, opts: Partial<ProbeOptions> = {}) {
  const result = await probe(new URL(url), { ...base, ...opts })
  return { result, signal: httpsSsl(result, new Date(result.startedAt)) }
}

beforeAll(async () => {
  pki = await makeTestPki()
  weak = await makeWeakPki()
  base = { allowPrivateTargets: true, extraCA: pki.ca.cert, totalTimeoutMs: 8_000 }
}, 60_000)

afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))))
})

const SECLEVEL0 = 'DEFAULT:@SECLEVEL=0'

describe('legacy protocols (RFC 8996; SSL Labs: no TLS 1.2 → C, TLS 1.0/1.1 supported → B)', () => {
  it.each(['TLSv1', 'TLSv1.1'] as const)(
    'judges a %s-only server instead of failing the check: one retry with legacy protocols, needs review',
    async (version) => {
      const url = await serve({ minVersion: version, maxVersion: version, ciphers: SECLEVEL0 })
      const { result, signal } = await check(url)
      expect(result.response.status).toBe(200)
      expect(result.tls).toMatchObject({ protocol: version, legacyFallback: true, authorized: true })
      expect(signal).toMatchObject({ status: 'needs_review', score: 25 })
      expect(signal.message).toMatch(
        new RegExp(`^127\\.0\\.0\\.1:\\d+ speaks only ${version}: it refused TLS 1\\.2 and 1\\.3`),
      )
    },
  )

  it('gives a whole check result for a TLS 1.0-only site (was check_failed): high risk, the TLS finding first', async () => {
    const url = await serve({ minVersion: 'TLSv1', maxVersion: 'TLSv1', ciphers: SECLEVEL0 })
    const report = await runCheck(url, base)
    expect(report.signals.reachability.status).toBe('ok')
    expect(report.signals.https_ssl.status).toBe('needs_review')
    expect(report.riskLevel).toBe('high')
    expect(report.summary).toMatch(/speaks only TLSv1: it refused TLS 1\.2 and 1\.3/)
  })

  it('never lowers the floor for a server that speaks TLS 1.2+: the main handshake stays modern', async () => {
    const url = await serve({ minVersion: 'TLSv1', ciphers: SECLEVEL0 })
    const { result, signal } = await check(url)
    expect(result.tls).toMatchObject({ protocol: 'TLSv1.3', legacyFallback: false })
    // the scan is what sees TLS 1.0 and 1.1 accepted beside it
    expect(result.tlsScan?.attempts.map((a) => [a.kind, a.outcome])).toEqual([
      ['TLSv1', 'accepted'],
      ['TLSv1.1', 'accepted'],
      ['NULL', 'refused'],
      ['anonymous', 'refused'],
    ])
    expect(signal).toMatchObject({ status: 'warning', score: 70 })
    expect(signal.message).toMatch(/also accepts TLS 1\.0 and TLS 1\.1 beside TLSv1\.3/)
  })

  it('finds nothing to report on a modern server: every extra handshake refused', async () => {
    const { result, signal } = await check(await serve({}))
    expect(result.tlsScan?.attempts.every((a) => a.outcome === 'refused')).toBe(true)
    expect(signal).toMatchObject({ status: 'ok', score: 100 })
    expect(signal.details.accepts).toEqual({
      tls1_0: false,
      tls1_1: false,
      nullCiphers: false,
      anonymousCiphers: false,
    })
  })

  it('runs no scan when told not to', async () => {
    const { result } = await check(await serve({}), { tlsScan: false })
    expect(result.tlsScan).toBeNull()
  })
})

describe('cipher suites offered beside good ones (SSL Labs rating guide: 0 % → F; testssl.sh)', () => {
  it('sees NULL suites accepted', async () => {
    const url = await serve({ ciphers: 'ECDHE-RSA-AES128-GCM-SHA256:NULL-SHA256:@SECLEVEL=0' })
    const { result, signal } = await check(url)
    expect(result.tls?.keyExchange).toBe('ECDHE')
    expect(result.tlsScan?.attempts.find((a) => a.kind === 'NULL')).toMatchObject({
      outcome: 'accepted',
      cipher: 'TLS_RSA_WITH_NULL_SHA256',
    })
    expect(signal).toMatchObject({ status: 'needs_review', score: 0 })
    expect(signal.message).toMatch(
      /accepts cipher suites without encryption \(TLS_RSA_WITH_NULL_SHA256 was accepted\)/,
    )
  })

  it('sees anonymous suites accepted', async () => {
    const url = await serve({ ciphers: 'ECDHE-RSA-AES128-GCM-SHA256:AECDH-AES128-SHA:@SECLEVEL=0' })
    const { result, signal } = await check(url)
    expect(result.tlsScan?.attempts.find((a) => a.kind === 'anonymous')).toMatchObject({
      outcome: 'accepted',
    })
    expect(signal).toMatchObject({ status: 'needs_review', score: 0 })
    expect(signal.message).toMatch(
      /accepts anonymous cipher suites \(TLS_ECDH_anon_WITH_AES_128_CBC_SHA was accepted\)/,
    )
  })
})

describe('key exchange (SSL Labs caps; Mozilla Server Side TLS)', () => {
  it('sees plain RSA key exchange: no forward secrecy', async () => {
    const url = await serve({ maxVersion: 'TLSv1.2', ciphers: 'AES128-GCM-SHA256' })
    const { result, signal } = await check(url)
    expect(result.tls).toMatchObject({
      protocol: 'TLSv1.2',
      cipher: 'TLS_RSA_WITH_AES_128_GCM_SHA256',
      keyExchange: 'RSA',
      ephemeralKey: null,
    })
    expect(signal).toMatchObject({ status: 'warning', score: 70 })
    expect(signal.details.forwardSecrecy).toBe(false)
  })

  it('sees 1024-bit ephemeral Diffie-Hellman (Logjam)', async () => {
    const url = await serve({
      maxVersion: 'TLSv1.2',
      ciphers: 'DHE-RSA-AES128-GCM-SHA256:@SECLEVEL=0',
      dhparam: weak.dh1024,
    })
    const { result, signal } = await check(url)
    expect(result.tls).toMatchObject({ keyExchange: 'DHE', ephemeralKey: { type: 'DH', bits: 1024 } })
    expect(signal).toMatchObject({ status: 'warning', score: 70 })
    expect(signal.message).toMatch(/uses 1024-bit Diffie-Hellman parameters/)
  })
})

describe('the certificate (CA/B Forum BRs; RFC 6125; RFC 7633)', () => {
  it('reads a 1024-bit RSA key (BRs §6.1.5 require 2048)', async () => {
    const { result, signal } = await check(await serve({ ...weak.rsa1024, ciphers: SECLEVEL0 }))
    expect(result.tls?.certificate).toMatchObject({ keyType: 'rsa', keyBits: 1024 })
    expect(signal).toMatchObject({ status: 'warning', score: 70 })
    expect(signal.message).toMatch(/has a 1024-bit RSA key/)
  })

  it('names a SHA-1 signature (what OpenSSL reports as UNSPECIFIED)', async () => {
    const { result, signal } = await check(await serve({ ...weak.sha1, ciphers: SECLEVEL0 }))
    expect(result.tls?.authorizationError).toBe('UNSPECIFIED')
    expect(result.tls?.certificate).toMatchObject({
      signatureAlgorithm: 'sha1WithRSAEncryption',
      signatureHash: 'SHA-1',
    })
    expect(signal).toMatchObject({ status: 'needs_review', score: 0 })
    expect(signal.message).toMatch(/is signed with SHA-1 \(sha1WithRSAEncryption\)/)
  })

  it('rejects a certificate without subjectAltName although Node matches its Common Name', async () => {
    const { result, signal } = await check((await serve(weak.noSan)).replace('127.0.0.1', 'localhost'), {
      resolver: async () => [{ address: '127.0.0.1', family: 4 }],
    })
    expect(result.tls).toMatchObject({ hostnameMatches: true, certificate: { hasSubjectAltName: false } })
    expect(signal).toMatchObject({ status: 'needs_review', score: 0 })
    expect(signal.message).toMatch(/^Certificate for localhost has no subjectAltName/)
  })

  it('sees a must-staple certificate served without a staple, and accepts it with one', async () => {
    const without = await check(await serve(weak.mustStaple))
    expect(without.result.tls).toMatchObject({ ocspStapled: false, certificate: { mustStaple: true } })
    expect(without.signal).toMatchObject({ status: 'needs_review', score: 25 })
    expect(without.signal.message).toMatch(/demands a stapled OCSP response \(OCSP Must-Staple, RFC 7633\)/)

    // the staple's content is not verified (it is the CA's signed answer; we only see that one came)
    const stapled = await check(
      await serve(weak.mustStaple, (s) =>
        s.on('OCSPRequest', (_c, _i, cb) => cb(null, Buffer.from('stapled'))),
      ),
    )
    expect(stapled.result.tls?.ocspStapled).toBe(true)
    expect(stapled.signal).toMatchObject({ status: 'ok', score: 100 })
  })

  it('says the intermediate is missing when the server sends only the leaf', async () => {
    const { result, signal } = await check(
      await serve({ cert: weak.viaIntermediate.cert, key: weak.viaIntermediate.key }),
    )
    expect(result.tls).toMatchObject({
      authorizationError: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
      certificate: { issuerMissing: true },
    })
    expect(signal.message).toMatch(
      /^Certificate for 127\.0\.0\.1 comes without the certificate of its issuer sitehealth Test Intermediate/,
    )
    // and the full chain verifies
    const full = await check(
      await serve({
        cert: weak.viaIntermediate.cert + weak.viaIntermediate.intermediate,
        key: weak.viaIntermediate.key,
      }),
    )
    expect(full.result.tls).toMatchObject({ authorized: true, certificate: { issuerMissing: false } })
  })

  it('warns at the renewal point of a 47-day certificate (15 days left)', async () => {
    const { signal } = await check(await serve(weak.renewalDue))
    expect(signal).toMatchObject({ status: 'warning', score: 70 })
    expect(signal.message).toMatch(/under a third of its 47-day lifetime, past the usual renewal point/)
  })
})

describe('a port that answers plain HTTP on https', () => {
  it('says so instead of "wrong version number"', async () => {
    const server = net.createServer((socket) =>
      socket.once('data', () => socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n')),
    )
    servers.push(server)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const port = (server.address() as AddressInfo).port
    const err = await probe(new URL(`https://127.0.0.1:${port}/`), base).catch((e: Error) => e)
    expect(err).toBeInstanceOf(Error)
    expect((err as Error).message).toBe(
      `127.0.0.1:${port} does not speak TLS: it answered the handshake with something else, most likely plain HTTP; ` +
        `check http://127.0.0.1:${port}/ instead, or enable TLS on that port`,
    )
  })
})

describe('what a check costs the server (connections)', () => {
  it("asks CORS on the page's own connection: one for the page, one per scan handshake, no more", async () => {
    let connections = 0
    const url = await serve({}, (server) => server.on('connection', () => connections++))
    const { result } = await check(url)
    expect(result.cors).toMatchObject({ answered: true })
    expect(result.tlsScan?.attempts).toHaveLength(4)
    expect(connections).toBe(1 + 2) // the scan pairs its four questions into two handshakes
  })

  it('scans no handshakes for a page that stays on plain http, though its https companion answers', async () => {
    let connections = 0
    const https = await serve({}, (server) => server.on('connection', () => connections++))
    const plain = http.createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'),
    )
    servers.push(plain)
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve))
    const result = await probe(new URL(`http://127.0.0.1:${(plain.address() as AddressInfo).port}/`), {
      ...base,
      alternatePort: Number(new URL(https).port),
    })
    expect(result.alternate).toMatchObject({ kind: 'https_offered', ok: true })
    expect(result.tlsScan).toBeNull()
    expect(connections).toBe(1) // the companion request alone
  })

  it('scans the https origin a redirect from plain http reaches', async () => {
    const https = await serve({})
    const plain = http.createServer((_req, res) => res.writeHead(301, { location: https }).end())
    servers.push(plain)
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve))
    const { result } = await check(`http://127.0.0.1:${(plain.address() as AddressInfo).port}/`)
    expect(result.finalUrl).toBe(https)
    expect(result.tlsScan?.origin).toBe(https.replace(/\/$/, ''))
    expect(result.tlsScan?.attempts.every((a) => a.outcome === 'refused')).toBe(true)
  })
})

describe('a server that refuses even TLS 1.0 (SSL 3.0 or nothing)', () => {
  it('fails the check after the one legacy retry, saying no version from TLS 1.0 to 1.3 was accepted', async () => {
    // a server that answers every ClientHello with a protocol_version alert (RFC 8446 §6.2, alert 70)
    const server = net.createServer((socket) =>
      socket.once('data', () => socket.end(Buffer.from([0x15, 0x03, 0x01, 0x00, 0x02, 0x02, 0x46]))),
    )
    let connections = 0
    server.on('connection', () => connections++)
    servers.push(server)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const port = (server.address() as AddressInfo).port
    const err = await probe(new URL(`https://127.0.0.1:${port}/`), { ...base, tlsScan: false }).catch(
      (e: Error) => e,
    )
    expect((err as Error).message).toBe(
      `The TLS handshake with 127.0.0.1:${port} failed: it refused every protocol version from TLS 1.0 to TLS 1.3`,
    )
    expect(connections).toBe(2) // the modern attempt and one legacy retry, no more
  })
})
