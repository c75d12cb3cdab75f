/**
 * Reading what Node does not expose: the leaf's signature algorithm and the RFC 7633 TLS feature
 * extension, for RSA and ECDSA certificates alike; the key exchange named by a suite.
 */
import { execFileSync } from 'node:child_process'
import { X509Certificate } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { keyExchangeOf } from '../../../src/checks/tls-info.js'
import { readLeafFacts } from '../../../src/checks/tls/certificate.js'
import { isProtocolVersionError } from '../../../src/checks/tls/legacy.js'
import { makeTestPki, type TestPki } from '../../fixtures/certs.js'
import { makeWeakPki, type WeakPki } from '../../fixtures/tls-certs.js'

let pki: TestPki
let weak: WeakPki
const der = (pem: string) => new X509Certificate(pem).raw

beforeAll(async () => {
  pki = await makeTestPki()
  weak = await makeWeakPki()
}, 60_000)

describe('readLeafFacts', () => {
  it('reads SHA-256 and SHA-1 RSA signatures', () => {
    expect(readLeafFacts(der(pki.valid.cert))).toEqual({
      signatureAlgorithm: 'sha256WithRSAEncryption',
      signatureHash: 'SHA-256',
      mustStaple: false,
    })
    expect(readLeafFacts(der(weak.sha1.cert))).toMatchObject({
      signatureAlgorithm: 'sha1WithRSAEncryption',
      signatureHash: 'SHA-1',
    })
  })

  it('reads the must-staple TLS feature (RFC 7633: status_request = 5)', () => {
    expect(readLeafFacts(der(weak.mustStaple.cert)).mustStaple).toBe(true)
  })

  it('reads an ECDSA certificate (which node-forge cannot parse)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sitehealth-ec-'))
    try {
      execFileSync(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'ec',
          '-pkeyopt',
          'ec_paramgen_curve:P-256',
          '-nodes',
          '-keyout',
          join(dir, 'k.pem'),
          '-out',
          join(dir, 'c.pem'),
          '-days',
          '2',
          '-subj',
          '/CN=ec.test',
          '-addext',
          'tlsfeature=status_request',
        ],
        { stdio: 'ignore' },
      )
      expect(readLeafFacts(der(readFileSync(join(dir, 'c.pem'), 'utf8')))).toEqual({
        signatureAlgorithm: 'ecdsa-with-SHA256',
        signatureHash: 'SHA-256',
        mustStaple: true,
      })
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('answers nulls, never throws, for bytes that are not a certificate', () => {
    const none = { signatureAlgorithm: null, signatureHash: null, mustStaple: false }
    expect(readLeafFacts(Buffer.from('not a certificate'))).toEqual(none)
    expect(readLeafFacts(undefined)).toEqual(none)
  })
})

describe('keyExchangeOf', () => {
  it.each([
    ['TLSv1.3', 'TLS_AES_128_GCM_SHA256', 'ECDH', 'ECDHE'],
    ['TLSv1.3', 'TLS_AES_128_GCM_SHA256', 'DH', 'DHE'],
    ['TLSv1.2', 'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256', 'ECDH', 'ECDHE'],
    ['TLSv1.2', 'TLS_DHE_RSA_WITH_AES_128_GCM_SHA256', 'DH', 'DHE'],
    ['TLSv1.2', 'TLS_RSA_WITH_AES_128_GCM_SHA256', undefined, 'RSA'],
    ['TLSv1.2', 'AES128-GCM-SHA256', undefined, 'RSA'],
    ['TLSv1.2', 'TLS_ECDH_anon_WITH_AES_128_CBC_SHA', 'ECDH', 'anonymous'],
    ['TLSv1.2', 'ADH-AES128-SHA', 'DH', 'anonymous'],
    ['TLSv1.2', 'TLS_PSK_WITH_AES_128_GCM_SHA256', undefined, 'other'],
  ] as const)('%s %s → %s', (protocol, suite, ephemeral, expected) => {
    expect(keyExchangeOf(protocol, suite, ephemeral)).toBe(expected)
  })
})

describe('isProtocolVersionError', () => {
  it('knows the protocol_version alert and the client-side refusal, also wrapped', () => {
    expect(isProtocolVersionError({ code: 'ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION' })).toBe(true)
    expect(isProtocolVersionError({ code: 'ERR_SSL_UNSUPPORTED_PROTOCOL' })).toBe(true)
    expect(
      isProtocolVersionError(new Error('fetch failed', { cause: { code: 'ERR_SSL_UNSUPPORTED_PROTOCOL' } })),
    ).toBe(true)
  })

  it('does not take other TLS failures for it', () => {
    expect(isProtocolVersionError({ code: 'ERR_SSL_WRONG_VERSION_NUMBER' })).toBe(false)
    expect(isProtocolVersionError({ code: 'ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE' })).toBe(false)
    expect(isProtocolVersionError({ code: 'ECONNRESET' })).toBe(false)
    expect(isProtocolVersionError(null)).toBe(false)
  })
})
