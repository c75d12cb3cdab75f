/**
 * Every number the audit half of the engine judges by: bands, weights, caps, curve control points,
 * header modifiers. One module, so a reviewer can check each number against its source, and so a
 * signal never hides a magic constant. Sources are the ones collected in
 * shared/reference/scoring.md; where we depart from them the comment says why.
 */
import type { SignalName, SignalStatus } from '../contract/schemas.js'
import type { LogNormalCurve } from './lognormal.js'

const DAY_S = 86_400

// ---- bands, weights, caps, risk ---------------------------------------------------------------

/** Sub-score bands: Lighthouse pass ≥ 0.9 / average ≥ 0.5 (shared/util.js RATINGS); also Observatory A = 90, SSL Labs C ≥ 50. */
export const SCORE_BANDS = { ok: 90, warning: 50 } as const

/** The status a 0-100 sub-score falls in (≥ 90 ok, 50-89 warning, < 50 needs_review). */
export function statusForScore(score: number): Exclude<SignalStatus, 'unavailable'> {
  if (score >= SCORE_BANDS.ok) return 'ok'
  if (score >= SCORE_BANDS.warning) return 'warning'
  return 'needs_review'
}

/**
 * Health-score weights (scoring.md "Recommended scoring model"): availability and TLS validity
 * disqualify a site in Uptime Kuma, SSL Labs and Observatory, so they weigh most; pagespeed sees only
 * the document request (no browser), so it weighs least. Unavailable signals are weighted out.
 */
export const WEIGHTS: Record<SignalName, number> = {
  reachability: 30, // scoring.md: a site that does not answer is down in Uptime Kuma / ungraded in Observatory
  https_ssl: 25, // scoring.md: SSL Labs zero-scores an invalid certificate; Uptime Kuma marks it DOWN
  security_headers: 20, // scoring.md: Observatory's header tests
  response_time: 15, // scoring.md: web-vitals TTFB; slow = degraded, not down (Uptime Kuma #459)
  pagespeed: 10, // scoring.md: only the document request is measured, so the narrowest view
}

/** Grade caps in the manner of SSL Labs' caps (a disqualifying problem cannot be averaged away). */
export const HEALTH_CAPS = {
  reachabilityUnavailable: 0, // scoring.md: Observatory refuses to grade a site that does not respond
  reachabilityNeedsReview: 49, // scoring.md: a 5xx / redirect loop keeps the site below the warning band
  httpsZero: 49, // scoring.md: SSL Labs F for expired / mismatched / untrusted certificates and plain http
} as const

export const RISK = {
  lowMin: 80, // scoring.md: 80 = SSL Labs A, Observatory B+
  highBelow: 50, // Lighthouse fail line (0.5)
  minJudgedSignals: 3, // our own reasoning: with fewer than 3 of 5 signals judged, a risk verdict would be a guess
  /** needs_review in one of these makes the risk high regardless of the score (scoring.md risk_level). */
  criticalSignals: ['reachability', 'https_ssl'] as readonly SignalName[],
} as const

// ---- reachability ------------------------------------------------------------------------------

export const REACHABILITY = {
  scores: { ok: 100, warning: 70, needs_review: 25 }, // scoring.md recommended sub-scores per status
  okStatus: { min: 200, max: 299 }, // Uptime Kuma accepted status default "200-299"
  /** Answers that are not errors of the site itself: Observatory still grades 401/403; 429 is throttling. */
  warningStatuses: [401, 403, 429] as readonly number[],
} as const

// ---- https / certificate -----------------------------------------------------------------------

