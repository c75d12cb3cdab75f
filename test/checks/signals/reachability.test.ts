import { describe, expect, it } from 'vitest'
import { reachability } from '../../../src/checks/signals/reachability.js'
import { healthyProbe, NOW } from '../probe-builder.js'

describe('reachability', () => {
  it('is ok for a 200 with no redirects, and says how fast', () => {
    const s = reachability(healthyProbe(), NOW)
    expect(s).toMatchObject({
      status: 'ok',
      score: 100,
      message: 'example.com is up: 200 OK in 0.16 s',
      findings: [],
    })
    expect(s.details).toEqual({
      statusCode: 200,
      finalUrl: 'https://example.com/',
      redirects: [],
      redirectCount: 0,
      redirectLimitExceeded: false,
      responseTimeMs: 160,
      httpVersion: '2',
    })
  })

  it('lists the redirect chain and the final URL', () => {
    const s = reachability(
      healthyProbe({
        inputUrl: 'http://example.com/',
        finalUrl: 'https://www.example.com/',
        redirects: [
          { url: 'http://example.com/', status: 301, location: 'https://example.com/' },
          { url: 'https://example.com/', status: 301, location: 'https://www.example.com/' },
        ],
      }),
      NOW,
    )
    expect(s.status).toBe('ok')
    expect(s.message).toBe('example.com is up: 200 OK in 0.16 s after 2 redirects')
    expect(s.details).toMatchObject({
      finalUrl: 'https://www.example.com/',
      redirects: ['http://example.com/', 'https://example.com/'],
      redirectCount: 2,
    })
    expect(s.findings).toEqual([
      {
        severity: 'info',
        message: 'Redirected 2 times: http://example.com/ → https://example.com/ → https://www.example.com/',
      },
    ])
  })

  it.each([
    [
      401,
      'warning',
      70,
      'medium',
      'https://example.com/ answers 401 Unauthorized: visitors must log in before they see anything',
    ],
    [
      403,
      'warning',
      70,
      'medium',
      'https://example.com/ answers 403 Forbidden: the server refuses access (check access rules, firewall or bot protection)',
    ],
    [
      429,
      'warning',
      70,
      'medium',
      'https://example.com/ answers 429 Too Many Requests: the server is rate-limiting requests (check bot protection or capacity)',
    ],
    [304, 'warning', 70, 'medium', 'https://example.com/ answers 304 Not Modified without a page to show'],
    [
      302,
      'warning',
      70,
      'medium',
      'https://example.com/ answers 302 Found without a page to show (a redirect with no usable Location)',
    ],
    [
      404,
      'needs_review',
      25,
      'high',
      'https://example.com/ answers 404 Not Found; visitors see an error page instead of the site',
    ],
    [
      410,
      'needs_review',
      25,
      'high',
      'https://example.com/ answers 410 Gone; visitors see an error page instead of the site',
    ],
    [
      500,
      'needs_review',
      25,
      'high',
      "Server error: https://example.com/ answers 500 Internal Server Error; check the server's logs",
    ],
    [
      503,
      'needs_review',
      25,
      'high',
      "Server error: https://example.com/ answers 503 Service Unavailable; check the server's logs",
    ],
  ] as const)('final status %d → %s (%d)', (status, expected, score, severity, message) => {
    const s = reachability(healthyProbe({ response: { status } }), NOW)
    expect(s.status).toBe(expected)
    expect(s.score).toBe(score)
    expect(s.message).toBe(message)
    expect(s.findings).toEqual([{ severity, message }])
    expect(s.details.statusCode).toBe(status)
  })

  it('needs review when the redirect chain goes past the cap', () => {
    const redirects = [1, 2, 3, 4, 5].map((n) => ({
      url: `https://example.com/${n}`,
      status: 302,
      location: `/${n + 1}`,
    }))
    const s = reachability(
      healthyProbe({
        finalUrl: 'https://example.com/6',
        redirects,
        redirectLimitExceeded: true,
        response: { status: 302, headers: { location: '/7' } },
      }),
      NOW,
    )
    expect(s.status).toBe('needs_review')
    expect(s.score).toBe(25)
    expect(s.message).toBe(
      'Too many redirects: still redirecting after 5 hops (https://example.com/1 → https://example.com/2 → https://example.com/3 → ' +
        'https://example.com/4 → https://example.com/5 → https://example.com/6 → https://example.com/7); link straight to the final page',
    )
    expect(s.details.redirectLimitExceeded).toBe(true)
  })

  it('calls a chain that comes back to a URL it visited a loop', () => {
    const s = reachability(
      healthyProbe({
        inputUrl: 'http://example.com/',
        finalUrl: 'https://example.com/',
        redirects: [
          { url: 'http://example.com/', status: 301, location: 'https://example.com/' },
          { url: 'https://example.com/', status: 301, location: 'http://example.com/' },
          { url: 'http://example.com/', status: 301, location: 'https://example.com/' },
          { url: 'https://example.com/', status: 301, location: 'http://example.com/' },
          { url: 'http://example.com/', status: 301, location: 'https://example.com/' },
        ],
        redirectLimitExceeded: true,
        response: { status: 301, headers: { location: 'http://example.com/' } },
      }),
      NOW,
    )
    expect(s.status).toBe('needs_review')
    expect(s.message).toMatch(
      /^Redirect loop: http:\/\/example\.com\/ → https:\/\/example\.com\/ → http:\/\/example\.com\//,
    )
    expect(s.findings[0].severity).toBe('high')
  })

  it('is unavailable when there is no HTTP answer at all', () => {
    const s = reachability(healthyProbe({ response: { status: 0 } }), NOW)
    expect(s).toMatchObject({
      status: 'unavailable',
      score: null,
      message: 'example.com gave no HTTP answer',
      findings: [],
    })
  })
})
