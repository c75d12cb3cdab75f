// Cookies judged as the MDN HTTP Observatory (cookies test modifiers) and the OWASP Session
// Management Cheat Sheet do, with the browser rules of RFC 6265bis (Secure, HttpOnly, SameSite,
// __Host-/__Secure- prefixes).
import { describe, expect, it } from 'vitest'
import type { Signal } from '../../../../src/checks/types.js'
import { judgeWith, messages } from './helpers.js'

const withCookies = (setCookies: string[], opts: Parameters<typeof judgeWith>[1] = {}) =>
  judgeWith(
    {},
    { ...opts, overrides: { ...opts.overrides, response: { ...opts.overrides?.response, setCookies } } },
  )
const cookieDetails = (s: Signal) =>
  s.details.cookies as { count: number; cookies: Array<Record<string, unknown>> }

describe('cookies (Observatory cookies test, OWASP session management)', () => {
  it('a perfect site with a script-readable session cookie without Secure no longer scores 100', () => {
    // healthy HSTS: Observatory's "session cookie without Secure but protected by HSTS" (−10), and
    // "session cookie without HttpOnly" (−30) is the worst result
    const s = withCookies(['SESSIONID=abc123; Path=/'])
    expect(s.score).toBe(70)
    expect(s.status).toBe('warning')
    expect(s.message).toBe(
      'Cookie "SESSIONID": session cookie without HttpOnly, so any injected script can steal it',
    )
    expect(messages(s)).toContain(
      'Cookie "SESSIONID": session cookie without Secure (HSTS keeps it on https)',
    )
  })

  it('a session cookie without Secure and without HSTS is the worst result (−40)', () => {
    const s = withCookies(['sessionid=abc; HttpOnly; SameSite=Lax'], {
      overrides: { response: { headers: { 'strict-transport-security': undefined } } },
    })
    expect(s.details.uncurvedScore).toBe(100 - 20 - 40)
  })

  it('Secure, HttpOnly sessions and SameSite everywhere earn the bonus and no finding', () => {
    const s = withCookies([
      '__Host-sid=1; Secure; HttpOnly; Path=/; SameSite=Lax',
      'theme=dark; Secure; SameSite=Strict',
    ])
    expect(s.findings).toEqual([])
    expect(s.score).toBe(100)
    expect(cookieDetails(s).count).toBe(2)
  })

  it('any non-session cookie without Secure on https: −20 without HSTS, −5 with it', () => {
    const noHsts = withCookies(['theme=dark; SameSite=Lax'], {
      overrides: { response: { headers: { 'strict-transport-security': undefined } } },
    })
    expect(noHsts.details.uncurvedScore).toBe(100 - 20 - 20)
    expect(messages(noHsts)).toContain('Cookie "theme": without Secure, so it can be read on the network')
    const hsts = withCookies(['theme=dark; SameSite=Lax'])
    expect(hsts.details.uncurvedScore).toBe(95)
  })

  it('any cookie over plain http is a finding', () => {
    const s = withCookies(['theme=dark; SameSite=Lax'], {
      finalUrl: 'http://example.com/',
      overrides: { tls: null, response: { headers: { 'strict-transport-security': undefined } } },
    })
    expect(messages(s)).toContain('Cookie "theme": over plain http, so it can be read on the network')
  })

  it('an invalid SameSite, and SameSite=None without Secure, are invalid (−20)', () => {
    const bogus = withCookies(['pref=1; Secure; SameSite=Sometimes'])
    expect(messages(bogus)).toContain('Cookie "pref": SameSite "Sometimes" is not Lax, Strict or None')
    expect(bogus.details.uncurvedScore).toBe(80)
    const none = withCookies(['pref=1; SameSite=None'])
    expect(messages(none)).toContain('Cookie "pref": SameSite=None without Secure, which browsers reject')
  })

  it('an anti-CSRF cookie needs SameSite but not HttpOnly (scripts must read it)', () => {
    const s = withCookies(['csrftoken=abc; Secure'])
    expect(messages(s)).toEqual(['Cookie "csrftoken": anti-CSRF cookie without SameSite'])
    expect(withCookies(['csrftoken=abc; Secure; SameSite=Lax']).findings).toEqual([])
  })

  it('reports broken __Host- and __Secure- prefixes (RFC 6265bis §4.1.3): browsers drop those cookies', () => {
    const s = withCookies([
      '__Host-id=1; Secure; Domain=example.com; Path=/; SameSite=Lax',
      '__Secure-id=1; SameSite=Lax',
    ])
    expect(messages(s)).toEqual(
      expect.arrayContaining([
        'Cookie "__Host-id": the __Host- prefix needs Path=/ and no Domain, so browsers drop the cookie',
        'Cookie "__Secure-id": the __Secure- prefix needs Secure and https, so browsers drop the cookie',
      ]),
    )
  })

  it('judges cookies set on a redirect hop, by the scheme of that hop', () => {
    const s = withCookies([], {
      overrides: {
        redirects: [
          {
            url: 'http://example.com/login',
            status: 302,
            location: 'https://example.com/',
            setCookies: ['login_token=x; HttpOnly'],
          },
        ],
      },
    })
    expect(messages(s)).toContain(
      'Cookie "login_token": session cookie over plain http, so it can be read on the network',
    )
  })

  it('does not judge a Set-Cookie that deletes the cookie (RFC 6265bis §5.7: nothing is stored)', () => {
    const s = withCookies([
      'sessionid=; Max-Age=0; Path=/',
      'login=; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Path=/',
    ])
    expect(s.findings).toEqual([])
    expect(cookieDetails(s).count).toBe(0)
  })

  it('groups many cookies with one problem and bounds what details keep', () => {
    const lines = Array.from({ length: 30 }, (_, i) => `c${i}=${'v'.repeat(100)}; SameSite=Lax`)
    const s = withCookies(lines, {
      overrides: { response: { headers: { 'strict-transport-security': undefined } } },
    })
    expect(messages(s)).toContain(
      '30 cookies ("c0", "c1", "c2" and 27 more): without Secure, so it can be read on the network',
    )
    expect(cookieDetails(s).count).toBe(30)
    expect(cookieDetails(s).cookies).toHaveLength(20)
    expect(JSON.stringify(s.details.cookies)).not.toContain('vvvv')
  })
})
