/**
 * HTTPS / certificate: is the final page on https, is the certificate one a browser accepts (in its
 * dates, for this host, from a trusted chain, over TLS ≥ 1.2), how long until it runs out, and does
 * plain http send visitors to https. Each problem is a finding with a score cap; the sub-score is the
 * lowest cap (SSL Labs' way: one disqualifying problem is enough).
 */
import { originKey } from '../http-agent.js'
import { HTTPS, TLS_ERROR_CODES, TLS_HANDSHAKE } from '../thresholds.js'
import type {
  AlternateProbe,
  CertificateInfo,
  Finding,
  HandshakeAttempt,
  ProbeResult,
  Signal,
  TlsInfo,
  TlsScan,
} from '../types.js'
import {
  clip,
  DAY_MS,
  fmtDate,
  HOUR_MS,
  hasResponse,
  judged,
  plainName,
  plural,
  shortUrl,
  unavailable,
  worstFinding,
} from './format.js'

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
  if (!cert.hasSubjectAltName) {
    // Node still matches the Common Name when there is no subjectAltName; browsers do not
    broken(
      `Certificate for ${host} has no subjectAltName, and browsers ignore its Common Name (${plainName(cert.subject)}) ` +
        `since RFC 6125 and the CA/B Forum rules, so they reject it as a name mismatch; reissue it with ${host} in subjectAltName`,
    )
  } else if (!tls.hostnameMatches) {
    const names = cert.subjectAltNames.length > 0 ? cert.subjectAltNames : [cert.subject]
    broken(
      `Certificate does not cover ${host}: it is for ${names
        .slice(0, 5)
        .map((n) => plainName(n, 64))
        .join(', ')}${names.length > 5 ? ', …' : ''}; get one that includes ${host}`,
    )
  }
  const weakHash =
    cert.signatureHash !== null && TLS_HANDSHAKE.rejectedSignatureHashes.includes(cert.signatureHash)
  if (weakHash) {
    broken(
      `Certificate for ${host} is signed with ${cert.signatureHash} (${cert.signatureAlgorithm}), which browsers no longer accept ` +
        `and the CA/B Forum rules forbid; reissue it with SHA-256`,
    )
  }
  if (!tls.authorized) {
    const has = (codes: readonly string[]) => code !== null && codes.includes(code)
    if (weakHash && (code === 'UNSPECIFIED' || code === 'CA_MD_TOO_WEAK')) {
      // OpenSSL's verdict on the weak signature, already said above in plain words
    } else if (has(TLS_ERROR_CODES.expired) && !expired) {
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
    } else if (code === 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' && cert.issuerMissing) {
      broken(
        `Certificate for ${host} comes without the certificate of its issuer ${issuerName(cert)} (${code}): ` +
          `if that is an intermediate, serve the full chain (e.g. fullchain.pem), since clients that do not fetch it themselves fail; ` +
          `if it is a private CA, clients must be given it`,
      )
    } else if (has(TLS_ERROR_CODES.unknownIssuer)) {
      broken(
        `Certificate for ${host} is issued by ${issuerName(cert)}, which cannot be traced to a trusted root (${code}); ` +
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

/**
 * Days-left thresholds, brought forward to the renewal point: the warning comes at the earlier of
 * 21 days and a third of the lifetime left (certbot 4.0 renews there), so a 47-day certificate is not
 * flagged while its renewal is not even due. Short-lived certificates (< 30 days) need review only in
 * their last 24 hours.
 */
function expiryJudgement(cert: CertificateInfo, host: string, msLeft: number): Judgement[] {
  const validTo = fmtDate(cert.validTo)
  const lifetimeMs = new Date(cert.validTo).getTime() - new Date(cert.validFrom).getTime()
  const when = `expires in ${span(msLeft)} (${validTo})`
  const shortLived = lifetimeMs < HTTPS.shortLivedLifetimeDays * DAY_MS
  const lifetime =
    lifetimeMs >= DAY_MS
      ? `${Math.floor(lifetimeMs / DAY_MS)}-day`
      : `${Math.floor(lifetimeMs / HOUR_MS)}-hour`
  const daysLeft = Math.floor(msLeft / DAY_MS)

  if (shortLived) {
    if (msLeft < HTTPS.shortLivedNeedsReviewHours * HOUR_MS) {
      return [
        urgent(
          `Short-lived certificate for ${host} ${when}; its ${lifetime} lifetime is nearly over, so renewal looks stuck`,
        ),
      ]
    }
  } else if (daysLeft <= HTTPS.needsReviewDays) {
    return [urgent(`Certificate for ${host} ${when}; renew it now`)]
  }

  const renewalPointMs = lifetimeMs * HTTPS.shortLivedWarningFraction
  const pastRenewalPoint = msLeft < renewalPointMs
  if (renewalPointMs <= (HTTPS.warningDays + 1) * DAY_MS) {
    // the renewal point comes before the fixed 21 days: it decides
    if (!pastRenewalPoint) return []
    return [
      warn(
        shortLived
          ? `Short-lived certificate for ${host} ${when}, under a third of its ${lifetime} lifetime; check automatic renewal`
          : `Certificate for ${host} ${when}, under a third of its ${lifetime} lifetime, past the usual renewal point; check that automatic renewal works`,
      ),
    ]
  }
  if (daysLeft <= HTTPS.warningDays)
    return [warn(`Certificate for ${host} ${when}; check that automatic renewal works`)]
  return []
}

function protocolJudgements(tls: TlsInfo, host: string): Judgement[] {
  if (!tls.protocol || !HTTPS.oldProtocols.includes(tls.protocol)) return []
  if (tls.legacyFallback) {
    return [
      {
        cap: TLS_HANDSHAKE.legacyOnlyCap,
        finding: {
          severity: 'high',
          message:
            `${host} speaks only ${tls.protocol}: it refused TLS 1.2 and 1.3, so current browsers cannot connect ` +
            `(TLS 1.0/1.1 are deprecated by RFC 8996); enable TLS 1.2 and 1.3`,
        },
      },
    ]
  }
  return [urgent(`${host} negotiates ${tls.protocol}, which browsers have dropped; enable TLS 1.2 and 1.3`)]
}

/** What the negotiated session shows: key exchange, ephemeral key, certificate key, OCSP staple. */
function handshakeJudgements(tls: TlsInfo, cert: CertificateInfo, where: string, host: string): Judgement[] {
  const out: Judgement[] = []
  const suite = tls.cipher ? ` (${tls.cipher})` : ''
  if (tls.keyExchange === 'RSA') {
    out.push(
      capped(
        TLS_HANDSHAKE.noForwardSecrecyCap,
        'medium',
        `${where} uses plain RSA key exchange${suite}, so there is no forward secrecy: whoever gets the private key ` +
          `later can decrypt recorded traffic (SSL Labs caps this at B); prefer ECDHE suites (Mozilla Server Side TLS)`,
      ),
    )
  } else if (tls.keyExchange === 'anonymous') {
    out.push(
      capped(
        TLS_HANDSHAKE.nullOrAnonymousCap,
        'high',
        `${where} negotiated an anonymous suite${suite}: the server is not authenticated, so anyone on the path can impersonate it; disable aNULL suites`,
      ),
    )
  }
  const dh = tls.ephemeralKey
  if (dh && dh.type === 'DH' && dh.bits < TLS_HANDSHAKE.minDhBits) {
    out.push(
      capped(
        TLS_HANDSHAKE.weakDhCap,
        'medium',
        `${where} uses ${dh.bits}-bit Diffie-Hellman parameters${suite}, breakable by a well-funded attacker (Logjam; SSL Labs caps ` +
          `this at B); use ${TLS_HANDSHAKE.minDhBits}-bit groups (ffdhe2048) or ECDHE`,
      ),
    )
  }
  const bits = cert.keyBits
  const key = cert.keyType?.toUpperCase() ?? 'key'
  if (bits !== null && (cert.keyType === 'rsa' || cert.keyType === 'rsa-pss' || cert.keyType === 'dsa')) {
    if (bits < TLS_HANDSHAKE.insecureRsaBits) {
      out.push(
        capped(
          HTTPS.scores.broken,
          'high',
          `Certificate for ${host} has a ${bits}-bit ${key} key, which can be factored today (SSL Labs: F); reissue it with a 2048-bit RSA or P-256 key`,
        ),
      )
    } else if (bits < TLS_HANDSHAKE.minRsaBits) {
      out.push(
        capped(
          TLS_HANDSHAKE.weakKeyCap,
          'medium',
          `Certificate for ${host} has a ${bits}-bit ${key} key; the CA/B Forum requires at least ${TLS_HANDSHAKE.minRsaBits} bits ` +
            `and SSL Labs caps this at B; reissue it with a 2048-bit RSA or P-256 key`,
        ),
      )
    }
  } else if (bits !== null && cert.keyType === 'ec' && bits < TLS_HANDSHAKE.minEcBits) {
    out.push(
      capped(
        TLS_HANDSHAKE.weakKeyCap,
        'medium',
        `Certificate for ${host} has a ${bits}-bit EC key; the CA/B Forum allows only P-256, P-384 and P-521; reissue it with P-256`,
      ),
    )
  }
  if (cert.mustStaple && tls.ocspStapled === false) {
    out.push(
      capped(
        TLS_HANDSHAKE.mustStapleMissingCap,
        'high',
        `Certificate for ${host} demands a stapled OCSP response (OCSP Must-Staple, RFC 7633) but ${where} sends none, ` +
          `so Firefox refuses to connect; turn on OCSP stapling (nginx ssl_stapling, Apache SSLUseStapling)`,
      ),
    )
  }
  return out
}

/** The TLS scan, when it covered the final page's origin. */
function scanOf(probe: ProbeResult, final: URL): TlsScan | null {
  const scan = probe.tlsScan
  return scan && scan.origin === originKey(final.protocol, final.hostname, final.port) ? scan : null
}

const ATTEMPT_LABEL: Record<HandshakeAttempt['kind'], string> = {
  TLSv1: 'TLS 1.0',
  'TLSv1.1': 'TLS 1.1',
  NULL: 'NULL suites',
  anonymous: 'anonymous suites',
}

/** What the extra handshakes found (testssl.sh / sslscan's questions, one handshake each). */
function scanJudgements(scan: TlsScan | null, tls: TlsInfo, where: string): Judgement[] {
  if (!scan) return []
  const out: Judgement[] = []
  const accepted = (kind: HandshakeAttempt['kind']) =>
    scan.attempts.find((a) => a.kind === kind && a.outcome === 'accepted')
  const legacy = scan.attempts.filter(
    (a) => (a.kind === 'TLSv1' || a.kind === 'TLSv1.1') && a.outcome === 'accepted',
  )
  // a legacy-only server is judged by protocolJudgements; this is about legacy beside good protocols
  if (legacy.length > 0 && !tls.legacyFallback && !HTTPS.oldProtocols.includes(tls.protocol ?? '')) {
    out.push(
      capped(
        TLS_HANDSHAKE.legacyOfferedCap,
        'medium',
        `${where} also accepts ${legacy.map((a) => ATTEMPT_LABEL[a.kind]).join(' and ')} beside ${tls.protocol ?? 'TLS 1.2+'}; ` +
          `RFC 8996 deprecates them and SSL Labs caps such servers at B; disable them`,
      ),
    )
  }
  const nullSuite = accepted('NULL')
  if (nullSuite) {
    out.push(
      capped(
        TLS_HANDSHAKE.nullOrAnonymousCap,
        'high',
        `${where} accepts cipher suites without encryption (${nullSuite.cipher ?? 'NULL'} was accepted), so a client that offers ` +
          `one sends everything in clear text (SSL Labs, testssl.sh: F); disable NULL suites`,
      ),
    )
  }
  const anonSuite = accepted('anonymous')
  if (anonSuite) {
    out.push(
      capped(
        TLS_HANDSHAKE.nullOrAnonymousCap,
        'high',
        `${where} accepts anonymous cipher suites (${anonSuite.cipher ?? 'aNULL'} was accepted), which authenticate nobody, ` +
          `so a man in the middle can pose as the server (SSL Labs, testssl.sh: F); disable aNULL suites`,
      ),
    )
  }
  const unknown = scan.attempts.filter((a) => a.outcome === 'unknown')
  if (unknown.length > 0) {
    out.push({
      cap: HTTPS.scores.ok,
      finding: {
        severity: 'info',
        message: `Could not tell whether ${where} accepts ${unknown.map((a) => ATTEMPT_LABEL[a.kind]).join(', ')} (${unknown[0].error ?? 'no answer'})`,
      },
    })
  }
  return out
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
          message: `Plain http on ${host} does not answer (${alt.error ? clip(alt.error, 120) : 'no answer'})`,
        },
      },
    ]
  }
  const answer = alt.location
    ? `it redirects to ${shortUrl(locationHref(alt.location, alt.url))}`
    : `it answers ${alt.status}`
  return [warn(`${alt.url} does not redirect to https (${answer}); add a permanent (301) redirect to https`)]
}

