import { describe, expect, it } from 'vitest'
import { httpsSsl } from '../../../src/checks/signals/https-ssl.js'
import { healthyProbe, healthyTls, inDays, inHours, NOW, plainHttpProbe } from '../probe-builder.js'

describe('https_ssl: certificate states', () => {
  it('is ok for a valid, trusted, matching certificate over TLS 1.3 with http → https', () => {
    const s = httpsSsl(healthyProbe(), NOW)
    expect(s.status).toBe('ok')
    expect(s.score).toBe(100)
    expect(s.message).toBe(
      'Certificate for example.com is valid until 2027-01-31 (70 days left), issued by R11, over TLSv1.3',
    )
    expect(s.findings).toEqual([{ severity: 'info', message: 'http://example.com/ redirects to https' }])
    expect(s.details).toEqual({
      scheme: 'https',
      subject: 'example.com',
      issuer: 'R11',
      subjectAltNames: ['example.com', 'www.example.com'],
      validFrom: '2026-11-02T12:00:00.000Z',
      validTo: '2027-01-31T12:00:00.000Z',
      daysLeft: 70,
      lifetimeDays: 90,
      selfSigned: false,
      authorized: true,
      authorizationError: null,
      hostnameMatches: true,
      protocol: 'TLSv1.3',
      cipher: 'TLS_AES_128_GCM_SHA256',
      keyExchange: 'ECDHE',
      forwardSecrecy: true,
      ephemeralKey: { type: 'ECDH', name: 'X25519', bits: 253 },
      legacyFallback: false,
      keyType: 'ec',
      keyBits: 256,
      signatureAlgorithm: 'sha256WithRSAEncryption',
      hasSubjectAltName: true,
      mustStaple: false,
      ocspStapled: false,
      accepts: { tls1_0: null, tls1_1: null, nullCiphers: null, anonymousCiphers: null },
      httpRedirectsToHttps: true,
      httpsOffered: null,
      companionUrl: 'http://example.com/',
      companionChecked: true,
    })
  })

  it.each([
    [22, 'ok', 100, null],
    [
      21,
      'warning',
      70,
      'Certificate for example.com expires in 21 days (2026-12-13); check that automatic renewal works',
    ],
    [
      15,
      'warning',
      70,
      'Certificate for example.com expires in 15 days (2026-12-07); check that automatic renewal works',
    ],
    [
      8,
      'warning',
      70,
      'Certificate for example.com expires in 8 days (2026-11-30); check that automatic renewal works',
    ],
    [7, 'needs_review', 25, 'Certificate for example.com expires in 7 days (2026-11-29); renew it now'],
    [6, 'needs_review', 25, 'Certificate for example.com expires in 6 days (2026-11-28); renew it now'],
    [0.5, 'needs_review', 25, 'Certificate for example.com expires in 12 hours (2026-11-23); renew it now'],
  ] as const)('%d days left → %s (%d)', (days, status, score, message) => {
    const s = httpsSsl(
      healthyProbe({ tls: { certificate: { validFrom: inDays(days - 90), validTo: inDays(days) } } }),
      NOW,
    )
    expect(s.status).toBe(status)
    expect(s.score).toBe(score)
    if (message) expect(s.message).toBe(message)
    expect(s.details.daysLeft).toBe(Math.trunc(days))
  })

  it('needs review with score 0 when the certificate expired, and says when', () => {
    const s = httpsSsl(
      healthyProbe({
        tls: {
          authorized: false,
          authorizationError: 'CERT_HAS_EXPIRED',
          certificate: { validFrom: inDays(-93), validTo: inDays(-3) },
        },
      }),
      NOW,
    )
    expect(s.status).toBe('needs_review')
    expect(s.score).toBe(0)
    expect(s.message).toBe('Certificate for example.com expired 3 days ago (2026-11-19); renew it now')
    expect(s.findings.filter((f) => f.severity === 'high')).toHaveLength(1)
    expect(s.details).toMatchObject({
      daysLeft: -3,
      authorized: false,
      authorizationError: 'CERT_HAS_EXPIRED',
    })
  })

  it('needs review when the certificate is not valid yet', () => {
    const s = httpsSsl(
      healthyProbe({
        tls: {
          authorized: false,
          authorizationError: 'CERT_NOT_YET_VALID',
          certificate: { validFrom: inDays(2), validTo: inDays(92) },
        },
      }),
      NOW,
    )
    expect(s).toMatchObject({ status: 'needs_review', score: 0 })
    expect(s.message).toBe(
      'Certificate for example.com is not valid until 2026-11-24 (in 2 days); check the server clock or install the current certificate',
    )
  })

  it('needs review on a host name mismatch and names the hosts the certificate is for', () => {
    const s = httpsSsl(
      healthyProbe({
        tls: {
          hostnameMatches: false,
          certificate: { subjectAltNames: ['other.example', 'www.other.example'] },
        },
      }),
      NOW,
    )
    expect(s).toMatchObject({ status: 'needs_review', score: 0 })
    expect(s.message).toBe(
      'Certificate does not cover example.com: it is for other.example, www.other.example; get one that includes example.com',
    )
    expect(s.details.hostnameMatches).toBe(false)
  })

  it('tells a self-signed certificate apart from an unknown CA', () => {
    const selfSigned = httpsSsl(
      healthyProbe({
        tls: {
          authorized: false,
          authorizationError: 'DEPTH_ZERO_SELF_SIGNED_CERT',
          certificate: { issuer: 'example.com', selfSigned: true },
        },
      }),
      NOW,
    )
    expect(selfSigned).toMatchObject({ status: 'needs_review', score: 0 })
    expect(selfSigned.message).toBe(
      "Certificate for example.com is self-signed, so browsers do not trust it; use one from a public CA (e.g. Let's Encrypt)",
    )

    const unknownCa = httpsSsl(
      healthyProbe({
        tls: {
          authorized: false,
          authorizationError: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
          certificate: { issuer: 'Corp Internal CA' },
        },
      }),
      NOW,
    )
    expect(unknownCa).toMatchObject({ status: 'needs_review', score: 0 })
    expect(unknownCa.message).toBe(
      'Certificate for example.com is issued by Corp Internal CA, which cannot be traced to a trusted root ' +
        '(UNABLE_TO_VERIFY_LEAF_SIGNATURE); serve the full chain with intermediates or use a public CA',
    )
  })

  it.each([
    [
      'SELF_SIGNED_CERT_IN_CHAIN',
      'Certificate chain of example.com ends in a self-signed root that browsers do not trust; use a certificate from a public CA',
    ],
    [
      'CERT_HAS_EXPIRED',
      'A certificate in the chain of example.com has expired (CERT_HAS_EXPIRED); update the intermediate certificates',
    ],
    ['CERT_REVOKED', 'Certificate for example.com has been revoked by its issuer; replace it'],
    ['CERT_SIGNATURE_FAILURE', 'Certificate for example.com is not trusted (CERT_SIGNATURE_FAILURE)'],
  ])('untrusted chain %s (leaf dates fine) → 0', (code, message) => {
    const s = httpsSsl(healthyProbe({ tls: { authorized: false, authorizationError: code } }), NOW)
    expect(s).toMatchObject({ status: 'needs_review', score: 0, message })
  })

  it('lists every problem when several are wrong at once, the worst first', () => {
    const s = httpsSsl(
      healthyProbe({
        tls: {
          authorized: false,
          authorizationError: 'DEPTH_ZERO_SELF_SIGNED_CERT',
          hostnameMatches: false,
          certificate: {
            selfSigned: true,
            validFrom: inDays(-400),
            validTo: inDays(-35),
            subjectAltNames: ['localhost'],
          },
        },
      }),
      NOW,
    )
    expect(s.score).toBe(0)
    expect(s.findings.map((f) => f.severity)).toEqual(['high', 'high', 'high', 'info'])
    expect(s.findings[0].message).toBe(
      'Certificate for example.com expired 35 days ago (2026-10-18); renew it now',
    )
    expect(s.findings[1].message).toMatch(/^Certificate does not cover example\.com: it is for localhost;/)
    expect(s.findings[2].message).toMatch(/^Certificate for example\.com is self-signed/)
    expect(s.message).toBe('Certificate for example.com expired 35 days ago (2026-10-18); renew it now')
  })

  it('needs review for a protocol older than TLS 1.2', () => {
    const s = httpsSsl(healthyProbe({ tls: { protocol: 'TLSv1.1' } }), NOW)
    expect(s).toMatchObject({
      status: 'needs_review',
      score: 25,
      message: 'example.com negotiates TLSv1.1, which browsers have dropped; enable TLS 1.2 and 1.3',
    })
  })

  it('is unavailable when the certificate could not be read', () => {
    const s = httpsSsl(healthyProbe({ tls: { certificate: null } }), NOW)
    expect(s).toMatchObject({
      status: 'unavailable',
      score: null,
      message: 'Could not read the TLS certificate of example.com',
    })
  })
})

