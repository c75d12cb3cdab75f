import { describe, expect, it } from 'vitest'
import { pagespeed } from '../../../src/checks/signals/pagespeed.js'
import { healthyProbe, NOW } from '../probe-builder.js'

const uncompressed = (bytes: number) => ({
  contentEncoding: null,
  bodyBytesWire: bytes,
  bodyBytesDecoded: bytes,
})

describe('pagespeed: what can be judged', () => {
  it('scores a fast, compressed HTTP/2 document 100', () => {
    const s = pagespeed(healthyProbe(), NOW)
    expect(s).toMatchObject({
      status: 'ok',
      score: 100,
      message: "Performance 100/100: the page's HTML arrives in 0.21 s, 12 KB br-compressed over HTTP/2",
    })
    expect(s.details).toMatchObject({
      performanceScore: 100,
      bodyBytesWire: 12_000,
      contentEncoding: 'br',
      httpVersion: '2',
    })
    expect(s.findings).toEqual([
      {
        severity: 'info',
        message: 'HTML caching: Cache-Control "no-cache" (reported, not scored: HTML is usually revalidated)',
      },
    ])
  })

  it.each([
    [{ contentType: 'application/json' }, 'https://example.com/ is application/json, not an HTML page'],
    [{ contentType: 'image/png' }, 'https://example.com/ is image/png, not an HTML page'],
    [{ contentType: null }, 'https://example.com/ is of no declared type, not an HTML page'],
    [{ status: 404 }, 'https://example.com/ answers 404 Not Found, not a page'],
    [{ status: 503 }, 'https://example.com/ answers 503 Service Unavailable, not a page'],
    [{ bodyBytesDecoded: 0, bodyBytesWire: 0 }, 'https://example.com/ returned an empty body'],
  ])('is unavailable when %o', (response, why) => {
    const s = pagespeed(healthyProbe({ response }), NOW)
    expect(s).toMatchObject({
      status: 'unavailable',
      score: null,
      message: `Performance not judged: ${why}`,
      findings: [],
    })
    expect(s.details.performanceScore).toBeNull()
  })

  it('judges XHTML and HTML with parameters in the content type', () => {
    expect(pagespeed(healthyProbe({ response: { contentType: 'application/xhtml+xml' } }), NOW).score).toBe(
      100,
    )
    expect(
      pagespeed(healthyProbe({ response: { contentType: 'TEXT/HTML ; charset=UTF-8' } }), NOW).score,
    ).toBe(100)
  })
})

