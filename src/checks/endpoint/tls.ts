/**
 * A tls monitor's run: the handshake with a host on a port (directly, or after STARTTLS), and the
 * certificate judged as the HTTP check judges it. The engine's own code does the work: the
 * guarded connection (connect.ts), the handshake facts (`readTlsInfo`: Node's own verification)
 * and the certificate judgements of the https signal (`certificateJudgements`): a finding that
 * zeroes that signal (expired, not yet valid, wrong name, self-signed, untrusted) is this run's
 * reason to be down.
 */
import { isIP, type Socket } from 'node:net'
import { performance } from 'node:perf_hooks'
import tls from 'node:tls'
import type { StartTls } from '../../contract/monitor-target.js'
import { checkFailed } from '../errors.js'
import { certificateJudgements } from '../signals/https/certificate.js'
import { HTTPS } from '../thresholds.js'
import { readTlsInfo, secureContextWithExtraCA } from '../tls-info.js'
import type { TlsInfo } from '../types.js'
import { closeAll, Deadline, endpointUrl, openSocket, within, type EndpointOptions } from './connect.js'
import { startTls } from './starttls.js'

const DAY_MS = 86_400_000

export interface TlsEndpointOptions extends EndpointOptions {
  starttls?: StartTls | null
  /** CAs trusted beside Node's (a private CA; tests). */
  extraCA?: string | string[]
  now?: Date
}

export interface TlsResult {
  /** From the connection's start to the end of the handshake, ms (DNS left out). */
  responseMs: number
  /** Whole days until the certificate expires (negative once expired). */
  daysLeft: number
  issuer: string
  protocol: string | null
  /** When the certificate ends, ISO. */
  validTo: string
  /** Why the certificate is not valid for the host (expired, self-signed, wrong name…), or null. */
  problem: string | null
}

function handshake(socket: Socket, host: string, opts: TlsEndpointOptions): Promise<tls.TLSSocket> {
  return new Promise((resolve, reject) => {
    const context = secureContextWithExtraCA(opts.extraCA)
    const secure = tls.connect({
      socket,
      // no SNI for an address (RFC 6066 §3); the name is judged against the certificate either way
      ...(isIP(host) ? {} : { servername: host }),
      rejectUnauthorized: false,
      ...(context ? { secureContext: context } : {}),
    })
    secure.once('secureConnect', () => resolve(secure))
    secure.on('error', reject)
  })
}

/** What the handshake showed of the certificate, judged for `host`. */
export function judgeCertificate(info: TlsInfo, host: string, now: Date): Omit<TlsResult, 'responseMs'> {
  const cert = info.certificate
  if (!cert) throw checkFailed(`${host} completed the TLS handshake without a certificate`)
  const broken = certificateJudgements(info, cert, host, now).find((j) => j.cap === HTTPS.scores.broken)
  return {
    // whole days as the https signal counts them (signals/https/details.ts)
    daysLeft: Math.trunc((new Date(cert.validTo).getTime() - now.getTime()) / DAY_MS),
    issuer: cert.issuer,
    protocol: info.protocol,
    validTo: cert.validTo,
    problem: broken?.finding.message ?? null,
  }
}

/** Connects, upgrades with STARTTLS when asked, completes the handshake and judges the certificate. */
export async function probeTls(host: string, port: number, opts: TlsEndpointOptions): Promise<TlsResult> {
  const url = endpointUrl(host, port, true)
  const deadline = new Deadline(opts.timeoutMs, opts.signal)
  const sockets = new Set<Socket>()
  try {
    const started = performance.now()
    const { socket } = await within(deadline, url, openSocket(url, opts, sockets))
    if (opts.starttls) await within(deadline, url, startTls(socket, opts.starttls, `${url.host}`))
    const secure = await within(deadline, url, handshake(socket, host, opts))
    sockets.add(secure)
    const responseMs = performance.now() - started
    return { responseMs, ...judgeCertificate(readTlsInfo(secure, host), host, opts.now ?? new Date()) }
  } finally {
    deadline.end()
    closeAll(sockets)
  }
}
