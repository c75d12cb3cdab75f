import { describe, expect, it } from 'vitest'
import { evaluate } from '../../src/checks/evaluate.js'
import { SIGNAL_NAMES } from '../../src/contract/schemas.js'
import { healthyProbe, inDays, NOW, plainHttpProbe } from './probe-builder.js'

describe('evaluate', () => {
  it('turns a healthy probe into a healthy report', () => {
    const report = evaluate(healthyProbe(), NOW)
    expect(report).toMatchObject({
      url: 'https://example.com/',
      finalUrl: 'https://example.com/',
      healthScore: 100,
      status: 'ok',
      riskLevel: 'low',
      summary: 'example.com looks healthy (health 100/100, low risk); nothing urgent to fix.',
      responseTimeMs: 160,
      missingHeaders: [],
      performanceScore: 100,
    })
    expect(Object.keys(report.signals)).toEqual([...SIGNAL_NAMES])
    for (const name of SIGNAL_NAMES) expect(report.signals[name].status).toBe('ok')
  })

  it('leads with an expired certificate and keeps the site under 50', () => {
    const report = evaluate(
      healthyProbe({
        inputUrl: 'https://shop.example/',
        finalUrl: 'https://shop.example/',
        tls: {
          authorized: false,
          authorizationError: 'CERT_HAS_EXPIRED',
          certificate: {
            subject: 'shop.example',
            subjectAltNames: ['shop.example'],
            validFrom: inDays(-93),
            validTo: inDays(-3),
          },
        },
      }),
      NOW,
    )
    expect(report.healthScore).toBe(49)
    expect(report.status).toBe('needs_review')
    expect(report.riskLevel).toBe('high')
    // the second issue: browsers ignore HSTS over the refused certificate (RFC 6797 §8.1)
    expect(report.summary).toBe(
      'shop.example needs review (health 49/100, high risk): certificate for shop.example expired 3 days ago (2026-11-19); renew it now (and 1 more issue).',
    )
  })

  it('fills missingHeaders, performanceScore and responseTimeMs from the signals and timings', () => {
    const report = evaluate(
      healthyProbe({
        response: {
          headers: {
            'content-security-policy': undefined,
            'x-frame-options': undefined,
            'permissions-policy': undefined,
          },
          contentEncoding: null,
          bodyBytesWire: 60_000,
          bodyBytesDecoded: 60_000,
        },
        timings: { serverWaitMs: 2300, ttfbMs: 2400.6, totalMs: 2500 },
      }),
      NOW,
    )
    expect(report.missingHeaders).toEqual([
      'content-security-policy',
      'x-frame-options',
      'permissions-policy',
    ])
    expect(report.responseTimeMs).toBe(2401)
    expect(report.performanceScore).toBe(report.signals.pagespeed.score)
    // the server wait is counted once in pagespeed (in the simulated paint times), so a slow server
    // with a small page costs the estimate what it costs Lighthouse (its slow-2500 corpus page: 84)
    expect(report.performanceScore).toBe(83)
    expect(report.summary).toBe(
      'example.com needs review (health 79/100, medium risk): slow first byte: 2.4 s (aim for under 0.8 s); ' +
        'the largest part is waiting for the server (2.3 s) (and 2 more issues).',
    )
  })

  it('reports performanceScore 0 and names pagespeed as not judged for a non-HTML URL', () => {
    const report = evaluate(
      healthyProbe({
        inputUrl: 'https://api.example.com/v1/status',
        finalUrl: 'https://api.example.com/v1/status',
        response: { contentType: 'application/json' },
      }),
      NOW,
    )
    expect(report.signals.pagespeed.status).toBe('unavailable')
    expect(report.performanceScore).toBe(0)
    expect(report.healthScore).toBe(100)
    expect(report.summary).toBe(
      'api.example.com looks healthy (health 100/100, low risk); nothing urgent to fix (not judged: pagespeed).',
    )
  })

  it('judges a plain-http site by its missing https first', () => {
    const report = evaluate(plainHttpProbe(), NOW)
    expect(report.healthScore).toBe(49)
    expect(report.riskLevel).toBe('high')
    expect(report.missingHeaders).toEqual([])
    expect(report.summary).toMatch(
      /^example\.com needs review \(health 49\/100, high risk\): example\.com is served over plain http and https is not offered/,
    )
  })

  it('judges a 503 on what can be judged and says what could not', () => {
    const report = evaluate(healthyProbe({ response: { status: 503 } }), NOW)
    expect(report.signals.security_headers.status).toBe('unavailable')
    expect(report.signals.pagespeed.status).toBe('unavailable')
    expect(report).toMatchObject({
      healthScore: 49,
      status: 'needs_review',
      riskLevel: 'high',
      performanceScore: 0,
      missingHeaders: [],
    })
    expect(report.summary).toBe(
      'example.com needs review (health 49/100, high risk): server error: https://example.com/ answers 503 Service Unavailable; ' +
        "check the server's logs (not judged: security headers, pagespeed).",
    )
  })

  it('is a pure function of the probe and the clock', () => {
    const probe = healthyProbe()
    expect(evaluate(probe, NOW)).toEqual(evaluate(structuredClone(probe), NOW))
  })

  it('counts certificate days against the clock it is given', () => {
    const probe = healthyProbe()
    expect(evaluate(probe, NOW).signals.https_ssl.status).toBe('ok')
    expect(evaluate(probe, new Date(NOW.getTime() + 65 * 86_400_000)).signals.https_ssl.status).toBe(
      'needs_review',
    )
  })
})
