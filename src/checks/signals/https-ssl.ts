/**
 * HTTPS / certificate: is the final page on https, is the certificate one a browser accepts (in its
 * dates, for this host, from a trusted chain, over TLS ≥ 1.2), how long until it runs out, and does
 * plain http send visitors to https. Each problem is a finding with a score cap; the sub-score is the
 * lowest cap (SSL Labs' way: one disqualifying problem is enough).
 */
import { HTTPS, TLS_ERROR_CODES } from '../thresholds.js'
import type { AlternateProbe, CertificateInfo, Finding, ProbeResult, Signal, TlsInfo } from '../types.js'
import { DAY_MS, fmtDate, HOUR_MS, hasResponse, judged, plural, unavailable, worstFinding } from './format.js'

interface Judgement {
  cap: number
  finding: Finding
}

export function httpsSsl(probe: ProbeResult, now: Date): Signal {
  const final = new URL(probe.finalUrl)
  if (!hasResponse(probe))
    return unavailable(`${final.host} gave no HTTP answer, so its HTTPS could not be judged`)
  if (final.protocol !== 'https:') return plainHttp(probe, final, now)

  const tls = probe.tls
  const cert = tls?.certificate ?? null
  if (!tls || !cert) {
    return unavailable(`Could not read the TLS certificate of ${final.host}`, {
      scheme: 'https',
      ...tlsDetails(tls, null, now),
    })
  }

  const host = final.hostname.replace(/^\[|\]$/g, '')
  const judgements = [
    ...certificateJudgements(tls, cert, host, now),
    ...protocolJudgements(tls, final.host),
    ...redirectJudgements(probe, final.host),
  ]
  const findings = judgements.map((j) => j.finding)
  const score = Math.min(HTTPS.scores.ok, ...judgements.map((j) => j.cap))

  const validTo = new Date(cert.validTo)
  const problem = worstFinding(findings.filter((f) => f.severity !== 'info'))
  const message =
    problem?.message ??
    `Certificate for ${host} is valid until ${fmtDate(validTo)} (${plural(daysBetween(now, validTo), 'day')} left), ` +
      `issued by ${cert.issuer || 'an unnamed issuer'}${tls.protocol ? `, over ${tls.protocol}` : ''}`
  return judged(score, message, findings, {
    scheme: 'https',
    ...tlsDetails(tls, cert, now),
    ...alternateDetails(probe.alternate),
  })
}

/** The final page is plain http: a needs_review in every case; how bad depends on whether https works. */
function plainHttp(probe: ProbeResult, final: URL, now: Date): Signal {
  const host = final.host
  const alt = probe.alternate?.kind === 'https_offered' ? probe.alternate : null
  const details = { scheme: 'http', ...tlsDetails(null, null, now), ...alternateDetails(probe.alternate) }
  let cap: number = HTTPS.scores.broken
  let message: string

  if (new URL(probe.inputUrl).protocol === 'https:') {
    message = `${probe.inputUrl} redirects visitors to plain http (${probe.finalUrl}); keep them on https`
  } else if (!alt || !alt.attempted) {
    message = `${host} is served over plain http (https was not tried on this non-default port); serve it over https`
  } else if (!alt.ok) {
    message = `${host} is served over plain http and https is not offered (${alt.error ?? 'no answer'}); install a certificate (e.g. Let's Encrypt) and redirect http to https`
  } else if (alt.tls && alt.tls.authorized && alt.tls.hostnameMatches) {
    cap = HTTPS.scores.urgent
    message = `${host} is served over plain http although ${alt.url} works; redirect http to https`
  } else {
    const why = alt.tls
      ? (alt.tls.authorizationError ?? (alt.tls.hostnameMatches ? 'untrusted' : 'wrong host name'))
      : 'unreadable'
    message = `${host} is served over plain http; ${alt.url} answers but its certificate is not valid (${why}), so fix it and redirect http to https`
  }
  return judged(cap, message, [{ severity: 'high', message }], details)
}

