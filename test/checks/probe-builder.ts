/**
 * Hand-built ProbeResults for the audit tests. `healthyProbe()` is a site with nothing to fix; each
 * test states only what differs, so a case reads like an example:
 *
 *   healthyProbe({ tls: { certificate: { validTo: inDays(6) } } })
 *   healthyProbe({ response: { headers: { 'x-frame-options': undefined } } })   // undefined removes
 *
 * Objects merge deeply; arrays and null replace; `undefined` deletes the key.
 */
import type { CertificateInfo, ProbeResult, TlsInfo } from '../../src/checks/types.js'

/** The instant every test judges against. */
export const NOW = new Date('2026-11-22T12:00:00.000Z')
const DAY_MS = 86_400_000
const HOUR_MS = 3_600_000

/** ISO timestamp `days` after NOW (negative: before). */
export const inDays = (days: number) => new Date(NOW.getTime() + days * DAY_MS).toISOString()
export const inHours = (hours: number) => new Date(NOW.getTime() + hours * HOUR_MS).toISOString()

export type Overrides<T> = {
  [K in keyof T]?: NonNullable<T[K]> extends readonly unknown[]
    ? T[K]
    : NonNullable<T[K]> extends object
      ? Overrides<NonNullable<T[K]>> | Extract<T[K], null>
      : T[K]
}

export const HEALTHY_HEADERS: Record<string, string> = {
  'content-type': 'text/html; charset=utf-8',
  'content-encoding': 'br',
  'cache-control': 'no-cache',
  'content-security-policy': "default-src 'self'; frame-ancestors 'none'",
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'permissions-policy': 'camera=(), microphone=()',
}

export function healthyCertificate(): CertificateInfo {
  return {
    subject: 'example.com',
    issuer: 'R11',
    subjectAltNames: ['example.com', 'www.example.com'],
    validFrom: inDays(-20),
    validTo: inDays(70),
    selfSigned: false,
    fingerprint256: 'AB:CD:EF',
    hasSubjectAltName: true,
    keyType: 'ec',
    keyBits: 256,
    signatureAlgorithm: 'sha256WithRSAEncryption',
    signatureHash: 'SHA-256',
    mustStaple: false,
    issuerMissing: false,
  }
}

export function healthyTls(): TlsInfo {
  return {
    protocol: 'TLSv1.3',
    authorized: true,
    authorizationError: null,
    hostnameMatches: true,
    certificate: healthyCertificate(),
    alpnProtocol: 'h2',
    cipher: 'TLS_AES_128_GCM_SHA256',
    keyExchange: 'ECDHE',
    ephemeralKey: { type: 'ECDH', name: 'X25519', bits: 253 },
    ocspStapled: false,
    legacyFallback: false,
  }
}

/** https://example.com/: 200, HTML, brotli, HTTP/2, every header, a 70-day certificate, 160 ms TTFB. */
export function healthyProbe(overrides: Overrides<ProbeResult> = {}): ProbeResult {
  const base: ProbeResult = {
    inputUrl: 'https://example.com/',
    finalUrl: 'https://example.com/',
    response: {
      status: 200,
      httpVersion: '2',
      headers: { ...HEALTHY_HEADERS },
      setCookies: [],
      contentType: 'text/html; charset=utf-8',
      contentEncoding: 'br',
      bodyBytesWire: 12_000,
      bodyBytesDecoded: 48_000,
      bodyTruncated: false,
    },
    redirects: [],
    redirectLimitExceeded: false,
    timings: { dnsMs: 12, connectMs: 18, tlsMs: 25, serverWaitMs: 95, ttfbMs: 160, totalMs: 210 },
    tls: healthyTls(),
    alternate: {
      kind: 'http_to_https',
      url: 'http://example.com/',
      attempted: true,
      ok: true,
      status: 301,
      location: 'https://example.com/',
    },
    startedAt: NOW.toISOString(),
    page: null,
    critical: null,
  }
  return merge(base, overrides)
}

/** http://example.com/ served over plain http (no HSTS, no TLS); https is not offered. */
export function plainHttpProbe(overrides: Overrides<ProbeResult> = {}): ProbeResult {
  const probe = healthyProbe({
    inputUrl: 'http://example.com/',
    finalUrl: 'http://example.com/',
    response: { headers: { 'strict-transport-security': undefined } },
    timings: { tlsMs: null },
    tls: null,
    alternate: {
      kind: 'https_offered',
      url: 'https://example.com/',
      attempted: true,
      ok: false,
      status: undefined,
      location: undefined,
      error: 'connect ECONNREFUSED 93.184.215.14:443',
    },
  })
  return merge(probe, overrides)
}

function merge<T>(base: T, overrides: Overrides<T>): T {
  return mergeObjects(base as Record<string, unknown>, overrides as Record<string, unknown>) as T
}

function mergeObjects(
  base: Record<string, unknown>,
  overrides: Record<string, unknown>,
): Record<string, unknown> {
  const out = { ...base }
  for (const [key, value] of Object.entries(overrides)) {
    const current = out[key]
    if (value === undefined) delete out[key]
    else if (isPlainObject(value) && isPlainObject(current)) out[key] = mergeObjects(current, value)
    else out[key] = value
  }
  return out
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)