describe('https_ssl: short-lived certificates use fractions of their lifetime', () => {
  // Let's Encrypt's 160-hour profile: a third of the lifetime is 53.3 hours
  it.each([
    [-100, 60, 'ok', 100, null],
    [
      -112,
      48,
      'warning',
      70,
      'Short-lived certificate for example.com expires in 2 days (2026-11-24), under a third of its 6-day lifetime; check automatic renewal',
    ],
    [
      -140,
      20,
      'needs_review',
      25,
      'Short-lived certificate for example.com expires in 20 hours (2026-11-23); its 6-day lifetime is nearly over, so renewal looks stuck',
    ],
  ] as const)('issued %d h ago, %d h left → %s', (fromHours, toHours, status, score, message) => {
    const s = httpsSsl(
      healthyProbe({ tls: { certificate: { validFrom: inHours(fromHours), validTo: inHours(toHours) } } }),
      NOW,
    )
    expect(s.status).toBe(status)
    expect(s.score).toBe(score)
    if (message) expect(s.message).toBe(message)
  })

  it('switches to fractions only below a 30-day lifetime: 10 days left is fine on a 28-day certificate, not on a 90-day one', () => {
    const shortLived = healthyProbe({ tls: { certificate: { validFrom: inDays(-18), validTo: inDays(10) } } })
    const ordinary = healthyProbe({ tls: { certificate: { validFrom: inDays(-80), validTo: inDays(10) } } })
    expect(httpsSsl(shortLived, NOW).status).toBe('ok')
    expect(httpsSsl(ordinary, NOW).status).toBe('warning')
  })
})

