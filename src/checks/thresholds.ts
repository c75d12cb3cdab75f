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
  /** Renewal point: certbot 4.0 renews with 1/3 of the lifetime left, so the warning comes at min(21 days, lifetime / 3): a 47-day certificate (CA/B Forum SC-081v3, 2029) warns at 15 days, not 21. */
  shortLivedWarningFraction: 1 / 3, // certbot 4.0 renews with 1/3 of the lifetime left
  shortLivedNeedsReviewHours: 24, // scoring.md model: < 24 h left on a short-lived cert (LE's 160 h profile renews days earlier)
  /** Protocols below TLS 1.2: SSL Labs caps them (no TLS 1.2 → C), Node's default minVersion refuses them. */
  oldProtocols: ['SSLv2', 'SSLv3', 'TLSv1', 'TLSv1.1'] as readonly string[],
} as const

/**
 * What the handshake itself shows, capped the way SSL Labs caps a grade (ssllabs/research
 * SSL_Server_Rating_Guide and the Qualys "SSL Labs grade change" posts). Our bands: an SSL Labs B
 * cap is `HTTPS.scores.warning` (70: still usable, fix it), C is `urgent` (25), F / zero is `broken` (0).
 */
export const TLS_HANDSHAKE = {
  /** Legacy protocols accepted beside TLS ≥ 1.2: SSL Labs caps at B since 31 Jan 2020; RFC 8996 deprecates TLS 1.0/1.1. */
  legacyOfferedCap: HTTPS.scores.warning,
  /** Only TLS 1.0/1.1 work: SSL Labs caps at C (no TLS 1.2); Chrome 84 and Firefox 78 refuse to connect at all. */
  legacyOnlyCap: HTTPS.scores.urgent,
  /** No forward secrecy with a modern client (plain RSA key exchange): SSL Labs caps at B (2018); Mozilla Server Side TLS lists only ECDHE/DHE. */
  noForwardSecrecyCap: HTTPS.scores.warning,
  /** Ephemeral DH below 2048 bits: SSL Labs caps 1024-bit DH at B (Logjam, 2015); Mozilla intermediate uses ffdhe2048. Node refuses < 1024 (minDHSize). */
  minDhBits: 2048,
  weakDhCap: HTTPS.scores.warning,
  /** RSA/DSA keys below 2048 bits: SSL Labs caps at B (2014), below 1024 → F; CA/B Forum BRs §6.1.5 require ≥ 2048. */
  minRsaBits: 2048,
  insecureRsaBits: 1024,
  weakKeyCap: HTTPS.scores.warning,
  /** EC keys below 256 bits: CA/B Forum BRs §6.1.5 allow only P-256, P-384, P-521; Mozilla Server Side TLS the same. */
  minEcBits: 256,
  /** Signature hashes browsers refuse on a leaf: MD5/MD2 (SSL Labs zero score), SHA-1 (CA/B Forum BRs since 2016, Chrome 57 / Firefox 51 distrust). */
  rejectedSignatureHashes: ['MD2', 'MD5', 'SHA-1'] as readonly string[],
  /** No subjectAltName: browsers ignore the CN (RFC 6125 §6.4.4, CA/B Forum BRs §7.1.4.2.1, Chrome 58) = a name mismatch, SSL Labs zero. */
  noSubjectAltNameCap: HTTPS.scores.broken,
  /** NULL (no encryption) or anonymous (no authentication) suites accepted: SSL Labs 0 % cipher / key-exchange score → F; testssl.sh grades F. */
  nullOrAnonymousCap: HTTPS.scores.broken,
  /** Must-staple without a staple: Firefox hard-fails (MOZILLA_PKIX_ERROR_REQUIRED_TLS_FEATURE_MISSING, RFC 7633 §4.2.3). */
  mustStapleMissingCap: HTTPS.scores.urgent,
} as const

