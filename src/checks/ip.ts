/**
 * IP address maths for the URL guard: strict parsers for IPv4 (dotted decimal) and IPv6 (to a
 * BigInt), and the special-purpose ranges a health check must never contact. Everything here is
 * fail-closed: a string that does not parse as a canonical address is treated as blocked by the
 * callers.
 */

/** A range that is not allowed, with the words a user sees ("a loopback address"). */
interface Range<T> {
  base: T
  prefix: number
  what: string
  cidr: string
}

// ---------------------------------------------------------------------------------------------
// IPv4

const V4_OCTET = /^(?:0|[1-9]\d{0,2})$/

/**
 * Strict dotted-decimal IPv4 (`a.b.c.d`, each 0-255, no leading zeros) to an unsigned 32-bit
 * number; null for anything else. Short, octal and hex forms are deliberately refused: Node's
 * URL parser has already turned those into this canonical form, so meeting one here means the
 * string did not come from a canonical source.
 */
export function parseIPv4(text: string): number | null {
  const parts = text.split('.')
  if (parts.length !== 4) return null
  let value = 0
  for (const part of parts) {
    if (!V4_OCTET.test(part)) return null
    const octet = Number(part)
    if (octet > 255) return null
    value = value * 256 + octet
  }
  return value
}

export function formatIPv4(value: number): string {
  return [value >>> 24, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff].join('.')
}

function v4Range(cidr: string, what: string): Range<number> {
  const [base, bits] = cidr.split('/')
  const parsed = parseIPv4(base)
  const prefix = Number(bits)
  if (parsed === null || !Number.isInteger(prefix) || prefix < 0 || prefix > 32) {
    throw new Error(`bad IPv4 range ${cidr}`)
  }
  return { base: parsed, prefix, what, cidr }
}

/** Most specific first: the first match names the reason. */
const BLOCKED_V4: Range<number>[] = [
  v4Range('0.0.0.0/32', 'the unspecified address'),
  v4Range('255.255.255.255/32', 'the limited broadcast address'),
  v4Range('0.0.0.0/8', 'a "this network" address'),
  v4Range('10.0.0.0/8', 'a private address'),
  v4Range('100.64.0.0/10', 'a shared (carrier-grade NAT) address'),
  v4Range('127.0.0.0/8', 'a loopback address'),
  v4Range('169.254.0.0/16', 'a link-local address'),
  v4Range('172.16.0.0/12', 'a private address'),
  v4Range('192.0.0.0/24', 'an IETF protocol assignment address'),
  v4Range('192.0.2.0/24', 'a documentation address (TEST-NET-1)'),
  v4Range('192.88.99.0/24', 'a 6to4 relay anycast address'),
  v4Range('192.168.0.0/16', 'a private address'),
  v4Range('198.18.0.0/15', 'a benchmarking address'),
  v4Range('198.51.100.0/24', 'a documentation address (TEST-NET-2)'),
  v4Range('203.0.113.0/24', 'a documentation address (TEST-NET-3)'),
  v4Range('224.0.0.0/4', 'a multicast address'),
  v4Range('240.0.0.0/4', 'a reserved address'),
]

function inV4(value: number, range: Range<number>): boolean {
  if (range.prefix === 0) return true
  const shift = 32 - range.prefix
  // unsigned division instead of >>> so a /32 (shift 0) and a /1 behave alike
  return Math.floor(value / 2 ** shift) === Math.floor(range.base / 2 ** shift)
}

/** Why an IPv4 address (as a number) is blocked, or null when it is public. */
export function blockedIPv4Reason(value: number): string | null {
  const hit = BLOCKED_V4.find((r) => inV4(value, r))
  return hit ? `${hit.what} (${hit.cidr})` : null
}

// ---------------------------------------------------------------------------------------------
// IPv6

const HEX_GROUP = /^[0-9a-f]{1,4}$/i

function groups(part: string): number[] | null {
  if (part === '') return []
  const out: number[] = []
  for (const g of part.split(':')) {
    if (!HEX_GROUP.test(g)) return null
    out.push(parseInt(g, 16))
  }
  return out
}

/**
 * IPv6 text to a 128-bit BigInt; null when it does not parse. Accepts `::` compression (once) and
 * an embedded dotted IPv4 tail (`::ffff:127.0.0.1`). Surrounding brackets are not accepted, and
 * neither is a zone id (`fe80::1%eth0`): an address scoped to an interface is never a public
 * target, so refusing to parse it makes it blocked.
 */
