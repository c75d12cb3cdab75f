/**
 * The check engine's URL guard (SSRF protection). Three layers, all fail-closed:
 *
 * 1. `parseTargetUrl`: only full http(s) URLs, no userinfo, bounded length.
 * 2. `assertTargetAllowed`: the canonical host Node's WHATWG URL parser produced (never the raw
 *    string) must not be a local name or a special-purpose IP literal.
 * 3. `createGuardedLookup`: the `lookup` the connection uses, so every address DNS returns is
 *    judged at connect time and DNS rebinding cannot slip a private address in afterwards.
 *
 * `allowPrivateTargets` lifts layers 2 and 3 (intranet self-hosting, tests), never layer 1.
 */
import { promises as dns } from 'node:dns'
import type { LookupAddress, LookupOptions } from 'node:dns'
import type { LookupFunction } from 'node:net'
import { performance } from 'node:perf_hooks'
import { MAX_URL_LENGTH } from '../contract/routes.js'
import { invalidUrl } from './errors.js'
import { blockedAddressReason } from './ip.js'

const BLOCKED_CODE = 'SITEHEALTH_BLOCKED'

// ---------------------------------------------------------------------------------------------
// 1. format

const SCHEME = /^([a-zA-Z][a-zA-Z0-9+.-]*):/

/** Parse and validate user input as a target URL. Throws CheckError 'invalid_url' with a clear, specific reason. */
export function parseTargetUrl(input: unknown): URL {
  if (typeof input !== 'string') {
    throw invalidUrl(`The URL must be a string (got ${input === null ? 'null' : typeof input})`)
  }
  const text = input.trim()
  if (text === '') throw invalidUrl('The URL is empty')
  if (text.length > MAX_URL_LENGTH) throw invalidUrl(`The URL is longer than ${MAX_URL_LENGTH} characters`)

  const scheme = SCHEME.exec(text)
  if (!scheme) throw invalidUrl('The URL has no scheme: write it in full, like https://example.com/')
  const protocol = `${scheme[1].toLowerCase()}:`
  if (protocol !== 'http:' && protocol !== 'https:') {
    throw invalidUrl(`Only http and https URLs can be checked (got ${protocol})`)
  }
  const rest = text.slice(scheme[0].length)
  if (!rest.startsWith('//')) {
    throw invalidUrl(
      `The URL must be written in full, like ${protocol}//example.com/ (${protocol} followed by //)`,
    )
  }
  // the authority as typed: up to the first path, query or fragment delimiter (WHATWG treats a
  // backslash like a slash in http(s) URLs)
  const authority = /^[^/?#\\]*/.exec(rest.slice(2))?.[0] ?? ''
  if (authority === '') throw invalidUrl('The URL has no host name')
  if (authority.includes('@')) throw invalidUrl('URLs with a username or password are not accepted')

  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw invalidUrl('The URL is malformed: its host name or port is not valid')
  }
  if (url.username !== '' || url.password !== '') {
    throw invalidUrl('URLs with a username or password are not accepted')
  }
  if (stripTrailingDots(url.hostname) === '') throw invalidUrl('The URL has no host name')
  if (url.port === '0') throw invalidUrl('Port 0 cannot be checked')
  if (url.href.length > MAX_URL_LENGTH) {
    throw invalidUrl(`The URL is longer than ${MAX_URL_LENGTH} characters once normalised`)
  }
  return url
}

// ---------------------------------------------------------------------------------------------
// 2. the literal host

const stripTrailingDots = (host: string) => host.replace(/\.+$/, '')

/** Names that always mean this machine, whatever DNS says. `host` is lowercase, without trailing dots. */
function isLocalName(host: string): boolean {
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host === 'localhost.localdomain' ||
    host === 'ip6-localhost' ||
    host === 'ip6-loopback'
  )
}

/** The last label is a number (decimal or 0x-hex): a resolver would read the name as an IPv4 address. */
const NUMERIC_LABEL = /(^|\.)(0x[0-9a-f]*|\d+)$/i

/**
 * Why a URL hostname (as `url.hostname` gives it) is blocked, or null. IPv6 literals come in
 * brackets; a name whose last label is numeric is judged as an IPv4 address, and one that is not
 * in canonical dotted form is blocked.
 */
function blockedHostReason(hostname: string): string | null {
  if (hostname.startsWith('[')) {
    if (!hostname.endsWith(']')) return 'not a valid IP address'
    return blockedAddressReason(hostname.slice(1, -1))
  }
  const host = stripTrailingDots(hostname.toLowerCase())
  if (host === '') return 'an empty host name'
  if (host.includes(':') || host.includes('%')) return 'not a valid host name'
  if (isLocalName(host)) return 'a name for this machine (localhost)'
  if (NUMERIC_LABEL.test(host)) return blockedAddressReason(host)
  return null
}

/** Throws invalid_url when the URL's hostname is a blocked name or a blocked IP literal (unless allowPrivateTargets). */
export function assertTargetAllowed(url: URL, opts: { allowPrivateTargets?: boolean }): void {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw invalidUrl(`Only http and https URLs can be checked (got ${url.protocol})`)
  }
  if (url.username !== '' || url.password !== '') {
    throw invalidUrl('URLs with a username or password are not accepted')
  }
  if (stripTrailingDots(url.hostname) === '') throw invalidUrl('The URL has no host name')
  if (opts.allowPrivateTargets) return
  const reason = blockedHostReason(url.hostname)
  if (reason) throw invalidUrl(`Blocked for safety: ${url.hostname} is ${reason}`)
}

