/**
 * Security headers of the final response, graded the MDN HTTP Observatory way: start at 100, add the
 * penalties (the "uncurved" score), and add bonuses only when the uncurved score is already ≥ 90.
 * A missing header and a weak value are both reported; the list of missing headers has a stable order.
 *
 * Plain-http sites: HSTS is ignored by browsers on http, so it is not listed as missing there; the
 * site takes Observatory's "no HTTPS" penalty instead, with a finding that says to move to https.
 */
import { STATUS_CODES } from 'node:http'
import { SECURITY_HEADERS } from '../thresholds.js'
import type { Finding, ProbeResult, Signal } from '../types.js'
import { hasResponse, hostOf, judged, plural, SEVERITY_RANK, unavailable, worstFinding } from './format.js'

type HeaderName = (typeof SECURITY_HEADERS.order)[number]
type Severity = Finding['severity']

export interface WeakHeader {
  header: HeaderName
  problem: string
}

const M = SECURITY_HEADERS.modifiers

/** How much a header's absence matters, for the severity of the "Missing …" finding. */
const MISSING_SEVERITY: Record<HeaderName, Severity> = {
  'content-security-policy': 'medium',
  'strict-transport-security': 'medium',
  'x-content-type-options': 'low',
  'x-frame-options': 'medium',
  'referrer-policy': 'low',
  'permissions-policy': 'low',
}

const REFERRER_PRIVATE = ['no-referrer', 'same-origin', 'strict-origin', 'strict-origin-when-cross-origin']
const REFERRER_UNSAFE = ['origin', 'origin-when-cross-origin', 'unsafe-url', 'no-referrer-when-downgrade']

/** Collects Observatory modifiers, missing headers and weak values as the tests run. */
class Grade {
  readonly missing = new Set<HeaderName>()
  readonly weak: WeakHeader[] = []
  readonly findings: Finding[] = []
  penalties = 0
  bonuses = 0

  add(points: number) {
    if (points < 0) this.penalties += points
    else this.bonuses += points
  }
  lack(header: HeaderName, points: number) {
    this.missing.add(header)
    this.add(points)
  }
  weaken(header: HeaderName, problem: string, points: number, severity: Severity, message: string) {
    this.weak.push({ header, problem })
    this.findings.push({ severity, message })
    this.add(points)
  }
}

export function securityHeaders(probe: ProbeResult, _now: Date): Signal {
  const empty = { missing: [], weak: [], score: null }
  if (!hasResponse(probe))
    return unavailable(`${hostOf(probe.inputUrl)} gave no HTTP answer to read headers from`, empty)
  const status = probe.response.status
  if (!SECURITY_HEADERS.gradedStatus(status)) {
    return unavailable(
      `Security headers not judged: ${probe.finalUrl} answers ${status} ${STATUS_CODES[status] ?? ''}`.trimEnd() +
        `, and an error page's headers say little about the site`,
      empty,
    )
  }

  const headers = probe.response.headers
  const https = new URL(probe.finalUrl).protocol === 'https:'
  const g = new Grade()
  const csp = contentSecurityPolicy(headers, g)
  strictTransportSecurity(headers, https, g)
  contentTypeOptions(headers, g)
  frameOptions(headers, csp.frameAncestors, g)
  referrerPolicy(headers, g)
  if (!headers['permissions-policy']?.trim()) g.lack('permissions-policy', M.permissionsMissing)

  const uncurved = SECURITY_HEADERS.base + g.penalties
  const extraCredit = uncurved >= SECURITY_HEADERS.extraCreditMin
  const ceiling = g.weak.length > 0 ? SECURITY_HEADERS.weakValueCap : 100
  const score = Math.max(0, Math.min(ceiling, uncurved + (extraCredit ? g.bonuses : 0)))

  const missing = SECURITY_HEADERS.order.filter((h) => g.missing.has(h))
  const findings: Finding[] = []
  if (missing.length > 0) {
    const severity = missing
      .map((h) => MISSING_SEVERITY[h])
      .reduce((a, b) => (SEVERITY_RANK[b] > SEVERITY_RANK[a] ? b : a))
    findings.push({
      severity,
      message: `Missing ${plural(missing.length, 'security header')}: ${missing.join(', ')}`,
    })
  }
  findings.push(...g.findings.sort((a, b) => SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity]))

  const problem = worstFinding(findings.filter((f) => f.severity !== 'info'))
  const message = problem?.message ?? `All recommended security headers are set (${score}/100)`
  return judged(score, message, findings, {
    missing,
    weak: g.weak,
    score,
    uncurvedScore: Math.max(0, uncurved),
    extraCredit,
    notApplicable: https ? [] : ['strict-transport-security'],
    present: SECURITY_HEADERS.order.filter((h) => headers[h] !== undefined),
  })
}

