/**
 * Cookies set by the final response and by every redirect hop on the way, judged as the MDN HTTP
 * Observatory's cookies test and the OWASP Session Management Cheat Sheet judge them, with the
 * browser rules of RFC 6265bis:
 * - `Secure` on every cookie over https; any cookie over plain http travels readable on the network
 *   (and a `Secure` one set over http is dropped by browsers, §5.7);
 * - `HttpOnly` on session-like cookies (Observatory: names with "sess" or "login"; OWASP adds the
 *   usual session names), never asked of anti-CSRF cookies, which scripts must read;
 * - a `SameSite` value browsers know (Lax, Strict, None), and None only with Secure (browsers reject
 *   SameSite=None without Secure); anti-CSRF cookies need SameSite at all (Observatory);
 * - the `__Secure-` / `__Host-` prefixes (§4.1.3): Secure, set from https, and for __Host- no
 *   Domain and Path=/; browsers drop a cookie that breaks them.
 * A Set-Cookie that deletes a cookie (Max-Age ≤ 0, Expires in the past) is not judged: the browser
 * keeps nothing (Observatory judges its cookie jar, where such cookies are gone too).
 * Set-Cookie lines are parsed with set-cookie-parser; names and values are never put in messages
 * beyond a short excerpt of the name.
 */
import setCookie, { type Cookie } from 'set-cookie-parser'
import { SECURITY_HEADERS } from '../../thresholds.js'
import type { ProbeResult } from '../../types.js'
import { clip, excerpt, plural } from '../format.js'
import type { Grade, Severity } from './grade.js'

const M = SECURITY_HEADERS.modifiers

export interface CookieSummary {
  name: string
  secure: boolean
  httpOnly: boolean
  sameSite: string | null
  session: boolean
  problems: string[]
}

export interface CookiesResult {
  count: number
  /** At most SECURITY_HEADERS.maxCookiesListed, names clipped. */
  cookies: CookieSummary[]
}

interface Issue {
  points: number
  severity: Severity
  text: string
}

