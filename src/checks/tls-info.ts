/**
 * What a TLS connection tells about a site, read from the live socket. The probe connects with
 * `rejectUnauthorized: false` so a bad certificate becomes a finding rather than a failure; the
 * verdict is Node's own verification (`authorized` / `authorizationError`), never a re-implementation.
 */
import { X509Certificate } from 'node:crypto'
import { isIPv6 } from 'node:net'
import tls from 'node:tls'
import { readLeafFacts } from './tls/certificate.js'
import { LEGACY_TLS } from './tls/legacy.js'
import type { CertificateInfo, KeyExchange, TlsInfo } from './types.js'

/** What the connector saw beside the socket itself. */
export interface HandshakeContext {
  /** The OCSP response stapled to the handshake (null: none); leave out when none was requested. */
  ocspResponse?: Buffer | null
  /** The connection was made with legacy protocols allowed, after the modern handshake was refused. */
  legacyFallback?: boolean
}

export function readTlsInfo(
  socket: tls.TLSSocket,
  hostname: string,
  context: HandshakeContext = {},
): TlsInfo {
  const peer = socket.getPeerCertificate(true)
  const hasCert = peer && Object.keys(peer).length > 0
  const authorizationError = socket.authorized ? null : errorCode(socket.authorizationError)
  const protocol = socket.getProtocol() ?? null
  const cipher = socket.getCipher() as (tls.CipherNameAndProtocol & { standardName?: string }) | undefined
  const ephemeral = socket.getEphemeralKeyInfo() as { type?: string; name?: string; size?: number } | null
  const ephemeralKey =
    ephemeral?.type && typeof ephemeral.size === 'number'
      ? { type: ephemeral.type, name: ephemeral.name ?? null, bits: ephemeral.size }
      : null
  return {
    protocol,
    authorized: socket.authorized,
    authorizationError,
    // judged apart from the chain: Node reports only the first problem it meets, and a
    // self-signed or expired certificate hides a name mismatch behind it
    hostnameMatches: hasCert ? tls.checkServerIdentity(bare(hostname), peer) === undefined : false,
    certificate: hasCert ? certificateInfo(peer, authorizationError) : null,
    alpnProtocol: socket.alpnProtocol || null,
    cipher: cipher?.standardName || cipher?.name || null,
    keyExchange: cipher
      ? keyExchangeOf(protocol, cipher.standardName || cipher.name, ephemeralKey?.type)
      : null,
    ephemeralKey,
    ocspStapled: context.ocspResponse === undefined ? null : (context.ocspResponse?.length ?? 0) > 0,
    legacyFallback: context.legacyFallback === true,
  }
}

/**
 * The key exchange from the suite's IANA name (TLS_ECDHE_RSA_WITH_…, TLS_RSA_WITH_…, TLS_DH_anon_…)
 * or, failing that, OpenSSL's (ECDHE-RSA-…, AES128-SHA). TLS 1.3 suites name no key exchange: it is
 * always ephemeral (RFC 8446 §2), and the ephemeral key says which kind.
 */
export function keyExchangeOf(
  protocol: string | null,
  suite: string,
  ephemeralType: string | undefined,
): KeyExchange {
  if (protocol === 'TLSv1.3' || /^TLS_(AES|CHACHA20|SM4)_/.test(suite))
    return ephemeralType === 'DH' ? 'DHE' : 'ECDHE'
  if (/_anon_|^(ADH|AECDH)-/.test(suite)) return 'anonymous'
  if (/^TLS_ECDHE_|^(ECDHE|EECDH)-/.test(suite)) return /PSK/.test(suite) ? 'other' : 'ECDHE'
  if (/^TLS_DHE_|^(DHE|EDH)-/.test(suite)) return /PSK/.test(suite) ? 'other' : 'DHE'
  if (/PSK|SRP|KRB5|GOST|^TLS_(ECDH|DH)_/.test(suite)) return 'other'
  // TLS_RSA_WITH_* / OpenSSL names without a key-exchange prefix (AES128-GCM-SHA256, NULL-SHA256)
  return 'RSA'
}

function certificateInfo(
  cert: tls.DetailedPeerCertificate,
  authorizationError: string | null,
): CertificateInfo {
  const issuedBySelf =
    sameName(cert.subject, cert.issuer) &&
    (cert.issuerCertificate === cert || cert.issuerCertificate?.fingerprint256 === cert.fingerprint256)
  return {
    subject: pick(cert.subject, 'CN') ?? formatName(cert.subject),
    issuer: pick(cert.issuer, 'CN') ?? pick(cert.issuer, 'O') ?? formatName(cert.issuer),
    subjectAltNames: parseSubjectAltName(cert.subjectaltname ?? ''),
    validFrom: isoDate(cert.valid_from),
    validTo: isoDate(cert.valid_to),
    selfSigned: issuedBySelf || authorizationError === 'DEPTH_ZERO_SELF_SIGNED_CERT',
    fingerprint256: cert.fingerprint256,
    hasSubjectAltName: typeof cert.subjectaltname === 'string',
    ...publicKeyOf(cert.raw),
    ...readLeafFacts(cert.raw),
    // Node links each certificate to its issuer from the chain the server sent, then from the trust
    // store; a leaf left without one had its issuer neither sent nor trusted
    issuerMissing: !issuedBySelf && !cert.issuerCertificate,
  }
}

