/** The HTTPS signal's details object: the certificate, the handshake and the companion URL asked. */
import type { AlternateProbe, CertificateInfo, HandshakeAttempt, TlsInfo, TlsScan } from '../../types.js'
import { DAY_MS } from '../format.js'

export function tlsDetails(tls: TlsInfo | null, cert: CertificateInfo | null, now: Date) {
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

export function handshakeDetails(tls: TlsInfo, cert: CertificateInfo, scan: TlsScan | null) {
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

export function alternateDetails(alt: AlternateProbe | null) {
  const judged = alt?.attempted ? alt.ok : null
  return {
    httpRedirectsToHttps: alt?.kind === 'http_to_https' ? judged : null,
    httpsOffered: alt?.kind === 'https_offered' ? judged : null,
    // which companion URL was asked (the matching port), or would have been when none matches
    companionUrl: alt?.url ?? null,
    companionChecked: alt?.attempted ?? null,
  }
}
