/**
 * A TCP connection to a host and port, the way the engine makes every connection: the host past
 * the SSRF guard (a blocked name or literal refused before anything connects), the name resolved
 * once by the guarded lookup, which refuses the whole answer if any address is blocked, and the
 * socket opened to an address it allowed. Bounded by the run's deadline; failures come back as
 * the engine's CheckError in the words the HTTP check uses (net-errors.ts).
 */
import net from 'node:net'
import { performance } from 'node:perf_hooks'
import { checkFailed, CheckError, invalidUrl } from '../errors.js'
import { assertTargetAllowed, createGuardedLookup } from '../guard.js'
import { toCheckError } from '../net-errors.js'

export interface EndpointOptions {
  allowPrivateTargets?: boolean
  /** The whole run's budget, ms. */
  timeoutMs: number
  /** Replaces DNS (tests). */
  resolver?: Parameters<typeof createGuardedLookup>[0]['resolver']
  signal?: AbortSignal
}

/** `host:port` as a URL the engine's guard and error words read (`https:` for TLS targets). */
export function endpointUrl(host: string, port: number, tls: boolean): URL {
  const h = host.includes(':') ? `[${host}]` : host
  try {
    return new URL(`${tls ? 'https' : 'http'}://${h}:${port}/`)
  } catch {
    throw invalidUrl(`${host} is not a host name or an IP address`)
  }
}

/** Throws invalid_url when the host is a blocked name or literal (unless private targets are allowed). */
export function assertEndpointAllowed(url: URL, opts: Pick<EndpointOptions, 'allowPrivateTargets'>): void {
  assertTargetAllowed(url, { allowPrivateTargets: opts.allowPrivateTargets })
}

/** The run's deadline: a promise that rejects when the time is up or the signal fires. */
export class Deadline {
  readonly expired: Promise<never>
  private timer: NodeJS.Timeout | undefined
  private fired: 'timeout' | 'cancelled' | null = null
  private onAbort: (() => void) | undefined

  constructor(
    readonly ms: number,
    private readonly signal?: AbortSignal,
  ) {
    this.expired = new Promise<never>((_, reject) => {
      this.timer = setTimeout(() => {
        this.fired = 'timeout'
        reject(new Error('deadline'))
      }, ms)
      this.onAbort = () => {
        this.fired = 'cancelled'
        reject(new Error('cancelled'))
      }
      signal?.addEventListener('abort', this.onAbort, { once: true })
    })
    this.expired.catch(() => {})
  }

  get cause(): 'timeout' | 'cancelled' | null {
    return this.fired
  }

  end(): void {
    clearTimeout(this.timer)
    if (this.onAbort) this.signal?.removeEventListener('abort', this.onAbort)
  }
}

/** Races `work` against the deadline; the engine's error either way. */
export async function within<T>(d: Deadline, url: URL, work: Promise<T>): Promise<T> {
  try {
    return await Promise.race([work, d.expired])
  } catch (err) {
    if (err instanceof CheckError) throw err
    throw toCheckError(err, url, d.cause, d.ms)
  }
}

/** Opens a TCP connection to `url`'s host and port; resolves with the socket and the connect time. */
export function openSocket(
  url: URL,
  opts: EndpointOptions,
  sockets: Set<net.Socket>,
): Promise<{ socket: net.Socket; connectMs: number }> {
  assertEndpointAllowed(url, opts)
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80))
  return new Promise((resolve, reject) => {
    let started = performance.now()
    const socket = net.connect({
      host,
      port,
      lookup: createGuardedLookup({ allowPrivateTargets: opts.allowPrivateTargets, resolver: opts.resolver }),
    })
    sockets.add(socket)
    // the connect time leaves DNS out, as the HTTP check's connect phase does
    socket.once('lookup', () => (started = performance.now()))
    socket.once('connect', () => resolve({ socket, connectMs: performance.now() - started }))
    socket.on('error', reject)
    socket.once('close', () => reject(checkFailed(`The connection to ${host}:${port} was closed`)))
  })
}

/**
 * Ends every socket a run opened, the newest first: a TLS socket before the plain one it wraps
 * (destroying the plain socket under a live TLS one crashes Node 20's TLS wrap on a later handshake).
 */
export function closeAll(sockets: Set<net.Socket>): void {
  for (const s of [...sockets].reverse()) s.destroy()
  sockets.clear()
}
