import { describe, expect, it } from 'vitest'
import { rankFindings, score } from '../../src/checks/scoring.js'
import type { Finding, Signal, Signals } from '../../src/checks/types.js'
import { healthyProbe } from './probe-builder.js'

const probe = healthyProbe({ inputUrl: 'https://shop.example/' })

function sig(score: number | null, findings: Finding[] = [], message = 'signal message'): Signal {
  const status =
    score === null ? 'unavailable' : score >= 90 ? 'ok' : score >= 50 ? 'warning' : 'needs_review'
  return { status, score, message, findings, details: {} }
}
const high = (message: string): Finding => ({ severity: 'high', message })
const medium = (message: string): Finding => ({ severity: 'medium', message })
const low = (message: string): Finding => ({ severity: 'low', message })

/** Five ok signals at 100, with some replaced. */
function signals(over: Partial<Signals> = {}): Signals {
  return {
    reachability: sig(100),
    https_ssl: sig(100),
    response_time: sig(100),
    security_headers: sig(100),
    pagespeed: sig(100),
    ...over,
  }
}

describe('healthScore', () => {
  it.each([
    ['all 100', {}, 100],
    // (30·100 + 25·100 + 20·30 + 15·100 + 10·100) / 100
    ['headers 30', { security_headers: sig(30) }, 86],
    // (30·100 + 25·70 + 20·75 + 15·82 + 10·75) / 100 = 82.3
    [
      'a mixed site',
      { https_ssl: sig(70), security_headers: sig(75), response_time: sig(82), pagespeed: sig(75) },
      82,
    ],
    // pagespeed weighted out: (3000 + 2500 + 20·30 + 1500) / 90 = 84.4
    ['pagespeed unavailable', { security_headers: sig(30), pagespeed: sig(null) }, 84],
    // pagespeed and headers weighted out: (3000 + 25·70 + 15·50) / 70 = 78.6
    [
      'two unavailable',
      { https_ssl: sig(70), response_time: sig(50), pagespeed: sig(null), security_headers: sig(null) },
      79,
    ],
  ])('%s → %d', (_name, over, expected) => {
    expect(score(signals(over as Partial<Signals>), probe).healthScore).toBe(expected)
  })

  it('caps at 49 when reachability needs review (78 uncapped)', () => {
    expect(score(signals({ reachability: sig(25) }), probe).healthScore).toBe(49)
  })

  it('caps at 49 when the HTTPS sub-score is 0 (75 uncapped)', () => {
    expect(score(signals({ https_ssl: sig(0) }), probe).healthScore).toBe(49)
  })

  it('does not cap an HTTPS needs_review above 0 (25 → 81)', () => {
    expect(score(signals({ https_ssl: sig(25) }), probe).healthScore).toBe(81)
  })

  it('is 0 when reachability is unavailable', () => {
    expect(score(signals({ reachability: sig(null) }), probe).healthScore).toBe(0)
  })
})

describe('overall status', () => {
  it.each([
    ['all ok', {}, 'ok'],
    ['one warning', { pagespeed: sig(75) }, 'warning'],
    ['a warning and a needs_review', { https_ssl: sig(70), response_time: sig(30) }, 'needs_review'],
    ['unavailable signals are left out', { pagespeed: sig(null), security_headers: sig(null) }, 'ok'],
    ['reachability unavailable', { reachability: sig(null) }, 'unavailable'],
  ])('%s → %s', (_name, over, expected) => {
    expect(score(signals(over as Partial<Signals>), probe).status).toBe(expected)
  })
})

describe('riskLevel', () => {
  it.each([
    ['healthy', {}, 'low'],
    ['score 80-89 with warnings only', { security_headers: sig(55) }, 'low'],
    ['score under 80', { https_ssl: sig(70), security_headers: sig(55), pagespeed: sig(55) }, 'medium'],
    ['a minor signal needs review', { security_headers: sig(30) }, 'medium'],
    ['HTTPS needs review (score 81)', { https_ssl: sig(25) }, 'high'],
    ['reachability needs review', { reachability: sig(25) }, 'high'],
    ['score under 50', { https_ssl: sig(0) }, 'high'],
    ['reachability unavailable', { reachability: sig(null) }, 'unknown'],
    [
      'only two signals judged',
      { security_headers: sig(null), response_time: sig(null), pagespeed: sig(null) },
      'unknown',
    ],
    ['three signals judged', { response_time: sig(null), pagespeed: sig(null) }, 'low'],
  ])('%s → %s', (_name, over, expected) => {
    expect(score(signals(over as Partial<Signals>), probe).riskLevel).toBe(expected)
  })
})

