/**
 * The TLS scan: a handful of extra handshakes beside the main request, each asking one question
 * the negotiated session cannot answer — does the server also accept TLS 1.0, TLS 1.1, suites
 * without encryption (NULL), suites without authentication (anonymous)? testssl.sh and sslscan ask
 * the same by offering only the suites in question; a completed handshake is the answer.
 *
 * Two questions share a handshake first — TLS 1.0 or 1.1? NULL or anonymous? — since a server
 * refuses both halves at once in the common case, so a modern server costs two handshakes, not
 * four; only a half that was accepted sends a second handshake for the other half. Every handshake
 * goes through the SSRF guard (the literal host is checked, and the guarded lookup judges every
 * address DNS returns), the two pairs run in parallel, and each handshake is bounded in time.
 * Nothing is sent after the handshake: the socket is closed as soon as the server has answered.
 */
import { isIP } from 'node:net'
import { performance } from 'node:perf_hooks'
import tls from 'node:tls'
import { assertTargetAllowed, createGuardedLookup, isBlockedLookupError } from '../guard.js'
import { originKey } from '../http-agent.js'
import type { HandshakeAttempt, TlsScan } from '../types.js'

export interface ScanOptions {
  allowPrivateTargets?: boolean
  /** Test seam: the guarded lookup's resolver. */
  resolver?: Parameters<typeof createGuardedLookup>[0]['resolver']
  /** Bound on each handshake, ms. */
  timeoutMs: number
  signal?: AbortSignal
}

interface HandshakeProbe {
  /** Names the secure context (one per distinct offer). */
  key: string
  options: tls.SecureContextOptions
}

type Outcome = Omit<HandshakeAttempt, 'kind'>

/**
 * Security level 0 lets OpenSSL 3 offer what it would otherwise refuse to (SHA-1 handshake signatures
 * of TLS 1.0/1.1, NULL and anonymous suites). TLS 1.3 has no NULL or anonymous suites (RFC 8446
 * §B.4), so those probes stop at TLS 1.2, where such a server would accept them.
 */
const OFFERS = {
  legacy: {
    key: 'legacy',
    options: { minVersion: 'TLSv1', maxVersion: 'TLSv1.1', ciphers: 'DEFAULT:@SECLEVEL=0' },
  },
  TLSv1: {
    key: 'TLSv1',
    options: { minVersion: 'TLSv1', maxVersion: 'TLSv1', ciphers: 'DEFAULT:@SECLEVEL=0' },
  },
  weak: {
    key: 'weak',
    options: { minVersion: 'TLSv1', maxVersion: 'TLSv1.2', ciphers: 'eNULL:aNULL:@SECLEVEL=0' },
  },
  NULL: {
    key: 'NULL',
    options: { minVersion: 'TLSv1', maxVersion: 'TLSv1.2', ciphers: 'eNULL:@SECLEVEL=0' },
  },
  anonymous: {
    key: 'anonymous',
    options: { minVersion: 'TLSv1', maxVersion: 'TLSv1.2', ciphers: 'aNULL:!eNULL:@SECLEVEL=0' },
  },
} as const satisfies Record<string, HandshakeProbe>

/** A suite without encryption (IANA `_WITH_NULL_`, OpenSSL `…NULL-…`). */
const isNullSuite = (cipher = '') => /_WITH_NULL_|(^|-)NULL-/.test(cipher)
/** A suite without authentication (IANA `_anon_`, OpenSSL ADH-/AECDH-). */
const isAnonymousSuite = (cipher = '') => /_anon_|^(ADH|AECDH)-/.test(cipher)

/**
 * One secure context per probe, built once: a context made per connection would load the root store
 * each time, which costs more than the handshake. No `ca`: the scan verifies nothing.
 */
const contexts = new Map<string, tls.SecureContext>()
function contextFor(probe: HandshakeProbe): tls.SecureContext {
  let context = contexts.get(probe.key)
  if (!context) {
    context = tls.createSecureContext(probe.options)
    contexts.set(probe.key, context)
  }
  return context
}

/** Scans an https URL's origin. Never throws: a probe that cannot run is an `unknown` attempt. */
export async function scanHandshakes(url: URL, opts: ScanOptions): Promise<TlsScan> {
  const host = url.hostname.replace(/^\[|\]$/g, '')
  const port = Number(url.port || 443)
  const started = performance.now()
  let attempts: HandshakeAttempt[]
  try {
    assertTargetAllowed(url, { allowPrivateTargets: opts.allowPrivateTargets })
    const lookup = createGuardedLookup({
      allowPrivateTargets: opts.allowPrivateTargets,
      resolver: opts.resolver,
    })
    const ask = (probe: HandshakeProbe) => handshake(probe, host, port, lookup, opts)
    const [legacy, weak] = await Promise.all([legacyVersions(ask), weakSuites(ask)])
    attempts = [
      { kind: 'TLSv1', ...legacy.TLSv1 },
      { kind: 'TLSv1.1', ...legacy['TLSv1.1'] },
      { kind: 'NULL', ...weak.NULL },
      { kind: 'anonymous', ...weak.anonymous },
    ]
  } catch (err) {
    const error = err instanceof Error ? err.message : String(err)
    attempts = KINDS.map((kind) => ({ kind, outcome: 'unknown', error, ms: 0 }))
  }
  return {
    origin: originKey('https:', url.hostname, url.port),
    attempts,
    ms: round(performance.now() - started),
  }
}

