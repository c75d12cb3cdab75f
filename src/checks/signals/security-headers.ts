/**
 * Security headers of the final response, graded the MDN HTTP Observatory way: start at 100, add the
 * penalties (the "uncurved" score), and add bonuses only when the uncurved score is already ≥ 90.
 * Each header is read as browsers read it (src/checks/signals/headers/): repeated lines, `<meta>`
 * policies in the page, values browsers ignore (which count exactly as a missing header). Beside
 * the headers: cookies, Subresource Integrity of third-party scripts, and CORS.
 *
 * Plain-http sites: HSTS is ignored by browsers on http, so it is not listed as missing there; the
 * site takes Observatory's "no HTTPS" penalty instead, with a finding that says to move to https.
 */
import { STATUS_CODES } from 'node:http'
import { SECURITY_HEADERS } from '../thresholds.js'
import type { Finding, ProbeResult, Signal } from '../types.js'
import {
  hasResponse,
  hostOf,
  judged,
  plural,
  SEVERITY_RANK,
  shortUrl,
  unavailable,
  worstFinding,
} from './format.js'
import { judgeCookies } from './headers/cookies.js'
import { judgeCors } from './headers/cors.js'
import { judgeCsp } from './headers/csp.js'
import { Grade, MISSING_SEVERITY } from './headers/grade.js'
import { judgeHsts } from './headers/hsts.js'
import { judgeSri } from './headers/scripts.js'
import {
  judgeContentTypeOptions,
  judgeFrameOptions,
  judgePermissionsPolicy,
  judgeReferrer,
} from './headers/simple.js'

export type { WeakHeader } from './headers/grade.js'

/** Browsers refuse the final hop's certificate (untrusted chain, expired, wrong name): they show an error, not the page. */
function certificateRefused(probe: ProbeResult): string | null {
  const tls = probe.tls
  if (!tls) return null
  if (!tls.authorized) return tls.authorizationError ?? 'untrusted certificate'
  if (!tls.hostnameMatches) return 'certificate name does not match the host'
  return null
}

export function securityHeaders(probe: ProbeResult, _now: Date): Signal {
  const empty = { missing: [], weak: [], score: null }
  if (!hasResponse(probe))
    return unavailable(`${hostOf(probe.inputUrl)} gave no HTTP answer to read headers from`, empty)
  const status = probe.response.status
  if (!SECURITY_HEADERS.gradedStatus(status)) {
    return unavailable(
      `Security headers not judged: ${shortUrl(probe.finalUrl)} answers ${status} ${STATUS_CODES[status] ?? ''}`.trimEnd() +
        `, and an error page's headers say little about the site`,
      empty,
    )
  }

  const res = probe.response
  const https = new URL(probe.finalUrl).protocol === 'https:'
  const g = new Grade()
  const csp = judgeCsp(res, probe.page, https, g)
  const hsts = judgeHsts(res, https, g, certificateRefused(probe))
  judgeContentTypeOptions(res, g)
  judgeFrameOptions(res, csp, g)
  const referrer = judgeReferrer(res, probe.page, g)
  judgePermissionsPolicy(res, g)
  const cookies = judgeCookies(probe, hsts.passes, g)
  const sri = judgeSri(probe.page, probe.finalUrl, g)
  const cors = judgeCors(probe.cors, g)

  const uncurved = SECURITY_HEADERS.base + g.penalties
  const extraCredit = uncurved >= SECURITY_HEADERS.extraCreditMin
  // a finding that is listed (a missing header, a problem, or a note that costs points) is never "perfect"
  const listed = g.absent.size > 0 || g.penalties < 0 || g.findings.some((f) => f.severity !== 'info')
  const ceiling =
    g.weak.length > 0 ? SECURITY_HEADERS.weakValueCap : listed ? SECURITY_HEADERS.findingCap : 100
  const score = Math.max(0, Math.min(ceiling, uncurved + (extraCredit ? g.bonuses : 0)))

  // a header browsers ignore is as missing as an absent one (the findings say which were present)
  const ignored = new Set(g.ignored.map((i) => i.header))
  const missing = SECURITY_HEADERS.order.filter((h) => g.absent.has(h) || ignored.has(h))
  const absent = SECURITY_HEADERS.order.filter((h) => g.absent.has(h))
  const findings: Finding[] = []
  if (absent.length > 0) {
    const severity = absent
      .map((h) => MISSING_SEVERITY[h])
      .reduce((a, b) => (SEVERITY_RANK[b] > SEVERITY_RANK[a] ? b : a))
    findings.push({
      severity,
      message: `Missing ${plural(absent.length, 'security header')}: ${absent.join(', ')}`,
    })
  }
  findings.push(...g.findings.sort((a, b) => SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity]))

  const problem = worstFinding(findings.filter((f) => f.severity !== 'info'))
  const message = problem?.message ?? `All recommended security headers are set (${score}/100)`
  return judged(score, message, findings, {
    missing,
    ignored: g.ignored,
    weak: g.weak,
    score,
    uncurvedScore: Math.max(0, uncurved),
    extraCredit,
    notApplicable: https ? [] : ['strict-transport-security'],
    present: SECURITY_HEADERS.order.filter((h) => res.headers[h] !== undefined),
    csp: csp.details,
    hstsMaxAge: hsts.maxAge,
    referrerPolicy: referrer,
    cookies,
    sri,
    cors,
  })
}
