/**
 * What `get` shows under each signal: the measurements the saved check's `details` carry
 * (certificate issuer and expiry, TLS version, the timing breakdown, headers present / missing /
 * weak). `details` is an open record written by the engine: every value is read defensively and
 * a line is left out when its values are missing or of another type.
 */
import type { SavedCheck } from '../../contract/index.js'
// the engine's own units, so the measured lines read like the messages above them
import { fmtBytes as formatBytes, fmtDuration as formatDuration } from '../../shared/index.js'

type Details = Record<string, unknown> | undefined

const num = (d: Details, k: string): number | undefined =>
  typeof d?.[k] === 'number' && Number.isFinite(d[k]) ? d[k] : undefined
const str = (d: Details, k: string): string | undefined =>
  typeof d?.[k] === 'string' && d[k] !== '' ? d[k] : undefined
const bool = (d: Details, k: string): boolean | undefined => (typeof d?.[k] === 'boolean' ? d[k] : undefined)

function reachability(d: Details): string[] {
  const parts: string[] = []
  const status = num(d, 'statusCode')
  if (status !== undefined) parts.push(`HTTP ${status}`)
  const version = str(d, 'httpVersion')
  if (version) parts.push(version.startsWith('HTTP') ? version : `HTTP/${version}`)
  const redirects = num(d, 'redirectCount')
  const final = str(d, 'finalUrl')
  if (redirects)
    parts.push(`${redirects} redirect${redirects === 1 ? '' : 's'}${final ? ` to ${final}` : ''}`)
  return parts.length ? [`answer: ${parts.join(', ')}`] : []
}

function httpsSsl(d: Details): string[] {
  const lines: string[] = []
  const validTo = str(d, 'validTo')
  const daysLeft = num(d, 'daysLeft')
  const issuer = str(d, 'issuer')
  if (validTo || issuer) {
    const expiry = validTo
      ? `${daysLeft !== undefined && daysLeft < 0 ? 'expired' : 'expires'} ${validTo.slice(0, 10)}` +
        (daysLeft !== undefined ? ` (${daysLeft < 0 ? `${-daysLeft} days ago` : `in ${daysLeft} days`})` : '')
      : undefined
    lines.push(`certificate: ${[expiry, issuer && `issued by ${issuer}`].filter(Boolean).join(', ')}`)
  }
  const protocol = str(d, 'protocol') ?? str(d, 'tlsVersion')
  const authorized = bool(d, 'authorized')
  const trust =
    authorized === undefined
      ? undefined
      : authorized
        ? 'chain trusted'
        : `chain not trusted${str(d, 'authorizationError') ? ` (${str(d, 'authorizationError')})` : ''}`
  const tls = [protocol, trust].filter(Boolean)
  if (tls.length) lines.push(`tls: ${tls.join(', ')}`)
  return lines
}

const TIMING_PHASES: Array<[string, string]> = [
  ['dnsMs', 'dns'],
  ['connectMs', 'connect'],
  ['tlsMs', 'tls'],
  ['serverWaitMs', 'server'],
  ['redirectMs', 'redirects'],
  ['ttfbMs', 'first byte'],
  ['totalMs', 'total'],
]

function responseTime(d: Details): string[] {
  const parts = TIMING_PHASES.flatMap(([key, label]) => {
    const ms = num(d, key)
    // a phase that did not happen (no TLS on http, no redirect) is noise, not a measurement
    if (ms === undefined || (ms === 0 && (key === 'redirectMs' || key === 'tlsMs'))) return []
    return [`${label} ${formatDuration(ms)}`]
  })
  return parts.length ? [`timing: ${parts.join(', ')}`] : []
}

function headerNames(d: Details, key: string): string[] {
  const v = d?.[key]
  if (!Array.isArray(v)) return []
  return v.flatMap((item: unknown) => {
    if (typeof item === 'string') return [item]
    if (item && typeof item === 'object' && typeof (item as { header?: unknown }).header === 'string') {
      const { header, problem } = item as { header: string; problem?: unknown }
      return [typeof problem === 'string' ? `${header} (${problem})` : header]
    }
    return []
  })
}

function securityHeaders(d: Details): string[] {
  const lines: string[] = []
  for (const [key, label] of [
    ['present', 'present'],
    ['missing', 'missing'],
    ['weak', 'weak'],
  ] as const) {
    const names = headerNames(d, key)
    if (names.length) lines.push(`${label}: ${names.join(', ')}`)
  }
  return lines
}

function pagespeed(d: Details): string[] {
  const score = num(d, 'performanceScore')
  const parts: string[] = []
  const method = str(d, 'method')
  const how =
    method === 'lab'
      ? `, measured by Lighthouse ${str(d, 'lighthouseVersion') ?? ''}`.trimEnd()
      : method === 'estimate'
        ? ', estimated'
        : ''
  if (score !== undefined) parts.push(`performance ${score}/100${how}`)
  const wire = num(d, 'bodyBytesWire')
  if (wire !== undefined) parts.push(`${formatBytes(wire)} on the wire`)
  const enc = str(d, 'contentEncoding')
  if (enc && enc !== 'identity') parts.push(`${enc}-compressed`)
  return parts.length ? [`page: ${parts.join(', ')}`] : []
}

/** The measured lines of each signal of a saved check, by the saved check's signal names. */
export function measuredLines(checks: SavedCheck['checks']): Record<keyof SavedCheck['checks'], string[]> {
  return {
    reachability: reachability(checks.reachability.details),
    https_ssl: httpsSsl(checks.https_ssl.details),
    response_time: responseTime(checks.response_time.details),
    security_headers: securityHeaders(checks.security_headers.details),
    pagespeed: pagespeed(checks.pagespeed.details),
  }
}
