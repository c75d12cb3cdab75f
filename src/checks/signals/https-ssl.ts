/**
 * HTTPS / certificate: is the final page on https, is the certificate one a browser accepts (in its
 * dates, for this host, from a trusted chain, over TLS ≥ 1.2), how long until it runs out, and does
 * plain http send visitors to https. Each problem is a finding with a score cap; the sub-score is the
 * lowest cap (SSL Labs' way: one disqualifying problem is enough).
 */
import { HTTPS } from '../thresholds.js'
import type { ProbeResult, Signal } from '../types.js'
import { clip, fmtDate, hasResponse, judged, plural, shortUrl, unavailable, worstFinding } from './format.js'
import { certificateJudgements, protocolJudgements } from './https/certificate.js'
import { handshakeJudgements, scanOf, scanJudgements } from './https/handshake.js'
import { redirectJudgements } from './https/redirect.js'
import { tlsDetails, handshakeDetails, alternateDetails } from './https/details.js'
import { issuerName, daysBetween } from './https/judgement.js'

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
    ...handshakeJudgements(tls, cert, final.host, host),
    ...scanJudgements(scanOf(probe, final), tls, final.host),
    ...redirectJudgements(probe, final.host),
  ]
  const findings = judgements.map((j) => j.finding)
  const score = Math.min(HTTPS.scores.ok, ...judgements.map((j) => j.cap))

  const validTo = new Date(cert.validTo)
  const problem = worstFinding(findings.filter((f) => f.severity !== 'info'))
  const message =
    problem?.message ??
    `Certificate for ${host} is valid until ${fmtDate(validTo)} (${plural(daysBetween(now, validTo), 'day')} left), ` +
      `issued by ${issuerName(cert)}${tls.protocol ? `, over ${tls.protocol}` : ''}`
  return judged(score, message, findings, {
    scheme: 'https',
    ...tlsDetails(tls, cert, now),
    ...handshakeDetails(tls, cert, scanOf(probe, final)),
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
    message = `${probe.inputUrl} redirects visitors to plain http (${shortUrl(probe.finalUrl)}); keep them on https`
  } else if (!alt || !alt.attempted) {
    message = `${host} is served over plain http (https was not tried: only ports 80/443 and 8080/8443 have a known https companion); serve it over https`
  } else if (!alt.ok) {
    message = `${host} is served over plain http and https is not offered (${alt.error ? clip(alt.error, 120) : 'no answer'}); install a certificate (e.g. Let's Encrypt) and redirect http to https`
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
