/**
 * The one way the engine opens connections: a dedicated undici Agent per check whose connector
 * resolves names through the guarded lookup, so every address DNS returns is judged at connect
 * time (DNS rebinding cannot slip a private address in after the URL was checked). No proxy, no
 * global dispatcher, no DNS cache shared between checks.
 *
 * The connector is undici's own `buildConnector`, wrapped to watch the socket: it records the
 * lookup, TCP and TLS durations, the ALPN protocol and the TLS facts of every connection.
 */
import type { Socket } from 'node:net'
import { performance } from 'node:perf_hooks'
import type { TLSSocket } from 'node:tls'
import { Agent, buildConnector, errors } from 'undici'
import { createGuardedLookup } from './guard.js'
import { readTlsInfo, secureContextWithExtraCA } from './tls-info.js'
import { isProtocolVersionError } from './tls/legacy.js'
import type { TlsInfo } from './types.js'

export type LookupResolver = NonNullable<Parameters<typeof createGuardedLookup>[0]>['resolver']

export interface GuardedAgentOptions {
  allowPrivateTargets?: boolean
  extraCA?: string | string[]
  connectTimeoutMs: number
  /** Idle limits for headers and body; the check's own AbortSignal is the real budget. */
  ioTimeoutMs: number
  /** Test seam: the guarded lookup's resolver (default: the system resolver). */
  resolver?: LookupResolver
  /**
   * Retry a TLS handshake refused for its protocol version ONCE with legacy protocols allowed
   * (tls/legacy.ts), and from then on for that origin; the connection's TlsInfo says so. Off by default.
   */
  legacyFallback?: boolean
}

/** One connection the agent opened. Times are `performance.now()` values or durations in ms. */
export interface Connection {
  /** `protocol//host:port`, see `originKey`. */
  origin: string
  openedAt: number
  dnsMs: number | null
  connectMs: number | null
  tlsMs: number | null
  /** When the socket was ready for the request (after TLS for https). */
  readyAt: number | null
  alpnProtocol: string | null
  tls: TlsInfo | null
}

export interface GuardedAgent {
  agent: Agent
  /** Every connection opened, in order. */
  connections: Connection[]
  /** The most recent working connection to the URL's origin (a check's requests to one origin run one at a time). */
  latest(url: URL): Connection | undefined
  /**
   * Connections opened from now on record no `tls` facts: reading a certificate (chain, key, DER
   * extensions) costs a few ms of CPU per connection, wasted on connections nobody judges.
   */
  stopReadingTls(): void
  /** Drops every socket at once: a check keeps nothing alive after it ends. */
  destroy(): Promise<void>
}

/** tls.connect's `requestOCSP` (undici passes it through; its types do not list it): a must-staple certificate served without a staple must show. */
const ASK_FOR_OCSP_STAPLE = { requestOCSP: true }

const DEFAULT_PORT: Record<string, string> = { 'http:': '80', 'https:': '443' }

/**
 * What `destroy` hands the agent: without one, undici makes a ClientDestroyedError (a stack trace
 * captured) on every destroy, i.e. twice a check, for sockets that are all idle by then. One made
 * once serves every check; a request still pending fails with it, as it would with undici's own.
 */
const CHECK_ENDED = new errors.ClientDestroyedError()

/** `https://[::1]:443`-style key, the same for a URL and for undici's connect options. */
export function originKey(protocol: string, hostname: string, port: string | number | undefined): string {
  const host = hostname.startsWith('[') ? hostname : hostname.includes(':') ? `[${hostname}]` : hostname
  return `${protocol}//${host.toLowerCase()}:${String(port || DEFAULT_PORT[protocol] || '')}`
}