describe('pagespeed: penalties', () => {
  it('takes 25 points for uncompressed HTML with ≥ 1400 B to save, and says how much', () => {
    const s = pagespeed(healthyProbe({ response: uncompressed(60_000) }), NOW)
    expect(s.score).toBe(75)
    expect(s.status).toBe('warning')
    expect(s.findings[0]).toEqual({
      severity: 'medium',
      message: 'HTML is sent uncompressed: 60 KB could shrink by about 40 KB with gzip or brotli',
    })
    expect(s.message).toBe(
      'HTML is sent uncompressed: 60 KB could shrink by about 40 KB with gzip or brotli (performance 75/100)',
    )
  })

  it('does not mind a small uncompressed page (savings under 1400 B)', () => {
    expect(pagespeed(healthyProbe({ response: uncompressed(2000) }), NOW).score).toBe(100)
  })

  it('treats content-encoding identity as uncompressed', () => {
    const s = pagespeed(
      healthyProbe({ response: { contentEncoding: 'identity', bodyBytesWire: 48_000 } }),
      NOW,
    )
    expect(s.score).toBe(75)
  })

  it('needs review for a slow server that also sends uncompressed HTML', () => {
    const s = pagespeed(
      healthyProbe({
        response: uncompressed(60_000),
        timings: { serverWaitMs: 1500, ttfbMs: 1560, totalMs: 1700 },
      }),
      NOW,
    )
    expect(s.score).toBe(42)
    expect(s.status).toBe('needs_review')
    expect(s.findings.map((f) => f.severity)).toEqual(['medium', 'medium', 'low', 'info'])
    expect(s.findings[1].message).toBe(
      'Server takes 1.5 s to start answering (aim for under 0.3 s); cache pages or speed up the backend',
    )
  })

  it.each([
    [95, 100],
    [300, 98],
    [600, 88],
    [1000, 79],
    [3000, 75],
  ])('server wait %d ms → %d', (serverWaitMs, score) => {
    // totalMs kept short so only the server-wait curve moves
    expect(pagespeed(healthyProbe({ timings: { serverWaitMs, totalMs: 200 } }), NOW).score).toBe(score)
  })

  it('penalises a slow full load of the document', () => {
    const s = pagespeed(healthyProbe({ timings: { totalMs: 3000 } }), NOW)
    expect(s.score).toBe(86)
    expect(s.findings[0].message).toMatch(
      /^The page's HTML takes 3 s to arrive in full \(aim for under 0\.93 s\)/,
    )
  })

  it('penalises a large document', () => {
    const s = pagespeed(
      healthyProbe({ response: { bodyBytesWire: 3_000_000, bodyBytesDecoded: 4_000_000 } }),
      NOW,
    )
    expect(s.score).toBe(91)
    expect(s.findings[0]).toEqual({
      severity: 'low',
      message:
        'The HTML document is 3 MB on the wire (aim for under 100 KB); move inline data and scripts out of it',
    })
  })

  it('takes 5 points for HTTP/1.1 only, none when alt-svc offers h3', () => {
    expect(pagespeed(healthyProbe({ response: { httpVersion: '1.1' } }), NOW).score).toBe(95)
    expect(
      pagespeed(
        healthyProbe({ response: { httpVersion: '1.1', headers: { 'alt-svc': 'h3=":443"; ma=86400' } } }),
        NOW,
      ).score,
    ).toBe(100)
  })

  describe('redirects', () => {
    const hop = (url: string, location: string) => ({ url, status: 301, location })

    it('does not count the one same-host http → https hop', () => {
      const s = pagespeed(
        healthyProbe({
          inputUrl: 'http://example.com/',
          redirects: [hop('http://example.com/', 'https://example.com/')],
        }),
        NOW,
      )
      expect(s.score).toBe(100)
    })

    it('takes 10 points per other hop', () => {
      const s = pagespeed(
        healthyProbe({
          inputUrl: 'http://example.com/',
          finalUrl: 'https://www.example.com/',
          redirects: [
            hop('http://example.com/', 'https://example.com/'),
            hop('https://example.com/', 'https://www.example.com/'),
          ],
        }),
        NOW,
      )
      expect(s.score).toBe(90)
      expect(s.findings[0]).toEqual({
        severity: 'low',
        message:
          'Redirect chain http://example.com/ → https://example.com/ → https://www.example.com/ costs 1 extra round trip; link straight to https://www.example.com/',
      })
    })

    it('takes all 20 redirect points from two counted hops on', () => {
      const redirects = [
        hop('https://example.com/', 'https://www.example.com/'),
        hop('https://www.example.com/', 'https://www.example.com/en/'),
        hop('https://www.example.com/en/', 'https://www.example.com/en/home'),
      ]
      const s = pagespeed(healthyProbe({ finalUrl: 'https://www.example.com/en/home', redirects }), NOW)
      expect(s.score).toBe(80)
      expect(s.findings[0].severity).toBe('medium')
    })
  })

  it('reports the HTML caching headers without scoring them', () => {
    const s = pagespeed(
      healthyProbe({
        response: {
          headers: {
            'cache-control': 'public, max-age=600',
            etag: '"abc"',
            'last-modified': 'Sun, 01 Nov 2026 00:00:00 GMT',
          },
        },
      }),
      NOW,
    )
    expect(s.score).toBe(100)
    expect(s.details.caching).toEqual({
      cacheControl: 'public, max-age=600',
      etag: '"abc"',
      lastModified: 'Sun, 01 Nov 2026 00:00:00 GMT',
      expires: null,
    })
    expect(s.findings).toContainEqual({
      severity: 'info',
      message:
        'HTML caching: Cache-Control "public, max-age=600", ETag, Last-Modified (reported, not scored: HTML is usually revalidated)',
    })
  })
})
