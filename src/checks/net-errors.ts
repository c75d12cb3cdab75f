/**
 * Turns what undici, net, dns and tls throw into the engine's error: a blocked address found at
 * connect time is `invalid_url`; everything that left us without an answer is `check_failed`,
 * with one specific sentence a user can act on.
 */
import { CheckError, checkFailed, invalidUrl } from './errors.js'
import { isBlockedLookupError } from './guard.js'
import { isProtocolVersionError } from './tls/legacy.js'

/** Why the check's own AbortSignal fired. */
export type AbortCause = 'timeout' | 'cancelled' | null

export function toCheckError(err: unknown, url: URL, abort: AbortCause, totalTimeoutMs: number): CheckError {
  if (err instanceof CheckError) return err
  const host = url.hostname
  const where = `${host}:${url.port || (url.protocol === 'https:' ? 443 : 80)}`

  if (abort === 'timeout') return checkFailed(`No answer from ${host} within ${seconds(totalTimeoutMs)}`)
  if (abort === 'cancelled') return checkFailed(`The check of ${host} was cancelled`)

  const chain = causes(err)
  if (isBlockedLookupError(err)) {
    // The caller learns only that the name is local or private: which address it resolved to would
    // let any key holder map internal names to addresses for free. The detail goes to the log.
    const blocked = chain.find(
      (e) => isBlockedLookupError(e) && !isBlockedLookupError((e as { cause?: unknown }).cause),
    ) as (Error & { publicMessage?: string }) | undefined
    return invalidUrl(
      blocked?.publicMessage ?? `Blocked for safety: ${host} resolves to a private or local address`,
      blocked?.message,
    )
  }
  const codes = new Set(
    chain.map((e) => (e as { code?: unknown }).code).filter((c): c is string => typeof c === 'string'),
  )
  const has = (...list: string[]) => list.some((c) => codes.has(c))

  const dns = chain.find((e) =>
    /^(getaddrinfo|query|resolve)/.test(String((e as { syscall?: unknown }).syscall)),
  )
  if (dns || has('ENOTFOUND', 'EAI_NONAME', 'EAI_NODATA', 'EAI_AGAIN')) {
    return has('ENOTFOUND', 'ENODATA', 'EAI_NONAME', 'EAI_NODATA')
      ? checkFailed(`Could not resolve ${host}: no such host`)
      : checkFailed(`Could not resolve ${host}: the DNS lookup failed, try again later`)
  }
  if (has('ECONNREFUSED')) return checkFailed(`Could not connect to ${where}: connection refused`)
  if (has('UND_ERR_CONNECT_TIMEOUT', 'ETIMEDOUT'))
    return checkFailed(`Could not connect to ${where}: no answer to the connection attempt`)
  if (has('EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL'))
    return checkFailed(`Could not connect to ${where}: the host is unreachable`)
  if (has('UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT'))
    return checkFailed(`No answer from ${host} within ${seconds(totalTimeoutMs)}`)
  // OpenSSL reads the first bytes of an HTTP answer ("HTTP/1.1 400") as a TLS record header
  if (
    url.protocol === 'https:' &&
    has('ERR_SSL_WRONG_VERSION_NUMBER', 'ERR_SSL_PACKET_LENGTH_TOO_LONG', 'ERR_SSL_HTTP_REQUEST')
  )
    return checkFailed(
      `${where} does not speak TLS: it answered the handshake with something else, most likely plain HTTP; ` +
        `check http://${where}/ instead, or enable TLS on that port`,
    )
  // the connector already retried with TLS 1.0 allowed (tls/legacy.ts): nothing from 1.0 to 1.3 is left
  if (url.protocol === 'https:' && isProtocolVersionError(err))
    return checkFailed(
      `The TLS handshake with ${where} failed: it refused every protocol version from TLS 1.0 to TLS 1.3`,
    )
  const tls = chain.find((e) => isTlsError(e))
  if (tls) return checkFailed(`The TLS handshake with ${where} failed: ${tlsReason(tls)}`)
  if (
    has(
      'ECONNRESET',
      'EPIPE',
      'UND_ERR_SOCKET',
      'UND_ERR_CLOSED',
      'ERR_HTTP2_SESSION_ERROR',
      'ERR_HTTP2_STREAM_ERROR',
    )
  )
    return checkFailed(`The connection to ${where} was closed before it answered`)
  // undici's HTTPParserError carries no `code` (its table lookup yields undefined): know it by name
  if (
    [...codes].some((c) => c.startsWith('HPE_')) ||
    chain.some((e) => (e as { name?: unknown }).name === 'HTTPParserError')
  )
    return checkFailed(`${where} did not answer with valid HTTP`, rawMessage(err))
  if (has('UND_ERR_HEADERS_OVERFLOW'))
    return checkFailed(`${where} answered with response headers too large to read`)
  if (has('UND_ERR_RES_CONTENT_LENGTH_MISMATCH'))
    return checkFailed(`${where} sent a response whose length does not match its Content-Length`)
  if (has('UND_ERR_RES_EXCEEDED_MAX_SIZE')) return checkFailed(`${where} sent a response too large to read`)
  if (has('UND_ERR_INFO')) return checkFailed(`The connection to ${where} was closed before it answered`)
  // Anything else: a library's raw text is no message for a user (and may quote what the target
  // sent); it goes to the server's log instead.
  return checkFailed(`The request to ${where} failed without a usable answer`, rawMessage(err))
}

function rawMessage(err: unknown): string {
  return causes(err)
    .map((e) => {
      const x = e as { name?: unknown; code?: unknown; message?: unknown }
      return `${String(x.name ?? 'Error')}${x.code ? ` ${String(x.code)}` : ''}: ${String(x.message ?? e)}`
    })
    .join(' <- ')
    .slice(0, 500)
}

/** The error, its causes and, for an AggregateError (one per address tried), its members. */
function causes(err: unknown, seen = new Set<unknown>()): unknown[] {
  if (!err || typeof err !== 'object' || seen.has(err)) return []
  seen.add(err)
  const e = err as { cause?: unknown; errors?: unknown }
  return [
    err,
    ...causes(e.cause, seen),
    ...(Array.isArray(e.errors) ? e.errors.flatMap((x) => causes(x, seen)) : []),
  ]
}

function isTlsError(err: unknown): boolean {
  const code = String((err as { code?: unknown }).code ?? '')
  const message = String((err as { message?: unknown }).message ?? '')
  return (
    code.startsWith('ERR_SSL_') ||
    code === 'EPROTO' ||
    code === 'ERR_TLS_HANDSHAKE_TIMEOUT' ||
    /\bSSL\b|TLS/.test(message)
  )
}

function tlsReason(err: unknown): string {
  const e = err as { code?: string; reason?: string; message?: string }
  return e.reason ?? e.message?.split('\n')[0].split(':').pop()?.trim() ?? e.code ?? 'unknown error'
}

const seconds = (ms: number) => (ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`)