/** The extra handshakes of the TLS scan. */
export const TLS_SCAN = {
  /** Per handshake: loopback takes milliseconds and a real site one round trip or two; a server that stays silent must not hold the check. */
  handshakeTimeoutMs: 3_000,
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
  findingCap: 99, // our own reasoning: 100 means nothing to fix; a listed (non-info) finding keeps the score below it, whatever the extra credit
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
  /**
   * Observatory SCORE_TABLE modifiers (src/grader/charts.js). A value browsers ignore (invalid
   * X-Content-Type-Options or Referrer-Policy, X-Frame-Options ALLOW-FROM, HSTS max-age=0 or
   * unparsable) takes the "missing" modifier, not Observatory's "invalid" one: issue 11 item 5, a
   * header a browser ignores protects exactly as much as no header.
   */
  modifiers: {
    cspMissing: -25, // Observatory csp-not-implemented
    cspReportOnly: -25, // Observatory: only Content-Security-Policy-Report-Only = not implemented
    cspUnsafeInline: -20, // Observatory: 'unsafe-inline' or data: in script-src, or overly broad sources
    cspNoScriptRestriction: -20, // Observatory: neither script-src nor default-src
    cspObjectUnrestricted: -20, // Observatory: no object-src and no default-src reads as object-src * (overly broad)
    cspInsecureScheme: -20, // Observatory csp-implemented-with-insecure-scheme: http: sources for active content on https
    cspInsecurePassive: -10, // Observatory csp-implemented-with-insecure-scheme-in-passive-content-only (img/media; fonts too, which mixed-content rules block outright)
    cspUnsafeEval: -10, // Observatory: 'unsafe-eval' in script-src
    cspNoUnsafe: 5, // Observatory: no unsafe sources
    cspDefaultNone: 10, // Observatory: no unsafe sources and default-src 'none'
    hstsMissing: -20, // Observatory hsts-not-implemented (also: no max-age, max-age=0, unparsable)
    hstsInvalidCert: -20, // Observatory hsts-invalid-cert: RFC 6797 §8.1, a UA ignores STS over a connection with certificate errors
    hstsShort: -10, // Observatory: max-age < 15,552,000
    hstsPlainHttp: -20, // Observatory hsts-not-implemented-no-https: plain-http sites cannot use HSTS
    xctoMissing: -5, // Observatory (also: any value but nosniff first)
    xfoMissing: -20, // Observatory (also: ALLOW-FROM, ALLOWALL, invalid values)
    xfoGood: 5, // Observatory: DENY / SAMEORIGIN
    xfoViaCsp: 5, // Observatory: CSP frame-ancestors overrides X-Frame-Options
    referrerMissing: 0, // Observatory: the browser default strict-origin-when-cross-origin is safe (also: invalid values)
    referrerPrivate: 5, // Observatory
    referrerUnsafe: -5, // Observatory
    permissionsMissing: 0, // not an Observatory test; listed as missing (OWASP, securityheaders.com) but not scored
    // cookies: Observatory cookies test; the worst result counts, the bonus only when every cookie is clean
    cookiesAllGood: 5, // Observatory cookies-secure-with-httponly-sessions-and-samesite
    cookieNoSecureHsts: -5, // Observatory cookies-without-secure-flag-but-protected-by-hsts
    cookieNoSecure: -20, // Observatory cookies-without-secure-flag
    cookieSessionNoSecureHsts: -10, // Observatory cookies-session-without-secure-flag-but-protected-by-hsts
    cookieSameSiteInvalid: -20, // Observatory cookies-samesite-flag-invalid (also SameSite=None without Secure)
    cookieCsrfNoSameSite: -20, // Observatory cookies-anticsrf-without-samesite-flag
    cookieSessionNoHttpOnly: -30, // Observatory cookies-session-without-httponly-flag
    cookieSessionNoSecure: -40, // Observatory cookies-session-without-secure-flag
    cookiePrefixBroken: 0, // RFC 6265bis §4.1.3: browsers drop the cookie, so nothing is exposed; reported, not scored
    // Subresource Integrity on <script src> (Observatory sri test)
    sriAll: 5, // Observatory sri-implemented-and-all-scripts-loaded-securely
    sriExternal: 5, // Observatory sri-implemented-and-external-scripts-loaded-securely
    sriMissingExternal: -5, // Observatory sri-not-implemented-but-external-scripts-loaded-securely
    sriExternalHttp: -20, // Observatory sri-implemented-but-external-scripts-not-loaded-securely
    sriMissingExternalHttp: -50, // Observatory sri-not-implemented-and-external-scripts-not-loaded-securely
    corsUniversal: -50, // Observatory cross-origin-resource-sharing-implemented-with-universal-access
  },
  /** Cookie names Observatory takes for session identifiers ("login", "sess"), plus OWASP's common ones. */
  sessionCookie: /sess|login|auth|token|jwt|(^|[._-])sid([._-]|$)/i,
  /** Anti-CSRF cookies (Observatory: "csrf"); they must stay readable by scripts, so HttpOnly is not asked of them. */
  csrfCookie: /csrf|xsrf/i,
  /** Cookies listed in details (each name clipped): enough to act on, small enough to save. */
  maxCookiesListed: 20,
  maxScriptsListed: 20,
} as const

// ---- pagespeed (estimate of Lighthouse's mobile performance score) ----------------------------
// The link, curves and weights are Lighthouse's own: src/checks/perf/constants.ts.

export const PAGESPEED = {
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
  /** A cost worth this many score points or more is 'medium' (our own reasoning: it moves a page a band in a few steps). */
  mediumFindingPoints: 15,
  /** ... this many or more 'low' rather than 'info', and only then the lead of the message. */
  lowFindingPoints: 3,
} as const
