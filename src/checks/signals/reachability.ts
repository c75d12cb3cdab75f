/**
 * Reachability: does the URL end on a page a visitor can see? Judged from the final HTTP status and
 * the redirect chain. Certificate errors are judged once, by https_ssl (which also caps the health
 * score), rather than counted twice here.
 */
import { STATUS_CODES } from 'node:http'
import { REACHABILITY } from '../thresholds.js'
import type { Finding, ProbeResult, Signal } from '../types.js'
import {
  fmtDuration,
  hasResponse,
  hostOf,
  judged,
  plural,
  shortUrl,
  unavailable,
  worstFinding,
} from './format.js'

export function reachability(probe: ProbeResult, _now: Date): Signal {
  const host = hostOf(probe.inputUrl)
  const hops = probe.redirects
  const details = {
    statusCode: hasResponse(probe) ? probe.response.status : null,
    finalUrl: shortUrl(probe.finalUrl, 300),
    redirects: hops.map((h) => shortUrl(h.url, 300)),
    redirectCount: hops.length,
    redirectLimitExceeded: probe.redirectLimitExceeded,
    responseTimeMs: Math.round(probe.timings.ttfbMs),
    httpVersion: hasResponse(probe) ? probe.response.httpVersion : null,
  }
  if (!hasResponse(probe)) return unavailable(`${host} gave no HTTP answer`, details)

  const status = probe.response.status
  const answer = `${status} ${STATUS_CODES[status] ?? 'Unknown Status'}`
  const findings: Finding[] = []
  let score: number = REACHABILITY.scores.ok

  if (probe.redirectLimitExceeded) {
    const chain = redirectChain(probe)
    const loop = new Set(chain).size < chain.length
    findings.push({
      severity: 'high',
      message: loop
        ? `Redirect loop: ${showChain(chain)} (fix the redirect rules so the chain ends on a page)`
        : `Too many redirects: still redirecting after ${plural(hops.length, 'hop')} (${showChain(chain)}); link straight to the final page`,
    })
    score = REACHABILITY.scores.needs_review
  } else if (status >= REACHABILITY.okStatus.min && status <= REACHABILITY.okStatus.max) {
    if (hops.length > 0) {
      findings.push({
        severity: 'info',
        message: `Redirected ${plural(hops.length, 'time')}: ${showChain(redirectChain(probe))}`,
      })
    }
  } else if (REACHABILITY.warningStatuses.includes(status)) {
    findings.push({
      severity: 'medium',
      message: `${shortUrl(probe.finalUrl)} answers ${answer}: ${warningAdvice(status)}`,
    })
    score = REACHABILITY.scores.warning
  } else if (status < 200 || (status >= 300 && status < 400)) {
    findings.push({
      severity: 'medium',
      message: `${shortUrl(probe.finalUrl)} answers ${answer} without a page to show${REDIRECTS.has(status) ? ' (a redirect with no usable Location)' : ''}`,
    })
    score = REACHABILITY.scores.warning
  } else {
    findings.push({
      severity: 'high',
      message:
        status >= 500
          ? `Server error: ${shortUrl(probe.finalUrl)} answers ${answer}; check the server's logs`
          : `${shortUrl(probe.finalUrl)} answers ${answer}; visitors see an error page instead of the site`,
    })
    score = REACHABILITY.scores.needs_review
  }

  const problem = worstFinding(findings.filter((f) => f.severity !== 'info'))
  const after = hops.length > 0 ? ` after ${plural(hops.length, 'redirect')}` : ''
  const message =
    problem?.message ?? `${host} is up: ${answer} in ${fmtDuration(probe.timings.ttfbMs)}${after}`
  return judged(score, message, findings, details)
}

const REDIRECTS = new Set([301, 302, 303, 307, 308])

/** Every URL visited, then where the last one points when the chain was cut short. */
function redirectChain(probe: ProbeResult): string[] {
  const chain = [...probe.redirects.map((h) => h.url), probe.finalUrl]
  const next = probe.redirectLimitExceeded ? probe.response.headers.location : undefined
  if (next) {
    try {
      chain.push(new URL(next, probe.finalUrl).href)
    } catch {
      chain.push(next)
    }
  }
  return chain
}

/** The chain as a message shows it, each URL shortened: the site chose them (issue 16). */
const showChain = (chain: string[]) => chain.map((url) => shortUrl(url)).join(' → ')

function warningAdvice(status: number): string {
  if (status === 401) return 'visitors must log in before they see anything'
  if (status === 403) return 'the server refuses access (check access rules, firewall or bot protection)'
  return 'the server is rate-limiting requests (check bot protection or capacity)'
}
