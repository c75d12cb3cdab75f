import { describe, expect, it } from 'vitest'
import { responseTime } from '../../../src/checks/signals/response-time.js'
import { healthyProbe, NOW } from '../probe-builder.js'

const withTtfb = (ttfbMs: number, serverWaitMs = ttfbMs - 55) =>
  healthyProbe({ timings: { ttfbMs, serverWaitMs, totalMs: ttfbMs + 50 } })

describe('response_time', () => {
  it('is ok for a fast first byte and reports every phase', () => {
    const s = responseTime(healthyProbe(), NOW)
    expect(s).toMatchObject({ status: 'ok', score: 100, message: 'Fast first byte: 0.16 s (under 0.8 s)' })
    expect(s.details).toEqual({
      ttfbMs: 160,
      totalMs: 210,
      dnsMs: 12,
      connectMs: 18,
      tlsMs: 25,
      serverWaitMs: 95,
      redirectMs: 0,
      redirectCount: 0,
      score: 100,
    })
    expect(s.findings).toHaveLength(1)
    expect(s.findings[0]).toMatchObject({ severity: 'info' })
    expect(s.findings[0].message).toMatch(
      /^Full response in 0\.21 s \(DNS 12 ms, connect 18 ms, TLS 25 ms, server 95 ms\)$/,
    )
  })

  // web-vitals TTFB bands [800, 1800] and the log-normal curve through them
  it.each([
    [200, 100, 'ok', null],
    [800, 90, 'ok', null],
    [801, 89, 'warning', 'medium'],
    [1000, 82, 'warning', 'medium'],
    [1500, 61, 'warning', 'medium'],
    [1800, 50, 'warning', 'medium'],
    [1801, 49, 'needs_review', 'high'],
    [2500, 30, 'needs_review', 'high'],
    [5000, 5, 'needs_review', 'high'],
  ] as const)('TTFB %d ms → %d (%s)', (ttfb, score, status, severity) => {
    const s = responseTime(withTtfb(ttfb), NOW)
    expect(s.score).toBe(score)
    expect(s.status).toBe(status)
    expect(s.details.ttfbMs).toBe(ttfb)
    const problems = s.findings.filter((f) => f.severity !== 'info')
    expect(problems.map((f) => f.severity)).toEqual(severity ? [severity] : [])
  })

  it('says how slow, what to aim for and where the time went', () => {
    const s = responseTime(withTtfb(2400, 2200), NOW)
    expect(s.message).toBe(
      'Slow first byte: 2.4 s (aim for under 0.8 s); the largest part is waiting for the server (2.2 s)',
    )
  })

  it('blames the redirects when they cost the most', () => {
    const s = responseTime(
      healthyProbe({
        inputUrl: 'http://example.com/',
        redirects: [
          { url: 'http://example.com/', status: 301, location: 'https://example.com/' },
          { url: 'https://example.com/', status: 302, location: '/home' },
        ],
        finalUrl: 'https://example.com/home',
        timings: { dnsMs: 20, connectMs: 30, tlsMs: 50, serverWaitMs: 100, ttfbMs: 1700, totalMs: 1750 },
      }),
      NOW,
    )
    expect(s.message).toBe(
      'Slow first byte: 1.7 s (aim for under 0.8 s); the largest part is following 2 redirects (1.5 s)',
    )
    expect(s.details).toMatchObject({ redirectMs: 1500, redirectCount: 2 })
  })

  it('copes with a reused connection (no DNS, connect or TLS timings)', () => {
    const s = responseTime(healthyProbe({ timings: { dnsMs: null, connectMs: null, tlsMs: null } }), NOW)
    expect(s.status).toBe('ok')
    expect(s.details).toMatchObject({ dnsMs: null, connectMs: null, tlsMs: null })
  })

  it('is unavailable without an HTTP answer', () => {
    expect(responseTime(healthyProbe({ response: { status: 0 } }), NOW)).toMatchObject({
      status: 'unavailable',
      score: null,
    })
  })
})