function publicKeyOf(raw: Buffer | undefined): Pick<CertificateInfo, 'keyType' | 'keyBits'> {
  try {
    if (!raw) return { keyType: null, keyBits: null }
    const key = new X509Certificate(raw).publicKey
    const d = key.asymmetricKeyDetails ?? {}
    const bits = d.modulusLength ?? (d.namedCurve ? CURVE_BITS[d.namedCurve] : undefined)
    return { keyType: key.asymmetricKeyType ?? null, keyBits: bits ?? null }
  } catch {
    return { keyType: null, keyBits: null }
  }
}

/** Field size of the named curves Node reports (SEC 2 / RFC 5480 names). */
const CURVE_BITS: Record<string, number> = {
  prime192v1: 192,
  secp224r1: 224,
  prime256v1: 256,
  secp256k1: 256,
  secp384r1: 384,
  secp521r1: 521,
}

/**
 * Node's `subjectaltname` string, e.g. `DNS:example.com, IP Address:0:0:0:0:0:0:0:1`, into plain
 * names (`example.com`, `::1`); entries of other kinds keep their prefix (`URI:…`, `email:…`).
 * Node quotes an entry that holds a comma or a quote as a JSON string.
 */
export function parseSubjectAltName(value: string): string[] {
  const out: string[] = []
  const entry = /\s*([^:,]+):("(?:[^"\\]|\\.)*"|[^,]*)\s*(?:,|$)/gy
  let m: RegExpExecArray | null
  while (entry.lastIndex < value.length && (m = entry.exec(value))) {
    const kind = m[1].trim()
    let name = m[2].trim()
    if (name.startsWith('"')) {
      try {
        name = JSON.parse(name) as string
      } catch {
        // keep it as written
      }
    }
    if (kind === 'DNS') out.push(name)
    else if (kind === 'IP Address')
      out.push(isIPv6(name) ? new URL(`http://[${name}]/`).hostname.slice(1, -1) : name)
    else out.push(`${kind}:${name}`)
  }
  return out
}

/**
 * Node's roots plus the caller's extra CAs. Adds to the store, never replaces it. Built once per
 * distinct set: parsing ~150 roots on every connection would cost more than the handshake.
 */
const contexts = new Map<string, tls.SecureContext>()
export function secureContextWithExtraCA(
  extraCA: string | string[] | undefined,
  /** Allow legacy protocols (TLS 1.0/1.1, see tls/legacy.ts): only for a retry after a protocol-version refusal. */
  legacy = false,
): tls.SecureContext | undefined {
  const extra = (Array.isArray(extraCA) ? extraCA : extraCA ? [extraCA] : []).filter((pem) => pem.trim())
  if (extra.length === 0 && !legacy) return undefined
  const key = `${legacy ? 'legacy' : 'modern'}\n${extra.join('\n')}`
  let context = contexts.get(key)
  if (!context) {
    context = tls.createSecureContext({
      // no `ca` at all without extra CAs: Node's default store, NODE_EXTRA_CA_CERTS included
      ...(extra.length > 0 ? { ca: [...tls.rootCertificates, ...extra] } : {}),
      ...(legacy ? LEGACY_TLS : {}),
    })
    if (contexts.size >= 16) contexts.delete(contexts.keys().next().value as string)
    contexts.set(key, context)
  }
  return context
}

const bare = (hostname: string) => (hostname.startsWith('[') ? hostname.slice(1, -1) : hostname)

function errorCode(err: unknown): string | null {
  if (!err) return null
  if (typeof err === 'string') return err
  const e = err as { code?: unknown; message?: unknown }
  return typeof e.code === 'string' ? e.code : String(e.message ?? err)
}

function pick(name: tls.Certificate | undefined, field: keyof tls.Certificate): string | undefined {
  const v = name?.[field] as string | string[] | undefined
  return Array.isArray(v) ? v[0] : v || undefined
}

function formatName(name: tls.Certificate | undefined): string {
  if (!name) return ''
  return Object.entries(name)
    .map(([k, v]) => `${k}=${Array.isArray(v) ? v.join('+') : String(v)}`)
    .join(', ')
}

function sameName(a: tls.Certificate | undefined, b: tls.Certificate | undefined): boolean {
  return !!a && !!b && formatName(a) === formatName(b)
}

function isoDate(value: string | undefined): string {
  const d = value ? new Date(value) : new Date(NaN)
  return Number.isNaN(d.getTime()) ? '' : d.toISOString()
}
