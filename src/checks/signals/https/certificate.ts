/**
 * The certificate a browser is shown: in its dates, for this host, from a trusted chain, how long
 * until it runs out; and the TLS version it was served over.
 */
import { HTTPS, TLS_ERROR_CODES, TLS_HANDSHAKE } from '../../thresholds.js'
import type { CertificateInfo, TlsInfo } from '../../types.js'
import { DAY_MS, fmtDate, HOUR_MS, plainName } from '../format.js'
import { type Judgement, urgent, issuerName, warn, span } from './judgement.js'

export function certificateJudgements(
  tls: TlsInfo,
  cert: CertificateInfo,
  host: string,
  now: Date,
): Judgement[] {
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

export function protocolJudgements(tls: TlsInfo, host: string): Judgement[] {
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