// ---- Content-Security-Policy ----

interface CspVerdict {
  points: number
  problems: Array<{ problem: string; points: number }>
}

function contentSecurityPolicy(headers: Record<string, string>, g: Grade): { frameAncestors: boolean } {
  const value = headers['content-security-policy']?.trim()
  if (!value) {
    g.lack(
      'content-security-policy',
      value === undefined && headers['content-security-policy-report-only'] ? M.cspReportOnly : M.cspMissing,
    )
    if (headers['content-security-policy-report-only']) {
      g.findings.push({
        severity: 'low',
        message:
          'Only Content-Security-Policy-Report-Only is set: it reports violations but blocks nothing; enforce it as Content-Security-Policy once the reports are clean',
      })
    }
    return { frameAncestors: false }
  }

  // Several policies (the header sent twice, joined with ", ") are all enforced, so the strictest governs.
  const policies = value.split(',').map(parsePolicy)
  const verdicts = policies.map(judgePolicy)
  const best = verdicts.reduce((a, b) => (b.points > a.points ? b : a))
  for (const p of best.problems) {
    g.weaken(
      'content-security-policy',
      p.problem,
      0,
      p.points <= M.cspUnsafeInline ? 'medium' : 'low',
      `Content-Security-Policy is weak: ${p.problem}`,
    )
  }
  g.add(best.points)
  return { frameAncestors: policies.some((p) => p.has('frame-ancestors')) }
}

/** Directive name → lowercased source tokens; the first occurrence of a directive wins (CSP spec). */
function parsePolicy(policy: string): Map<string, string[]> {
  const directives = new Map<string, string[]>()
  for (const part of policy.split(';')) {
    const [name, ...sources] = part.trim().toLowerCase().split(/\s+/)
    if (name && !directives.has(name)) directives.set(name, sources)
  }
  return directives
}

const BROAD_SOURCES = new Set(['*', 'http:', 'https:', 'ftp:', 'http://*', 'https://*', 'ftp://*'])