function certificateJudgements(tls: TlsInfo, cert: CertificateInfo, host: string, now: Date): Judgement[] {
  const out: Judgement[] = []
  const broken = (message: string) =>
    out.push({ cap: HTTPS.scores.broken, finding: { severity: 'high', message } })
  const validFrom = new Date(cert.validFrom)
  const validTo = new Date(cert.validTo)
  const msLeft = validTo.getTime() - now.getTime()
  const expired = msLeft < 0
  const notYetValid = validFrom.getTime() > now.getTime()
  const code = tls.authorizationError

  if (expired) {
    broken(`Certificate for ${host} expired ${span(-msLeft)} ago (${fmtDate(validTo)}); renew it now`)
  }
  if (notYetValid) {
    broken(
      `Certificate for ${host} is not valid until ${fmtDate(validFrom)} (in ${span(validFrom.getTime() - now.getTime())}); ` +
        `check the server clock or install the current certificate`,
    )
  }
  if (!tls.hostnameMatches) {
    const names = cert.subjectAltNames.length > 0 ? cert.subjectAltNames : [cert.subject]
    broken(
      `Certificate does not cover ${host}: it is for ${names.slice(0, 5).join(', ')}${names.length > 5 ? ', …' : ''}; get one that includes ${host}`,
    )
  }
  if (!tls.authorized) {
    const has = (codes: readonly string[]) => code !== null && codes.includes(code)
    if (has(TLS_ERROR_CODES.expired) && !expired) {
      broken(
        `A certificate in the chain of ${host} has expired (${code}); update the intermediate certificates`,
      )
    } else if (has(TLS_ERROR_CODES.notYetValid) && !notYetValid) {
      broken(
        `A certificate in the chain of ${host} is not valid yet (${code}); update the intermediate certificates`,
      )
    } else if (has(TLS_ERROR_CODES.revoked)) {
      broken(`Certificate for ${host} has been revoked by its issuer; replace it`)
    } else if (code === 'SELF_SIGNED_CERT_IN_CHAIN') {
      broken(
        `Certificate chain of ${host} ends in a self-signed root that browsers do not trust; use a certificate from a public CA`,
      )
    } else if (cert.selfSigned || has(TLS_ERROR_CODES.selfSigned)) {
      broken(
        `Certificate for ${host} is self-signed, so browsers do not trust it; use one from a public CA (e.g. Let's Encrypt)`,
      )
    } else if (has(TLS_ERROR_CODES.unknownIssuer)) {
      broken(
        `Certificate for ${host} is issued by "${cert.issuer || 'an unnamed issuer'}", which cannot be traced to a trusted root (${code}); ` +
          `serve the full chain with intermediates or use a public CA`,
      )
    } else if (
      !has(TLS_ERROR_CODES.expired) &&
      !has(TLS_ERROR_CODES.notYetValid) &&
      !has(TLS_ERROR_CODES.hostname)
    ) {
      broken(`Certificate for ${host} is not trusted (${code ?? 'unknown reason'})`)
    }
  }

  if (!expired && !notYetValid) out.push(...expiryJudgement(cert, host, msLeft))
  return out
}

/** Days-left thresholds for ordinary certificates; fractions of the lifetime for short-lived ones. */
function expiryJudgement(cert: CertificateInfo, host: string, msLeft: number): Judgement[] {
  const validTo = fmtDate(cert.validTo)
  const lifetimeMs = new Date(cert.validTo).getTime() - new Date(cert.validFrom).getTime()
  const when = `expires in ${span(msLeft)} (${validTo})`

  if (lifetimeMs < HTTPS.shortLivedLifetimeDays * DAY_MS) {
    const lifetime =
      lifetimeMs >= DAY_MS
        ? `${Math.floor(lifetimeMs / DAY_MS)}-day`
        : `${Math.floor(lifetimeMs / HOUR_MS)}-hour`
    if (msLeft < HTTPS.shortLivedNeedsReviewHours * HOUR_MS) {
      return [
        urgent(
          `Short-lived certificate for ${host} ${when}; its ${lifetime} lifetime is nearly over, so renewal looks stuck`,
        ),
      ]
    }
    if (msLeft < lifetimeMs * HTTPS.shortLivedWarningFraction) {
      return [
        warn(
          `Short-lived certificate for ${host} ${when}, under a third of its ${lifetime} lifetime; check automatic renewal`,
        ),
      ]
    }
    return []
  }
  const daysLeft = Math.floor(msLeft / DAY_MS)
  if (daysLeft <= HTTPS.needsReviewDays) return [urgent(`Certificate for ${host} ${when}; renew it now`)]
  if (daysLeft <= HTTPS.warningDays)
    return [warn(`Certificate for ${host} ${when}; check that automatic renewal works`)]
  return []
}

