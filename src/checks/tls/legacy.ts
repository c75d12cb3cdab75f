/**
 * Legacy TLS, allowed only where a server refused the modern handshake for its protocol version,
 * or for one bounded probe of the TLS scan. Never the default: a lowered floor on every request
 * would hide the very findings the check exists to report.
 */

/**
 * TLS 1.0/1.1 need SHA-1 handshake signatures, which OpenSSL 3 allows only at security level 0
 * ("SSL 3, TLS 1.0, TLS 1.1 … no longer working at the default security level of 1", OpenSSL 3.0
 * migration guide). `DEFAULT` keeps NULL and anonymous suites out.
 */
export const LEGACY_TLS = { minVersion: 'TLSv1', ciphers: 'DEFAULT:@SECLEVEL=0' } as const

/**
 * OpenSSL's codes for "we share no protocol version": the server's protocol_version alert (RFC 8446
 * §6.2, alert 70), or the client refusing the version the server picked.
 */
const PROTOCOL_VERSION_CODES = new Set([
  'ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION',
  'ERR_SSL_UNSUPPORTED_PROTOCOL',
  'ERR_SSL_NO_PROTOCOLS_AVAILABLE',
  'ERR_SSL_WRONG_SSL_VERSION',
  'ERR_SSL_VERSION_TOO_LOW',
])

/** True for a handshake that failed only because the server speaks no protocol version we offered. */
export function isProtocolVersionError(err: unknown, seen = new Set<unknown>()): boolean {
  if (!err || typeof err !== 'object' || seen.has(err)) return false
  seen.add(err)
  const e = err as { code?: unknown; reason?: unknown; cause?: unknown; errors?: unknown }
  if (typeof e.code === 'string' && PROTOCOL_VERSION_CODES.has(e.code)) return true
  if (typeof e.reason === 'string' && /alert protocol version|unsupported protocol/i.test(e.reason))
    return true
  return (
    isProtocolVersionError(e.cause, seen) ||
    (Array.isArray(e.errors) && e.errors.some((x) => isProtocolVersionError(x, seen)))
  )
}
