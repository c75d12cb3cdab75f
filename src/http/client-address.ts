/**
 * The client's address, for every per-address limit and log line. By default it is the TCP peer:
 * `X-Forwarded-For` is a header anyone can send, so it is never believed unless the operator says
 * which proxies stand in front (`serve --trust-proxy`). Then the header is read from the right,
 * hop by hop, and only as far as those trusted proxies go: the first address not trusted is the
 * client (RFC 7239 §8.1 and the `X-Forwarded-For` cautions it repeats; the same walk Express does,
 * with its library, proxy-addr).
 */
import { isIP } from 'node:net'
import { getRequestIP, type H3Event } from 'h3'
import proxyaddr from 'proxy-addr'

/** Says whether the hop at `addr`, `i` hops from us (0 = the TCP peer), may be trusted. */
export type TrustProxy = (addr: string, i: number) => boolean

/**
 * `--trust-proxy` as given: a number of hops (`1`: the peer is our proxy), or a comma-separated
 * list of addresses and CIDR ranges (and proxy-addr's names `loopback`, `linklocal`,
 * `uniquelocal`). Throws with a message a person can act on when it is neither.
 */
export function parseTrustProxy(value: string): TrustProxy {
  const v = value.trim()
  if (/^\d+$/.test(v)) {
    const hops = Number(v)
    if (hops < 1 || hops > 32) throw new Error('--trust-proxy: a number of hops is 1 to 32.')
    return (_addr, i) => i < hops
  }
  const list = v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
  if (list.length === 0) throw new Error('--trust-proxy: give a number of hops or addresses/CIDR ranges.')
  try {
    return proxyaddr.compile(list)
  } catch (err) {
    throw new Error(
      `--trust-proxy: ${(err as Error).message}. Give a number of hops or addresses/CIDR ranges.`,
    )
  }
}

/** The TCP peer of the request (node adapter), without IPv4-mapped IPv6's prefix. */
function peerOf(event: H3Event): string | undefined {
  const ip = getRequestIP(event)
  return ip?.startsWith('::ffff:') && isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip
}

/** The client address under `trust` (the peer itself when nothing is trusted). */
export function resolveClientAddress(
  peer: string | undefined,
  forwardedFor: string | null,
  trust: TrustProxy | undefined,
): string {
  if (!peer) return 'unknown'
  if (!trust || !forwardedFor) return peer
  const req = { headers: { 'x-forwarded-for': forwardedFor }, connection: { remoteAddress: peer } }
  // proxy-addr walks from the peer leftwards while each hop is trusted; a malformed entry ends it
  return proxyaddr(req as unknown as Parameters<typeof proxyaddr>[0], trust)
}

const KEY = 'clientAddress'

/** Works the address out once per request (the app's onRequest); `clientAddress` reads it. */
export function attachClientAddress(event: H3Event, trust: TrustProxy | undefined): void {
  event.context[KEY] = resolveClientAddress(peerOf(event), event.req.headers.get('x-forwarded-for'), trust)
}

export function clientAddress(event: H3Event): string {
  const known = event.context[KEY] as string | undefined
  return known ?? resolveClientAddress(peerOf(event), null, undefined)
}
