/**
 * What a TLS connection tells about a site, read from the live socket. The probe connects with
 * `rejectUnauthorized: false` so a bad certificate becomes a finding rather than a failure; the
 * verdict is Node's own verification (`authorized` / `authorizationError`), never a re-implementation.
 */
import { isIPv6 } from 'node:net'
import tls from 'node:tls'
import type { CertificateInfo, TlsInfo } from './types.js'

export function readTlsInfo(socket: tls.TLSSocket, hostname: string): TlsInfo {
  const peer = socket.getPeerCertificate(true)
  const hasCert = peer && Object.keys(peer).length > 0
  const authorizationError = socket.authorized ? null : errorCode(socket.authorizationError)
  return {
    protocol: socket.getProtocol() ?? null,
    authorized: socket.authorized,
    authorizationError,
    // judged apart from the chain: Node reports only the first problem it meets, and a
    // self-signed or expired certificate hides a name mismatch behind it
    hostnameMatches: hasCert ? tls.checkServerIdentity(bare(hostname), peer) === undefined : false,
    certificate: hasCert ? certificateInfo(peer, authorizationError) : null,
    alpnProtocol: socket.alpnProtocol || null,
  }
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
  }
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
): tls.SecureContext | undefined {
  const extra = (Array.isArray(extraCA) ? extraCA : extraCA ? [extraCA] : []).filter((pem) => pem.trim())
  if (extra.length === 0) return undefined
  const key = extra.join('\n')
  let context = contexts.get(key)
  if (!context) {
    context = tls.createSecureContext({ ca: [...tls.rootCertificates, ...extra] })
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