/** True for any address that must not be contacted; fails closed (anything that does not parse is blocked). */
export function isBlockedAddress(address: string): boolean {
  return blockedAddressReason(address) !== null
}

// ---------------------------------------------------------------------------------------------
// 3. connect time

type Resolver = (hostname: string) => Promise<{ address: string; family: 4 | 6 }[]>

const systemResolver: Resolver = async (hostname) => {
  const answers = await dns.lookup(hostname, { all: true, order: 'verbatim' })
  return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }))
}

/**
 * The lookup's refusal. `message` (for the server's log) says which address was refused;
 * `publicMessage` (for the caller) does not: the address a name resolves to on the server's own
 * resolver is not the caller's business (it would map internal names for free).
 */
function blockedLookupError(hostname: string, detail: string, publicDetail = detail): Error {
  const err = new Error(`Blocked for safety: ${hostname} ${detail}`) as Error & {
    code: string
    hostname: string
    publicMessage: string
  }
  err.code = BLOCKED_CODE
  err.hostname = hostname
  err.publicMessage = `Blocked for safety: ${hostname} ${publicDetail}`
  return err
}

function notFound(hostname: string): Error {
  const err = new Error(`getaddrinfo ENOTFOUND ${hostname}`) as NodeJS.ErrnoException & { hostname: string }
  err.code = 'ENOTFOUND'
  err.syscall = 'getaddrinfo'
  err.hostname = hostname
  return err
}

function wantedFamily(options: LookupOptions | number | undefined): 0 | 4 | 6 {
  const family = typeof options === 'number' ? options : options?.family
  if (family === 4 || family === 'IPv4') return 4
  if (family === 6 || family === 'IPv6') return 6
  return 0
}

/**
 * A `lookup` function for net/tls.connect (and so for undici's `connect.lookup`) that resolves with
 * dns.lookup({all:true}), refuses the WHOLE answer if ANY address is blocked (error whose `code` is
 * 'SITEHEALTH_BLOCKED' and message says which host/address), and records how long DNS took.
 * It must honour the `all` option callers pass (Node 20's autoSelectFamily / Happy Eyeballs calls lookup with all:true;
 * otherwise it gets (err, address, family)). `resolver` is injectable so tests can stub DNS answers.
 */
export function createGuardedLookup(opts: {
  allowPrivateTargets?: boolean
  resolver?: (hostname: string) => Promise<{ address: string; family: 4 | 6 }[]>
  onLookup?: (info: { hostname: string; addresses: string[]; ms: number }) => void
}): LookupFunction {
  const resolver = opts.resolver ?? systemResolver
  const allow = opts.allowPrivateTargets === true

  const lookup = (
    hostname: string,
    options: LookupOptions | ((...args: unknown[]) => void),
    maybeCallback?: Parameters<LookupFunction>[2],
  ): void => {
    // dns.lookup's own shape allows the options to be left out
    const callback = (
      typeof options === 'function' ? options : maybeCallback
    ) as Parameters<LookupFunction>[2]
    const lookupOptions = typeof options === 'function' ? {} : (options ?? {})
    const family = wantedFamily(lookupOptions)

    const outcome = (async (): Promise<LookupAddress[]> => {
      if (!allow) {
        const host = stripTrailingDots(String(hostname).toLowerCase())
        if (isLocalName(host)) throw blockedLookupError(hostname, 'is a name for this machine (localhost)')
      }
      const started = performance.now()
      const answers = await resolver(hostname)
      const ms = performance.now() - started
      const list = Array.isArray(answers) ? answers : []
      try {
        opts.onLookup?.({ hostname, addresses: list.map((a) => String(a?.address)), ms })
      } catch {
        // a broken observer must not leave the connection hanging
      }
      if (!allow) {
        for (const answer of list) {
          const reason = blockedAddressReason(String(answer?.address))
          if (reason)
            throw blockedLookupError(
              hostname,
              `resolves to ${String(answer?.address)}, ${reason}`,
              'resolves to a private or local address',
            )
        }
      }
      const usable = list
        .map((a) => ({ address: a.address, family: a.family === 6 || a.address.includes(':') ? 6 : 4 }))
        .filter((a) => family === 0 || a.family === family)
      if (usable.length === 0) throw notFound(hostname)
      return usable
    })()

    outcome.then(
      (addresses) => {
        if (lookupOptions.all) callback(null, addresses)
        else callback(null, addresses[0].address, addresses[0].family)
      },
      (err: NodeJS.ErrnoException) => callback(err, lookupOptions.all ? [] : ''),
    )
  }
  return lookup as LookupFunction
}

/** True when an error (from undici/fetch, possibly wrapped in `cause` chains) came from the guarded lookup refusing a blocked address. */
export function isBlockedLookupError(err: unknown): boolean {
  const seen = new Set<unknown>()
  const visit = (e: unknown): boolean => {
    if (!e || typeof e !== 'object' || seen.has(e) || seen.size > 64) return false
    seen.add(e)
    const x = e as { code?: unknown; cause?: unknown; errors?: unknown }
    if (x.code === BLOCKED_CODE) return true
    if (visit(x.cause)) return true
    return Array.isArray(x.errors) && x.errors.some(visit)
  }
  return visit(err)
}