export function judgeCookies(probe: ProbeResult, hstsPasses: boolean, g: Grade): CookiesResult {
  const lines = [
    ...probe.redirects.flatMap((hop) => (hop.setCookies ?? []).map((line) => ({ line, url: hop.url }))),
    ...probe.response.setCookies.map((line) => ({ line, url: probe.finalUrl })),
  ]
  const result: CookiesResult = { count: 0, cookies: [] }
  const issues: Array<Issue & { name: string }> = []

  for (const { line, url } of lines) {
    const https = url.startsWith('https:')
    const [cookie] = setCookie.parse(line, { decodeValues: false })
    if (!cookie || deletes(cookie, probe.startedAt)) continue
    result.count++
    const name = cookie.name
    const lower = name.toLowerCase()
    const csrf = SECURITY_HEADERS.csrfCookie.test(name)
    const session = !csrf && SECURITY_HEADERS.sessionCookie.test(name)
    const secure = cookie.secure === true
    const rawSameSite = sameSiteAttribute(line)
    const sameSite = rawSameSite?.toLowerCase() ?? null
    const found: Issue[] = []

    const secureIssue = secureJudgement(secure, https, session, hstsPasses)
    if (secureIssue) found.push(secureIssue)
    if (session && cookie.httpOnly !== true)
      found.push({
        points: M.cookieSessionNoHttpOnly,
        severity: 'high',
        text: 'session cookie without HttpOnly, so any injected script can steal it',
      })
    if (rawSameSite !== null && !['lax', 'strict', 'none'].includes(sameSite ?? ''))
      found.push({
        points: M.cookieSameSiteInvalid,
        severity: 'medium',
        text: `SameSite ${excerpt(rawSameSite, 20)} is not Lax, Strict or None`,
      })
    else if (sameSite === 'none' && !secure)
      found.push({
        points: M.cookieSameSiteInvalid,
        severity: 'medium',
        text: 'SameSite=None without Secure, which browsers reject',
      })
    if (csrf && rawSameSite === null)
      found.push({
        points: M.cookieCsrfNoSameSite,
        severity: 'medium',
        text: 'anti-CSRF cookie without SameSite',
      })
    const prefix = lower.startsWith('__host-')
      ? '__Host-'
      : lower.startsWith('__secure-')
        ? '__Secure-'
        : null
    if (prefix) {
      const broken =
        !secure || !https
          ? 'needs Secure and https'
          : prefix === '__Host-' && (cookie.domain !== undefined || cookie.path !== '/')
            ? 'needs Path=/ and no Domain'
            : null
      if (broken)
        found.push({
          points: M.cookiePrefixBroken,
          severity: 'low',
          text: `the ${prefix} prefix ${broken}, so browsers drop the cookie`,
        })
    }

    issues.push(...found.map((f) => ({ ...f, name })))
    if (result.cookies.length < SECURITY_HEADERS.maxCookiesListed)
      result.cookies.push({
        name: clip(name, 64),
        secure,
        httpOnly: cookie.httpOnly === true,
        sameSite: rawSameSite === null ? null : clip(rawSameSite, 20),
        session,
        problems: found.map((f) => f.text),
      })
  }

  if (result.count === 0) return result
  // Observatory's bonus: every cookie clean and every one with a SameSite attribute
  if (issues.length === 0 && result.cookies.every((c) => c.sameSite !== null)) g.add(M.cookiesAllGood)
  // the worst result counts once (Observatory onlyIfWorse); each problem is still reported
  const worst = Math.min(0, ...issues.map((i) => i.points))
  g.add(worst)
  const byText = new Map<string, { severity: Severity; names: string[] }>()
  for (const i of issues) {
    const entry = byText.get(i.text) ?? { severity: i.severity, names: [] }
    entry.names.push(i.name)
    byText.set(i.text, entry)
  }
  for (const [text, { severity, names }] of byText) {
    const shown = names.slice(0, 3).map((n) => excerpt(n, 30))
    const more = names.length > 3 ? ` and ${names.length - 3} more` : ''
    const subject =
      names.length === 1
        ? `Cookie ${shown[0]}`
        : `${plural(names.length, 'cookie')} (${shown.join(', ')}${more})`
    g.note(severity, `${subject}: ${text}`)
  }
  return result
}

/** A Set-Cookie that removes a cookie (Max-Age ≤ 0 or Expires in the past) leaves nothing to steal. */
function deletes(cookie: Cookie, now: string): boolean {
  if (cookie.maxAge !== undefined) return cookie.maxAge <= 0
  return cookie.expires !== undefined && cookie.expires.getTime() <= new Date(now).getTime()
}

/** The raw SameSite attribute value of a Set-Cookie line (the last one wins, RFC 6265bis §5.7), or null. */
function sameSiteAttribute(line: string): string | null {
  let value: string | null = null
  for (const part of line.split(';').slice(1)) {
    const eq = part.indexOf('=')
    const name = (eq < 0 ? part : part.slice(0, eq)).trim().toLowerCase()
    if (name === 'samesite') value = eq < 0 ? '' : part.slice(eq + 1).trim()
  }
  return value
}

/** The cookie's Secure attribute: missing (worse for a session cookie, softened by HSTS), or useless over http. */
function secureJudgement(
  secure: boolean,
  https: boolean,
  session: boolean,
  hstsPasses: boolean,
): Issue | undefined {
  if (!secure) {
    const where = https ? 'without Secure' : 'over plain http'
    if (session)
      return hstsPasses && https
        ? {
            points: M.cookieSessionNoSecureHsts,
            severity: 'low',
            text: `session cookie ${where} (HSTS keeps it on https)`,
          }
        : {
            points: M.cookieSessionNoSecure,
            severity: 'high',
            text: `session cookie ${where}, so it can be read on the network`,
          }
    else
      return hstsPasses && https
        ? { points: M.cookieNoSecureHsts, severity: 'info', text: `${where} (HSTS keeps it on https)` }
        : {
            points: M.cookieNoSecure,
            severity: 'medium',
            text: `${where}, so it can be read on the network`,
          }
  } else if (!https) {
    return { points: 0, severity: 'info', text: 'Secure but set over plain http, so browsers drop it' }
  }
  return undefined
}