function protocolJudgements(tls: TlsInfo, host: string): Judgement[] {
  if (!tls.protocol || !HTTPS.oldProtocols.includes(tls.protocol)) return []
  return [urgent(`${host} negotiates ${tls.protocol}, which browsers have dropped; enable TLS 1.2 and 1.3`)]
}

function redirectJudgements(probe: ProbeResult, host: string): Judgement[] {
  if (new URL(probe.inputUrl).protocol === 'http:') {
    return [
      {
        cap: HTTPS.scores.ok,
        finding: { severity: 'info', message: `${probe.inputUrl} redirects to https` },
      },
    ]
  }
  const alt = probe.alternate
  if (!alt || alt.kind !== 'http_to_https' || !alt.attempted) return []
  if (alt.ok)
    return [{ cap: HTTPS.scores.ok, finding: { severity: 'info', message: `${alt.url} redirects to https` } }]
  if (alt.status === undefined) {
    // Observatory passes a closed port 80: there is no plain-http page to leave visitors on
    return [
      {
        cap: HTTPS.scores.ok,
        finding: {
          severity: 'info',
          message: `Plain http on ${host} does not answer (${alt.error ?? 'no answer'})`,
        },
      },
    ]
  }
  const answer = alt.location ? `it redirects to ${alt.location}` : `it answers ${alt.status}`
  return [warn(`${alt.url} does not redirect to https (${answer}); add a permanent (301) redirect to https`)]
}

function tlsDetails(tls: TlsInfo | null, cert: CertificateInfo | null, now: Date) {
  const msLeft = cert ? new Date(cert.validTo).getTime() - now.getTime() : NaN
  return {
    subject: cert?.subject ?? null,
    issuer: cert?.issuer ?? null,
    subjectAltNames: cert?.subjectAltNames ?? [],
    validFrom: cert?.validFrom ?? null,
    validTo: cert?.validTo ?? null,
    daysLeft: Number.isFinite(msLeft) ? Math.trunc(msLeft / DAY_MS) : null,
    lifetimeDays: cert
      ? Math.round((new Date(cert.validTo).getTime() - new Date(cert.validFrom).getTime()) / DAY_MS)
      : null,
    selfSigned: cert?.selfSigned ?? null,
    authorized: tls?.authorized ?? null,
    authorizationError: tls?.authorizationError ?? null,
    hostnameMatches: tls?.hostnameMatches ?? null,
    protocol: tls?.protocol ?? null,
  }
}

function alternateDetails(alt: AlternateProbe | null) {
  const judged = alt?.attempted ? alt.ok : null
  return {
    httpRedirectsToHttps: alt?.kind === 'http_to_https' ? judged : null,
    httpsOffered: alt?.kind === 'https_offered' ? judged : null,
  }
}

const urgent = (message: string): Judgement => ({
  cap: HTTPS.scores.urgent,
  finding: { severity: 'high', message },
})
const warn = (message: string): Judgement => ({
  cap: HTTPS.scores.warning,
  finding: { severity: 'medium', message },
})

/** Whole days (floored) between two instants, never negative. */
const daysBetween = (from: Date, to: Date) =>
  Math.max(0, Math.floor((to.getTime() - from.getTime()) / DAY_MS))

/** 6.4 days → "6 days"; under a day in hours; under an hour "less than an hour". */
function span(ms: number): string {
  if (ms >= DAY_MS) return plural(Math.floor(ms / DAY_MS), 'day')
  if (ms >= HOUR_MS) return plural(Math.floor(ms / HOUR_MS), 'hour')
  return 'less than an hour'
}