export const HTTPS = {
  scores: {
    ok: 100, // scoring.md recommended sub-score
    warning: 70, // scoring.md: 8-21 days left, or http does not redirect to https
    urgent: 25, // scoring.md: ≤ 7 days left, TLS < 1.2; also plain http while a valid https exists (the issue: plain http is always needs_review, scoring.md said 70)
    broken: 0, // scoring.md: SSL Labs zero score (expired, not yet valid, mismatch, untrusted), plain http only
  },
  needsReviewDays: 7, // Uptime Kuma's lowest default notice (7), Let's Encrypt's last e-mail (7 d), updown.io 7 d
  warningDays: 21, // Uptime Kuma default notice 21 d; certbot renews at 30 d, so < 21 d means renewal is failing
  shortLivedLifetimeDays: 30, // scoring.md: fixed day thresholds misfire on certificates living < 30 days
  shortLivedWarningFraction: 1 / 3, // certbot 4.0 renews with 1/3 of the lifetime left
  shortLivedNeedsReviewHours: 24, // scoring.md model: < 24 h left on a short-lived cert (LE's 160 h profile renews days earlier)
  /** Protocols below TLS 1.2: SSL Labs caps them (no TLS 1.2 → C), Node's default minVersion refuses them. */
  oldProtocols: ['SSLv2', 'SSLv3', 'TLSv1', 'TLSv1.1'] as readonly string[],
} as const

/** Node / OpenSSL verification codes, grouped by what the site owner has to do about them. */
export const TLS_ERROR_CODES = {
  selfSigned: ['DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN'],
  unknownIssuer: [
    'UNABLE_TO_GET_ISSUER_CERT',
    'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
    'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
    'CERT_UNTRUSTED',
  ],
  expired: ['CERT_HAS_EXPIRED'],
  notYetValid: ['CERT_NOT_YET_VALID'],
  hostname: ['ERR_TLS_CERT_ALTNAME_INVALID', 'HOSTNAME_MISMATCH'],
  revoked: ['CERT_REVOKED'],
} as const satisfies Record<string, readonly string[]>

// ---- response time -----------------------------------------------------------------------------

/** TTFB: web-vitals TTFBThresholds [800, 1800] as the log-normal p10 / median (800 → 90, 1800 → 50). */
export const TTFB_CURVE: LogNormalCurve = { p10: 800, median: 1800 }

// ---- security headers --------------------------------------------------------------------------

export const SECURITY_HEADERS = {
  base: 100, // Observatory: every scan starts at 100
  extraCreditMin: 90, // Observatory MINIMUM_SCORE_FOR_EXTRA_CREDIT: bonuses count only if the uncurved score ≥ 90
  weakValueCap: 89, // our own reasoning: a weak value (short HSTS, unsafe-inline…) must count, so bonuses cannot lift it back to ok
  hstsMinMaxAge: 180 * DAY_S, // Observatory's six-month line, 15,552,000 s
  /** Final statuses Observatory grades (2xx, 3xx, 401, 403); an error page's headers say little about the site. */
  gradedStatus: (status: number) => (status >= 200 && status < 400) || status === 401 || status === 403,
  /** The stable order of `missing` (scoring.md / the issue). */
  order: [
    'content-security-policy',
    'strict-transport-security',
    'x-content-type-options',
    'x-frame-options',
    'referrer-policy',
    'permissions-policy',
  ] as const,
  /** Observatory SCORE_TABLE modifiers (src/grader/charts.js), restricted to response-header tests. */
  modifiers: {
    cspMissing: -25, // Observatory csp-not-implemented
    cspReportOnly: -25, // Observatory: only Content-Security-Policy-Report-Only = not implemented
    cspUnsafeInline: -20, // Observatory: 'unsafe-inline' or data: in script-src, or overly broad sources
    cspNoScriptRestriction: -20, // Observatory: neither script-src nor default-src
    cspUnsafeEval: -10, // Observatory: 'unsafe-eval' in script-src
    cspNoUnsafe: 5, // Observatory: no unsafe sources
    cspDefaultNone: 10, // Observatory: no unsafe sources and default-src 'none'
    hstsMissing: -20, // Observatory hsts-not-implemented
    hstsInvalid: -20, // Observatory: no max-age, or the header set twice
    hstsShort: -10, // Observatory: max-age < 15,552,000
    hstsPlainHttp: -20, // Observatory hsts-not-implemented-no-https: plain-http sites cannot use HSTS
    xctoMissing: -5, // Observatory
    xctoInvalid: -5, // Observatory: anything but nosniff
    xfoMissing: -20, // Observatory
    xfoInvalid: -20, // Observatory
    xfoAllowFrom: 0, // Observatory: ALLOW-FROM passes (browsers ignore it, so we note it)
    xfoGood: 5, // Observatory: DENY / SAMEORIGIN
    xfoViaCsp: 5, // Observatory: CSP frame-ancestors overrides X-Frame-Options
    referrerMissing: 0, // Observatory: the browser default strict-origin-when-cross-origin is safe
    referrerPrivate: 5, // Observatory
    referrerUnsafe: -5, // Observatory
    referrerInvalid: -5, // Observatory
    permissionsMissing: 0, // not an Observatory test; listed as missing (OWASP, securityheaders.com) but not scored
  },
} as const