export function parseIPv6(text: string): bigint | null {
  if (text.length === 0 || text.length > 45 || !/^[0-9a-fA-F:.]+$/.test(text)) return null
  let s = text
  if (s.includes('.')) {
    const lastColon = s.lastIndexOf(':')
    if (lastColon === -1) return null
    const v4 = parseIPv4(s.slice(lastColon + 1))
    if (v4 === null) return null
    s = `${s.slice(0, lastColon + 1)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`
  }
  const halves = s.split('::')
  if (halves.length > 2) return null
  let all: number[]
  if (halves.length === 2) {
    const head = groups(halves[0])
    const tail = groups(halves[1])
    if (!head || !tail || head.length + tail.length > 7) return null
    all = [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail]
  } else {
    const only = groups(s)
    if (!only || only.length !== 8) return null
    all = only
  }
  return all.reduce((acc, g) => (acc << 16n) | BigInt(g), 0n)
}

function v6Range(cidr: string, what: string): Range<bigint> {
  const [base, bits] = cidr.split('/')
  const parsed = parseIPv6(base)
  const prefix = Number(bits)
  if (parsed === null || !Number.isInteger(prefix) || prefix < 0 || prefix > 128) {
    throw new Error(`bad IPv6 range ${cidr}`)
  }
  return { base: parsed, prefix, what, cidr }
}

function inV6(value: bigint, range: Range<bigint>): boolean {
  const shift = BigInt(128 - range.prefix)
  return value >> shift === range.base >> shift
}

/** The only IPv6 space that may be contacted: global unicast, minus the special blocks below. */
const GLOBAL_UNICAST = v6Range('2000::/3', 'global unicast')

/** Special blocks inside 2000::/3, most specific first. */
const BLOCKED_V6_GLOBAL: Range<bigint>[] = [
  v6Range('2001::/32', 'a Teredo tunnelling address'),
  v6Range('2001:2::/48', 'a benchmarking address'),
  v6Range('2001:10::/28', 'an ORCHID address'),
  v6Range('2001:20::/28', 'an ORCHIDv2 address'),
  v6Range('2001::/23', 'an IETF protocol assignment address'),
  v6Range('2001:db8::/32', 'a documentation address'),
  v6Range('2002::/16', 'a 6to4 address'),
  v6Range('3fff::/20', 'a documentation address'),
]

/** Named blocks outside 2000::/3 (all of it is blocked; these only give a precise reason). */
const NAMED_V6_OTHER: Range<bigint>[] = [
  v6Range('::/128', 'the unspecified address'),
  v6Range('::1/128', 'a loopback address'),
  v6Range('::ffff:0:0/96', 'an IPv4-mapped IPv6 address'),
  v6Range('::/96', 'an IPv4-compatible IPv6 address'),
  v6Range('64:ff9b::/96', 'a NAT64 address'),
  v6Range('64:ff9b:1::/48', 'a local-use NAT64 address'),
  v6Range('100::/64', 'a discard-only address'),
  v6Range('fc00::/7', 'a unique local (private) address'),
  v6Range('fe80::/10', 'a link-local address'),
  v6Range('fec0::/10', 'a site-local address'),
  v6Range('5f00::/16', 'a segment routing (SRv6) address'),
  v6Range('ff00::/8', 'a multicast address'),
]

/** The IPv4 address carried in the low 32 bits, for mapped / NAT64 / compatible forms. */
function embeddedV4(value: bigint): string {
  return formatIPv4(Number(value & 0xffffffffn))
}

/** Why an IPv6 address (as a BigInt) is blocked, or null when it is a public global address. */
export function blockedIPv6Reason(value: bigint): string | null {
  if (inV6(value, GLOBAL_UNICAST)) {
    const hit = BLOCKED_V6_GLOBAL.find((r) => inV6(value, r))
    return hit ? `${hit.what} (${hit.cidr})` : null
  }
  const named = NAMED_V6_OTHER.find((r) => inV6(value, r))
  if (!named) return 'outside the global unicast range (2000::/3)'
  const carriesV4 = named.cidr === '::ffff:0:0/96' || named.cidr === '64:ff9b::/96' || named.cidr === '::/96'
  return carriesV4
    ? `${named.what} (${named.cidr}, embedding ${embeddedV4(value)})`
    : `${named.what} (${named.cidr})`
}

// ---------------------------------------------------------------------------------------------

/**
 * Why an address must not be contacted, or null when it may be. Takes a bare IPv4 or IPv6 address
 * (IPv6 optionally in brackets). Anything that does not parse gets a reason: fail closed.
 */
export function blockedAddressReason(address: string): string | null {
  if (typeof address !== 'string') return 'not an IP address'
  let text = address
  if (text.startsWith('[') && text.endsWith(']')) text = text.slice(1, -1)
  if (text.includes(':')) {
    if (text.includes('%')) return 'a scoped IPv6 address (zone id)'
    const v6 = parseIPv6(text)
    return v6 === null ? 'not a valid IP address' : blockedIPv6Reason(v6)
  }
  const v4 = parseIPv4(text)
  return v4 === null ? 'not a valid IP address' : blockedIPv4Reason(v4)
}