const KINDS: readonly HandshakeAttempt['kind'][] = ['TLSv1', 'TLSv1.1', 'NULL', 'anonymous']

/**
 * TLS 1.0 and 1.1 in one ClientHello: a server picks the highest version both speak (RFC 5246
 * §E.1), so TLS 1.1 negotiated says nothing about 1.0 (asked alone next) and TLS 1.0 negotiated
 * means 1.1 is not spoken.
 */
async function legacyVersions(ask: (p: HandshakeProbe) => Promise<Outcome>) {
  const both = await ask(OFFERS.legacy)
  if (both.outcome !== 'accepted') return { TLSv1: both, 'TLSv1.1': both }
  if (both.protocol === 'TLSv1')
    return {
      TLSv1: both,
      'TLSv1.1': {
        outcome: 'refused',
        error: 'the server chose TLS 1.0 over TLS 1.1',
        ms: both.ms,
      } as Outcome,
    }
  return { TLSv1: await ask(OFFERS.TLSv1), 'TLSv1.1': both }
}

/** NULL and anonymous suites in one ClientHello; the kind the server did not pick is asked alone. */
async function weakSuites(ask: (p: HandshakeProbe) => Promise<Outcome>) {
  const both = await ask(OFFERS.weak)
  if (both.outcome !== 'accepted') return { NULL: both, anonymous: both }
  // an anonymous suite without encryption answers the NULL question; the anonymous one asks aNULL:!eNULL
  if (isNullSuite(both.cipher)) return { NULL: both, anonymous: await ask(OFFERS.anonymous) }
  if (isAnonymousSuite(both.cipher)) return { NULL: await ask(OFFERS.NULL), anonymous: both }
  // neither (a server that ignored our list): ask each question alone
  const [nullSuites, anonymous] = await Promise.all([ask(OFFERS.NULL), ask(OFFERS.anonymous)])
  return { NULL: nullSuites, anonymous }
}

function handshake(
  probe: HandshakeProbe,
  host: string,
  port: number,
  lookup: ReturnType<typeof createGuardedLookup>,
  opts: ScanOptions,
): Promise<Outcome> {
  return new Promise((resolve) => {
    const started = performance.now()
    let settled = false
    const socket = tls.connect({
      secureContext: contextFor(probe),
      host,
      port,
      // RFC 6066 §3: SNI carries host names only, never an address literal
      ...(isIP(host) ? {} : { servername: host }),
      lookup,
      rejectUnauthorized: false,
      ALPNProtocols: ['http/1.1'],
    })
    const finish = (result: Omit<Outcome, 'ms'>) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      opts.signal?.removeEventListener('abort', onAbort)
      socket.destroy()
      resolve({ ...result, ms: round(performance.now() - started) })
    }
    const onAbort = () => finish({ outcome: 'unknown', error: 'the check ended first' })
    const timer = setTimeout(
      () => finish({ outcome: 'unknown', error: `no answer within ${opts.timeoutMs} ms` }),
      opts.timeoutMs,
    )
    if (opts.signal?.aborted) return onAbort()
    opts.signal?.addEventListener('abort', onAbort, { once: true })

    socket.on('error', (err) => finish(classify(err)))
    socket.once('secureConnect', () =>
      finish({
        outcome: 'accepted',
        protocol: socket.getProtocol() ?? undefined,
        cipher: socket.getCipher()?.standardName || socket.getCipher()?.name,
      }),
    )
    // a server that hangs up on the ClientHello without an alert has declined it too
    socket.once('close', () => finish({ outcome: 'refused', error: 'the server closed the connection' }))
  })
}

/** Errors that say nothing about what the server accepts: the probe never reached a handshake. */
const NO_VERDICT = new Set([
  'ECONNREFUSED',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_NONAME',
  'EAI_NODATA',
  // our own side could not offer what was asked (an OpenSSL build without these suites)
  'ERR_SSL_NO_CIPHERS_AVAILABLE',
  'ERR_SSL_NO_PROTOCOLS_AVAILABLE',
  'ERR_SSL_NO_CIPHER_MATCH',
])

function classify(err: Error & { code?: string; reason?: string }): Omit<HandshakeAttempt, 'kind' | 'ms'> {
  const error = err.reason ?? err.message.split('\n')[0]
  if (isBlockedLookupError(err) || (err.code !== undefined && NO_VERDICT.has(err.code)))
    return { outcome: 'unknown', error }
  return { outcome: 'refused', error }
}

const round = (ms: number) => Math.round(ms * 10) / 10