/** A Location as an absolute URL when it resolves, else as written (shortUrl then excerpts it). */
function locationHref(location: string, base: string): string {
  try {
    return new URL(location, base).href
  } catch {
    return location
  }
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

function handshakeDetails(tls: TlsInfo, cert: CertificateInfo, scan: TlsScan | null) {
  const offered = (kind: HandshakeAttempt['kind']) => {
    const a = scan?.attempts.find((x) => x.kind === kind)
    return !a || a.outcome === 'unknown' ? null : a.outcome === 'accepted'
  }
  return {
    cipher: tls.cipher,
    keyExchange: tls.keyExchange,
    forwardSecrecy:
      tls.keyExchange === null ? null : tls.keyExchange === 'ECDHE' || tls.keyExchange === 'DHE',
    ephemeralKey: tls.ephemeralKey,
    legacyFallback: tls.legacyFallback,
    keyType: cert.keyType,
    keyBits: cert.keyBits,
    signatureAlgorithm: cert.signatureAlgorithm,
    hasSubjectAltName: cert.hasSubjectAltName,
    mustStaple: cert.mustStaple,
    ocspStapled: tls.ocspStapled,
    /** What the TLS scan found accepted (null: not scanned or no verdict). */
    accepts: {
      tls1_0: offered('TLSv1'),
      tls1_1: offered('TLSv1.1'),
      nullCiphers: offered('NULL'),
      anonymousCiphers: offered('anonymous'),
    },
  }
}

function alternateDetails(alt: AlternateProbe | null) {
  const judged = alt?.attempted ? alt.ok : null
  return {
    httpRedirectsToHttps: alt?.kind === 'http_to_https' ? judged : null,
    httpsOffered: alt?.kind === 'https_offered' ? judged : null,
    // which companion URL was asked (the matching port), or would have been when none matches
    companionUrl: alt?.url ?? null,
    companionChecked: alt?.attempted ?? null,
  }
}

const urgent = (message: string): Judgement => ({
  cap: HTTPS.scores.urgent,
  finding: { severity: 'high', message },
})
const capped = (cap: number, severity: Finding['severity'], message: string): Judgement => ({
  cap,
  finding: { severity, message },
})
const issuerName = (cert: CertificateInfo) => (cert.issuer ? plainName(cert.issuer) : 'an unnamed issuer')
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