// ---- pagespeed (document-only performance) -----------------------------------------------------

/**
 * Lighthouse builds a category score as the weighted mean of audit scores; these are our audits of
 * the one document request. Points sum to 100. The three DevTools DocumentLatency checks (server
 * wait, redirects, compression) carry 70 of them; scoring.md's model gave them 85, we moved 15 to the
 * document's full load time because the issue asks for load time and no other audit sees the body download.
 */
export const PAGESPEED_POINTS = {
  serverWait: 25, // DevTools DocumentLatency serverResponseIsFast (Lighthouse ≤ v12 server-response-time)
  documentLoad: 15, // our own reasoning: the document must arrive before first paint (see DOCUMENT_LOAD_CURVE)
  redirects: 20, // DevTools DocumentLatency noRedirects / Lighthouse redirects
  compression: 25, // DevTools DocumentLatency usesCompression / Lighthouse uses-text-compression
  transferSize: 10, // Lighthouse total-byte-weight
  httpVersion: 5, // Lighthouse uses-http2: only a hint for one request (it needs ≥ 6 resources to fire)
} as const

/** Server wait: DevTools fails > 600 ms (the median here) while Lighthouse aims at 100 ms; our own reasoning puts p10 at 300 ms so 100 ms scores ~1. */
export const SERVER_WAIT_CURVE: LogNormalCurve = { p10: 300, median: 600 }

/** Document load (start → last byte): Lighthouse desktop FCP control points (934 / 1600 ms), a lower bound for first paint. */
export const DOCUMENT_LOAD_CURVE: LogNormalCurve = { p10: 934, median: 1600 }

/**
 * Document transfer size. Lighthouse total-byte-weight is p10 2667 KiB / median 4000 KiB for a whole
 * page; on one HTML document that curve would never fire, so (our own reasoning) we keep the idea
 * and scale it to a document: 100 KB scores 0.9, 500 KB 0.5 (decimal units, as the message shows them).
 */
export const TRANSFER_SIZE_CURVE: LogNormalCurve = { p10: 100_000, median: 500_000 }

export const PAGESPEED = {
  /** Each redirect hop costs half the redirect points (two hops = all): Lighthouse fails on any hop; scoring.md −15/hop, max −30. */
  redirectHopCost: 0.5,
  compressionMinSavingsBytes: 1400, // DevTools / Lighthouse IGNORE_THRESHOLD_IN_BYTES
  /** Estimated gzip savings by MIME type when uncompressed (DevTools DocumentLatency estimate). */
  compressionSavings: [
    { match: /^text\/css\b/, ratio: 0.8 },
    {
      match: /^(text\/html|application\/xhtml\+xml|text\/javascript|application\/(x-)?javascript)\b/,
      ratio: 0.67,
    },
    {
      match:
        /^(text\/|application\/(json|xml|ld\+json|manifest\+json|rss\+xml|atom\+xml)|image\/svg\+xml|font\/(ttf|otf)|application\/vnd\.ms-fontobject)/,
      ratio: 0.5,
    },
  ] as ReadonlyArray<{ match: RegExp; ratio: number }>,
  /** Content types pagespeed judges as a page; everything else is unavailable. */
  htmlTypes: ['text/html', 'application/xhtml+xml'] as readonly string[],
  auditPass: 0.9, // Lighthouse: an audit scoring ≥ 0.9 passes (shared/util.js RATINGS)
  /** Findings cost this many points or more before they are 'medium' (20 = one DocumentLatency check failed outright). */
  mediumFindingPoints: 20, // our own reasoning
  /** ... and this many or more before they are 'low' rather than 'info' (the HTTP/2 hint's weight). */
  lowFindingPoints: 5, // our own reasoning
} as const