function judgePolicy(d: Map<string, string[]>): CspVerdict {
  const problems: CspVerdict['problems'] = []
  const scriptName = d.has('script-src') ? 'script-src' : 'default-src'
  const script = d.get('script-src') ?? d.get('default-src')

  if (!script) {
    problems.push({
      problem: 'neither script-src nor default-src is set, so scripts are not restricted',
      points: M.cspNoScriptRestriction,
    })
  } else {
    const nonceOrHash = script.some((s) => /^'(nonce-|sha256-|sha384-|sha512-)/.test(s))
    const strictDynamic = nonceOrHash && script.includes("'strict-dynamic'")
    if (script.includes("'unsafe-inline'") && !nonceOrHash) {
      problems.push({
        problem: `'unsafe-inline' in ${scriptName} without a nonce or hash`,
        points: M.cspUnsafeInline,
      })
    }
    if (!strictDynamic) {
      // 'strict-dynamic' with a nonce/hash makes browsers ignore host and scheme sources
      const broad = script.filter((s) => BROAD_SOURCES.has(s))
      if (broad.length > 0)
        problems.push({
          problem: `${scriptName} allows any source (${broad.join(' ')})`,
          points: M.cspUnsafeInline,
        })
      if (script.includes('data:'))
        problems.push({ problem: `data: URLs in ${scriptName}`, points: M.cspUnsafeInline })
    }
    if (script.includes("'unsafe-eval'"))
      problems.push({ problem: `'unsafe-eval' in ${scriptName}`, points: M.cspUnsafeEval })
  }
  const object = d.get('object-src') ?? d.get('default-src')
  const broadObject = object?.filter((s) => BROAD_SOURCES.has(s)) ?? []
  if (broadObject.length > 0) {
    const name = d.has('object-src') ? 'object-src' : 'default-src'
    problems.push({
      problem: `${name} allows plugins from any source (${broadObject.join(' ')})`,
      points: M.cspUnsafeInline,
    })
  }

  if (problems.length > 0) return { points: Math.min(...problems.map((p) => p.points)), problems }
  const defaultNone = d.get('default-src')?.join(' ') === "'none'"
  return { points: defaultNone ? M.cspDefaultNone : M.cspNoUnsafe, problems }
}

// ---- Strict-Transport-Security ----

function strictTransportSecurity(headers: Record<string, string>, https: boolean, g: Grade) {
  if (!https) {
    g.add(M.hstsPlainHttp)
    g.findings.push({
      severity: 'medium',
      message:
        'Served over plain http, so Strict-Transport-Security cannot protect visitors; move the site to https first',
    })
    return
  }
  const value = headers['strict-transport-security']?.trim()
  if (!value) return g.lack('strict-transport-security', M.hstsMissing)
  const fix = `use "max-age=31536000; includeSubDomains"`
  if (value.includes(',')) {
    return g.weaken(
      'strict-transport-security',
      'header set more than once',
      M.hstsInvalid,
      'medium',
      `Strict-Transport-Security is sent more than once, so browsers ignore it; send it once and ${fix}`,
    )
  }
  const maxAge = value
    .split(';')
    .map((d) => /^max-age\s*=\s*"?(\d+)"?$/i.exec(d.trim()))
    .find((m) => m !== null)
  if (!maxAge) {
    return g.weaken(
      'strict-transport-security',
      'no max-age',
      M.hstsInvalid,
      'medium',
      `Strict-Transport-Security has no max-age, so browsers ignore it; ${fix}`,
    )
  }
  const seconds = Number(maxAge[1])
  if (seconds < SECURITY_HEADERS.hstsMinMaxAge) {
    const minDays = SECURITY_HEADERS.hstsMinMaxAge / 86_400
    const days = Math.floor(seconds / 86_400)
    const actual = days >= 1 ? `${plural(days, 'day')} (${seconds} s)` : `${seconds} s`
    const problem =
      seconds === 0 ? 'max-age=0 switches HSTS off' : `max-age is ${actual}, under ${minDays} days`
    g.weaken(
      'strict-transport-security',
      problem,
      M.hstsShort,
      'low',
      `Strict-Transport-Security is weak: ${problem}; use at least ${minDays} days (${SECURITY_HEADERS.hstsMinMaxAge} s)`,
    )
  }
}

// ---- X-Content-Type-Options, X-Frame-Options, Referrer-Policy ----

function contentTypeOptions(headers: Record<string, string>, g: Grade) {
  const value = headers['x-content-type-options']
  if (value === undefined || !value.trim()) return g.lack('x-content-type-options', M.xctoMissing)
  if (value.trim().toLowerCase() !== 'nosniff') {
    g.weaken(
      'x-content-type-options',
      `value is "${value.trim()}", not nosniff`,
      M.xctoInvalid,
      'low',
      `X-Content-Type-Options is "${value.trim()}"; it must be exactly nosniff`,
    )
  }
}

function frameOptions(headers: Record<string, string>, frameAncestors: boolean, g: Grade) {
  if (frameAncestors) return g.add(M.xfoViaCsp)
  const value = headers['x-frame-options']?.trim().toUpperCase()
  if (!value) return g.lack('x-frame-options', M.xfoMissing)
  if (value === 'DENY' || value === 'SAMEORIGIN') return g.add(M.xfoGood)
  if (value.startsWith('ALLOW-FROM')) {
    return g.weaken(
      'x-frame-options',
      'ALLOW-FROM is ignored by current browsers',
      M.xfoAllowFrom,
      'low',
      `X-Frame-Options ALLOW-FROM is ignored by current browsers; use CSP frame-ancestors instead`,
    )
  }
  g.weaken(
    'x-frame-options',
    `invalid value "${headers['x-frame-options'].trim()}"`,
    M.xfoInvalid,
    'medium',
    `X-Frame-Options "${headers['x-frame-options'].trim()}" is invalid, so pages can be framed; use DENY or SAMEORIGIN (or CSP frame-ancestors)`,
  )
}

function referrerPolicy(headers: Record<string, string>, g: Grade) {
  const value = headers['referrer-policy']
  if (value === undefined || !value.trim()) return g.lack('referrer-policy', M.referrerMissing)
  // the last token the browser understands wins
  const known = value
    .split(',')
    .map((t) => t.trim().toLowerCase())
    .filter((t) => REFERRER_PRIVATE.includes(t) || REFERRER_UNSAFE.includes(t))
  const policy = known.at(-1)
  if (!policy) {
    return g.weaken(
      'referrer-policy',
      `invalid value "${value.trim()}"`,
      M.referrerInvalid,
      'low',
      `Referrer-Policy "${value.trim()}" is not a policy browsers know; use strict-origin-when-cross-origin`,
    )
  }
  if (REFERRER_PRIVATE.includes(policy)) return g.add(M.referrerPrivate)
  g.weaken(
    'referrer-policy',
    `${policy} leaks page URLs to other sites`,
    M.referrerUnsafe,
    'low',
    `Referrer-Policy ${policy} leaks page URLs to other sites; use strict-origin-when-cross-origin`,
  )
}