describe('summary', () => {
  it('says a healthy site is healthy', () => {
    expect(score(signals(), probe).summary).toBe(
      'shop.example looks healthy (health 100/100, low risk); nothing urgent to fix.',
    )
  })

  it('mentions the top minor point and what was not judged on a healthy site', () => {
    const s = score(
      signals({
        security_headers: sig(100, [low('Missing 1 security header: permissions-policy')]),
        pagespeed: sig(null),
      }),
      probe,
    )
    expect(s.summary).toBe(
      'shop.example looks healthy (health 100/100, low risk); nothing urgent to fix ' +
        '(minor: missing 1 security header: permissions-policy; not judged: pagespeed).',
    )
  })

  it('names the worst problem first and counts the rest', () => {
    const s = score(
      signals({
        https_ssl: sig(0, [
          high('Certificate for shop.example expired 3 days ago (2026-11-19); renew it now'),
        ]),
        security_headers: sig(55, [
          medium('Missing 3 security headers: content-security-policy, x-frame-options, permissions-policy'),
        ]),
        pagespeed: sig(95, [low('Served over HTTP/1.1 only; enable HTTP/2')]),
      }),
      probe,
    )
    expect(s.summary).toBe(
      'shop.example needs review (health 49/100, high risk): certificate for shop.example expired 3 days ago (2026-11-19); ' +
        'renew it now (and 1 more issue).',
    )
  })

  it('breaks a tie between equally severe problems by weight (reachability before HTTPS)', () => {
    const s = score(
      signals({
        https_ssl: sig(0, [high('Certificate for shop.example is self-signed')]),
        reachability: sig(25, [high('Server error: https://shop.example/ answers 503 Service Unavailable')]),
      }),
      probe,
    )
    expect(s.summary).toBe(
      'shop.example needs review (health 49/100, high risk): server error: https://shop.example/ answers 503 Service Unavailable (and 1 more issue).',
    )
  })

  it('leads with the signal that sets the verdict, even over a heavier signal with an equal severity', () => {
    const s = score(
      signals({
        security_headers: sig(75, [medium('Missing 1 security header: content-security-policy')]),
        pagespeed: sig(42, [
          medium('HTML is sent uncompressed: 60 KB could shrink by about 40 KB with gzip or brotli'),
        ]),
      }),
      probe,
    )
    expect(s.status).toBe('needs_review')
    expect(s.summary).toBe(
      'shop.example needs review (health 89/100, medium risk): HTML is sent uncompressed: 60 KB could shrink by about 40 KB ' +
        'with gzip or brotli (and 1 more issue).',
    )
  })

  it('words a warning-level site as needing attention', () => {
    const s = score(
      signals({ response_time: sig(61, [medium('Slow first byte: 1.5 s (aim for under 0.8 s)')]) }),
      probe,
    )
    expect(s.summary).toBe(
      'shop.example needs attention (health 94/100, low risk): slow first byte: 1.5 s (aim for under 0.8 s).',
    )
  })

  it('says why a site could not be checked', () => {
    const s = score(signals({ reachability: sig(null, [], 'shop.example gave no HTTP answer') }), probe)
    expect(s.summary).toBe(
      'shop.example could not be checked (health 0/100, risk unknown): shop.example gave no HTTP answer.',
    )
  })

  it('ranks findings by status, then severity, then weight, and skips info', () => {
    const ranked = rankFindings(
      signals({
        pagespeed: sig(80, [low('p-low'), medium('p-medium')]),
        security_headers: sig(80, [medium('h-medium'), { severity: 'info', message: 'h-info' }]),
        response_time: sig(40, [high('t-high')]),
      }),
    )
    expect(ranked.map((r) => r.finding.message)).toEqual(['t-high', 'h-medium', 'p-medium', 'p-low'])
  })
})