export function createGuardedAgent(opts: GuardedAgentOptions): GuardedAgent {
  const connections: Connection[] = []
  const secureContext = secureContextWithExtraCA(opts.extraCA)
  /** Origins that refused the modern handshake for its protocol version (see `legacyFallback`). */
  const legacyOrigins = new Set<string>()
  let readTls = true

  const connect: buildConnector.connector = (options, callback) => open(options, callback, null)

  /** Opens one connection; `retry` is the connection whose modern handshake was just refused. */
  const open = (
    options: Parameters<buildConnector.connector>[0],
    callback: Parameters<buildConnector.connector>[1],
    retry: Connection | null,
  ): void => {
    const conn: Connection = retry ?? {
      origin: originKey(options.protocol, options.hostname, options.port),
      openedAt: performance.now(),
      dnsMs: null,
      connectMs: null,
      tlsMs: null,
      readyAt: null,
      alpnProtocol: null,
      tls: null,
    }
    if (!retry) connections.push(conn)
    const https = options.protocol === 'https:'
    const legacy = https && opts.legacyFallback === true && (retry !== null || legacyOrigins.has(conn.origin))
    const context = legacy ? secureContextWithExtraCA(opts.extraCA, true) : secureContext
    // a connector per connection, so the lookup's timing belongs to this socket alone and no TLS
    // session is resumed (a resumed session skips Node's hostname verification)
    const base = buildConnector({
      timeout: opts.connectTimeoutMs,
      allowH2: true,
      maxCachedSessions: 0,
      rejectUnauthorized: false,
      ...ASK_FOR_OCSP_STAPLE,
      // no `ca` at all unless extra CAs are given: Node's default store, NODE_EXTRA_CA_CERTS included
      ...(context ? { secureContext: context } : {}),
      lookup: createGuardedLookup({
        allowPrivateTargets: opts.allowPrivateTargets,
        resolver: opts.resolver,
        onLookup: ({ ms }) => {
          conn.dnsMs = ms
        },
      }),
    })
    let tcpStart = performance.now()
    let tcpDone: number | null = null
    let ocspResponse: Buffer | null = null
    // buildConnector's connect returns the socket it creates (undici's own code relies on it)
    const socket = (base as unknown as (...a: Parameters<buildConnector.connector>) => Socket | undefined)(
      options,
      (err, sock) => {
        if (err || !sock) {
          if (https && !legacy && opts.legacyFallback && isProtocolVersionError(err)) {
            legacyOrigins.add(conn.origin)
            return open(options, callback, conn)
          }
          return callback(err ?? new Error('no socket'), null)
        }
        const now = performance.now()
        conn.readyAt = now
        if (options.protocol === 'https:') {
          const tlsSocket = sock as TLSSocket
          conn.connectMs = tcpDone === null ? null : tcpDone - tcpStart
          conn.tlsMs = tcpDone === null ? null : now - tcpDone
          conn.alpnProtocol = tlsSocket.alpnProtocol || null
          if (readTls)
            conn.tls = readTlsInfo(tlsSocket, options.hostname, { ocspResponse, legacyFallback: legacy })
        } else {
          conn.connectMs = now - tcpStart
        }
        callback(null, sock)
      },
    )
    socket?.once('lookup', () => (tcpStart = performance.now()))
    socket?.once('connect', () => (tcpDone = performance.now()))
    socket?.once('OCSPResponse', (response: Buffer | null) => (ocspResponse = response))
  }

  const agent = new Agent({
    connect,
    allowH2: true,
    headersTimeout: opts.ioTimeoutMs,
    bodyTimeout: opts.ioTimeoutMs,
    // one check, one origin at a time: never pipeline, keep nothing for later
    pipelining: 1,
    connections: 4,
  })

  return {
    agent,
    connections,
    latest(url) {
      const key = originKey(url.protocol, url.hostname, url.port)
      return connections.findLast((c) => c.origin === key && c.readyAt !== null)
    },
    stopReadingTls() {
      readTls = false
    },
    destroy: () => agent.destroy(CHECK_ENDED).catch(() => {}),
  }
}
