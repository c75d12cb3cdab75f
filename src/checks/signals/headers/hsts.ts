/**
 * Strict-Transport-Security as browsers process it (RFC 6797):
 * - only over https (§8.1: a UA ignores it on plain http);
 * - only the first header field when there are several (§8.1: "process only the first such header
 *   field"), so HSTS sent twice still protects when the first is good. Repeated lines arrive joined
 *   with commas over HTTP/2 (and may be over HTTP/1.1), and the §6.1 grammar has no comma outside a
 *   quoted string, so the first value is the text before the first comma;
 * - never over a connection with certificate errors (§8.1): a certificate browsers refuse makes
 *   them ignore the header, so it earns nothing;
 * - a value that does not parse (§6.1 grammar: `;`-separated directives, each at most once,
 *   max-age required as delta-seconds, optionally quoted) is ignored, and max-age=0 removes the
 *   host from the known HSTS hosts (§6.1.1): both protect exactly as much as no header.
 */
import { SECURITY_HEADERS } from '../../thresholds.js'
import type { ProbeResponse } from '../../types.js'
import { plural } from '../format.js'
import { headerValues, type Grade } from './grade.js'

const M = SECURITY_HEADERS.modifiers
const FIX = `use "max-age=31536000; includeSubDomains"`

export interface HstsResult {
  /** Browsers keep the host on https for at least Observatory's six months. */
  passes: boolean
  maxAge: number | null
}

export function judgeHsts(
  response: ProbeResponse,
  https: boolean,
  g: Grade,
  certificateRefused: string | null = null,
): HstsResult {
  const none: HstsResult = { passes: false, maxAge: null }
  if (!https) {
    g.note(
      'medium',
      'Served over plain http, so Strict-Transport-Security cannot protect visitors; move the site to https first',
      M.hstsPlainHttp,
    )
    return none
  }
  const values = headerValues(response, 'strict-transport-security')
  if (values.length === 0 || !values[0]) {
    g.lack('strict-transport-security', M.hstsMissing)
    return none
  }
  if (certificateRefused !== null) {
    // RFC 6797 §8.1: a UA ignores STS received over a connection with certificate errors (the
    // visitor sees the certificate error page, so the header never takes effect); Observatory −20
    g.ignore(
      'strict-transport-security',
      'certificate refused by browsers',
      M.hstsInvalidCert,
      `Strict-Transport-Security is ignored by browsers because they refuse this certificate (${certificateRefused}); fix the certificate first`,
    )
    return none
  }
  if (values.length > 1) {
    g.note(
      'info',
      `Strict-Transport-Security is sent with ${values.length} values; browsers use only the first (RFC 6797 §8.1)`,
    )
  }

  const parsed = parseHsts(values[0])
  if (parsed === null || parsed.maxAge === null) {
    const why = parsed === null ? 'does not parse' : 'has no max-age'
    g.ignore(
      'strict-transport-security',
      parsed === null ? 'unparsable value' : 'no max-age',
      M.hstsMissing,
      `Strict-Transport-Security ${why}, so browsers ignore it; ${FIX}`,
    )
    return none
  }
  const seconds = parsed.maxAge
  if (seconds === 0) {
    g.ignore(
      'strict-transport-security',
      'max-age=0',
      M.hstsMissing,
      `Strict-Transport-Security max-age=0 tells browsers to forget HSTS for this host, the same as no header; ${FIX}`,
    )
    return { passes: false, maxAge: 0 }
  }
  if (seconds < SECURITY_HEADERS.hstsMinMaxAge) {
    const minDays = SECURITY_HEADERS.hstsMinMaxAge / 86_400
    const days = Math.floor(seconds / 86_400)
    const actual = days >= 1 ? `${plural(days, 'day')} (${seconds} s)` : `${seconds} s`
    const problem = `max-age is ${actual}, under ${minDays} days`
    g.weaken(
      'strict-transport-security',
      problem,
      M.hstsShort,
      'low',
      `Strict-Transport-Security is weak: ${problem}; use at least ${minDays} days (${SECURITY_HEADERS.hstsMinMaxAge} s)`,
    )
    return { passes: false, maxAge: seconds }
  }
  return { passes: true, maxAge: seconds }
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/

/** RFC 6797 §6.1; null when the value does not follow the grammar (a UA then ignores the header). */
export function parseHsts(value: string): { maxAge: number | null; includeSubDomains: boolean } | null {
  const seen = new Set<string>()
  let maxAge: number | null = null
  for (const raw of value.split(';')) {
    const part = raw.trim()
    if (!part) continue
    const eq = part.indexOf('=')
    const name = (eq < 0 ? part : part.slice(0, eq)).trim().toLowerCase()
    let arg = eq < 0 ? null : part.slice(eq + 1).trim()
    if (!TOKEN.test(name) || seen.has(name)) return null
    seen.add(name)
    if (arg !== null && /^".*"$/.test(arg)) arg = arg.slice(1, -1)
    else if (arg !== null && !TOKEN.test(arg)) return null
    if (name === 'max-age') {
      if (arg === null || !/^\d+$/.test(arg)) return null
      maxAge = Number(arg)
    }
  }
  return { maxAge, includeSubDomains: seen.has('includesubdomains') }
}
