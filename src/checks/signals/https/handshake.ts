/**
 * What the negotiated TLS session shows (key exchange, keys, OCSP staple) and what the extra
 * handshakes of the scan found on offer.
 */
import { originKey } from '../../http-agent.js'
import { HTTPS, TLS_HANDSHAKE } from '../../thresholds.js'
import type { CertificateInfo, HandshakeAttempt, ProbeResult, TlsInfo, TlsScan } from '../../types.js'
import { type Judgement, capped } from './judgement.js'

/** What the negotiated session shows: key exchange, ephemeral key, certificate key, OCSP staple. */
export function handshakeJudgements(
  tls: TlsInfo,
  cert: CertificateInfo,
  where: string,
  host: string,
): Judgement[] {
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
export function scanOf(probe: ProbeResult, final: URL): TlsScan | null {
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
export function scanJudgements(scan: TlsScan | null, tls: TlsInfo, where: string): Judgement[] {
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