describe('https_ssl: http → https', () => {
  it('warns when plain http answers without redirecting to https', () => {
    const s = httpsSsl(healthyProbe({ alternate: { ok: false, status: 200, location: undefined } }), NOW)
    expect(s).toMatchObject({
      status: 'warning',
      score: 70,
      message:
        'http://example.com/ does not redirect to https (it answers 200); add a permanent (301) redirect to https',
    })
    expect(s.details.httpRedirectsToHttps).toBe(false)
  })

  it('names where plain http redirects instead', () => {
    const s = httpsSsl(
      healthyProbe({ alternate: { ok: false, status: 301, location: 'http://www.example.com/' } }),
      NOW,
    )
    expect(s.message).toBe(
      'http://example.com/ does not redirect to https (it redirects to http://www.example.com/); add a permanent (301) redirect to https',
    )
  })

  it('does not hold a closed port 80 against the site', () => {
    const s = httpsSsl(
      healthyProbe({
        alternate: { ok: false, status: undefined, location: undefined, error: 'connection refused' },
      }),
      NOW,
    )
    expect(s).toMatchObject({ status: 'ok', score: 100 })
    expect(s.findings).toEqual([
      { severity: 'info', message: 'Plain http on example.com does not answer (connection refused)' },
    ])
  })

  it('does not judge the redirect when the companion request was skipped', () => {
    const s = httpsSsl(
      healthyProbe({ alternate: { attempted: false, ok: false, status: undefined, location: undefined } }),
      NOW,
    )
    expect(s).toMatchObject({ status: 'ok', score: 100, findings: [] })
    expect(s.details.httpRedirectsToHttps).toBeNull()
  })
})

describe('https_ssl: plain-http sites', () => {
  it('scores 0 when https is not offered at all', () => {
    const s = httpsSsl(plainHttpProbe(), NOW)
    expect(s).toMatchObject({ status: 'needs_review', score: 0 })
    expect(s.message).toBe(
      'example.com is served over plain http and https is not offered (connect ECONNREFUSED 93.184.215.14:443); ' +
        "install a certificate (e.g. Let's Encrypt) and redirect http to https",
    )
    expect(s.details).toMatchObject({ scheme: 'http', httpsOffered: false, subject: null, protocol: null })
  })

  it('scores 25 when a valid https exists but http does not redirect to it', () => {
    const s = httpsSsl(
      plainHttpProbe({ alternate: { ok: true, status: 200, error: undefined, tls: healthyTls() } }),
      NOW,
    )
    expect(s).toMatchObject({
      status: 'needs_review',
      score: 25,
      message:
        'example.com is served over plain http although https://example.com/ works; redirect http to https',
    })
    expect(s.details.httpsOffered).toBe(true)
  })

  it('scores 0 when https answers with an invalid certificate', () => {
    const tls = { ...healthyTls(), authorized: false, authorizationError: 'DEPTH_ZERO_SELF_SIGNED_CERT' }
    const s = httpsSsl(plainHttpProbe({ alternate: { ok: true, status: 200, error: undefined, tls } }), NOW)
    expect(s.score).toBe(0)
    expect(s.message).toBe(
      'example.com is served over plain http; https://example.com/ answers but its certificate is not valid ' +
        '(DEPTH_ZERO_SELF_SIGNED_CERT), so fix it and redirect http to https',
    )
  })

  it('scores 0 when https redirects down to plain http', () => {
    const s = httpsSsl(
      healthyProbe({
        finalUrl: 'http://example.com/',
        redirects: [{ url: 'https://example.com/', status: 301, location: 'http://example.com/' }],
        tls: null,
      }),
      NOW,
    )
    expect(s).toMatchObject({
      status: 'needs_review',
      score: 0,
      message:
        'https://example.com/ redirects visitors to plain http (http://example.com/); keep them on https',
    })
  })
})
