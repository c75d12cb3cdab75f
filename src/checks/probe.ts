/**
 * The probe: the engine's only network code (Lighthouse's "gather" half). One GET of the URL with
 * redirects followed by hand, each hop re-validated, plus a companion request to the other scheme
 * in parallel; everything the signals judge comes back as one plain ProbeResult.
 *
 * Budget: one AbortSignal covers the whole check (connects, redirects, headers and body) and the
 * caller's own signal. Body: counted, wire and decoded sizes, up to a decoded cap; of an HTML body
 * only the first maxHtmlBytes are kept, and read into `page` (src/checks/page/). After the page, on
 * its kept-alive connection, one CORS request (cors-probe.ts) for the security_headers signal.
 */
import { performance } from 'node:perf_hooks'
import { request } from 'undici'
import { checkFailed, CheckError, invalidUrl } from './errors.js'
import { assertTargetAllowed, parseTargetUrl } from './guard.js'
import {
  createGuardedAgent,
  originKey,
  type Connection,
  type GuardedAgent,
  type LookupResolver,
} from './http-agent.js'
import { meterBody } from './body-meter.js'
import { TLS_SCAN } from './thresholds.js'
import { scanHandshakes } from './tls/scan.js'
import { decodeHtml, isHtml, isTextual, readPage } from './page/index.js'
import { CORS_PROBE, probeCors } from './cors-probe.js'
import { toCheckError, type AbortCause } from './net-errors.js'
import { excerpt, shortUrl } from './signals/format.js'
import { gatherForPage } from './perf/index.js'
import type {
  AlternateProbe,
  CheckOptions,
  CorsProbe,
  ProbeResponse,
  ProbeResult,
  ProbeTimings,
  RedirectHop,
  TlsScan,
} from './types.js'
import { defaultUserAgent } from './user-agent.js'
import { deadline } from '../shared/index.js'

export const PROBE_DEFAULTS = {
  connectTimeoutMs: 5_000,
  totalTimeoutMs: 15_000,
  maxBodyBytes: 4 * 1024 * 1024,
  /** Five hops: browsers allow 20 and Observatory 10, but a real site needing more than 2 is already a finding. */
  maxRedirects: 5,
  /** The companion request only answers a yes/no question; it must not hold the check up. */
  alternateTimeoutMs: 5_000,
  /**
   * HTML kept and parsed for the page signals: 512 KiB of decoded markup. HTTP Archive's Web Almanac
   * puts the median HTML document at a few tens of KB, so whole documents fit for nearly every site,
   * and the `<head>` and first screen (all the signals need) fit for the rest; a check holds no more
   * than this in memory; reading a full cap of dense markup (5,700 images) took 60-120 ms on the
   * shared two-core dev machine (/tmp bench, htmlparser2 12), a typical page a few ms.
   */
  maxHtmlBytes: 512 * 1024,
} as const

export interface ProbeOptions extends CheckOptions {
  /**
   * Port of the other scheme for the companion request. Without it the companion asks the port
   * paired with the URL's (COMPANION_PORTS: 80/443, 8080/8443); on any other port, where the other
   * scheme listens is unknowable, so it is not tried.
   */
  alternatePort?: number
  /** Decoded HTML bytes kept and parsed into `page` (default PROBE_DEFAULTS.maxHtmlBytes). */
  maxHtmlBytes?: number
  /** Test seam: the resolver behind the guarded lookup (default: the system's). */
  resolver?: LookupResolver
  /** The extra handshakes of the TLS scan (tls/scan.ts); default true. */
  tlsScan?: boolean
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308])

/** Why the check's controllers abort at its end: plain `abort()` makes a DOMException (a stack) each time. */
const CHECK_DONE = new DOMException('The check is over', 'AbortError')

/**
 * Ports where the other scheme of a site conventionally listens: the IANA defaults (80/443) and
 * the alternates (8080 http-alt / 8443 https-alt) that Tomcat, Jetty and most proxies pair.
 */
export const COMPANION_PORTS: Readonly<Record<string, Readonly<Record<string, number>>>> = {
  'http:': { '': 443, '80': 443, '8080': 8443 },
  'https:': { '': 80, '443': 80, '8443': 8080 },
}

/** The companion URL (other scheme, matching port) for `url`, or null when no port matches. */
export function companionUrl(url: URL, alternatePort?: number): URL | null {
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null
  const target = new URL(url.href)
  target.protocol = url.protocol === 'https:' ? 'http:' : 'https:'
  const port = alternatePort ?? COMPANION_PORTS[url.protocol][url.port]
  if (port === undefined) return null
  target.port = String(port)
  return target
}

/** Decoded bytes kept: an HTML page for the page reader, other text (JSON, …) for a monitor's assertions. */
function keepBytes(
  contentType: string | null,
  isRedirect: boolean,
  maxHtmlBytes: number | undefined,
): number {
  const text = isHtml(contentType) || isTextual(contentType)
  return text && !isRedirect ? (maxHtmlBytes ?? PROBE_DEFAULTS.maxHtmlBytes) : 0
}

export async function probe(url: URL, opts: ProbeOptions = {}): Promise<ProbeResult> {
  const totalTimeoutMs = opts.totalTimeoutMs ?? PROBE_DEFAULTS.totalTimeoutMs
  const connectTimeoutMs = opts.connectTimeoutMs ?? PROBE_DEFAULTS.connectTimeoutMs
  const maxBodyBytes = opts.maxBodyBytes ?? PROBE_DEFAULTS.maxBodyBytes
  const headers = requestHeaders(opts)

  // nothing leaves the machine for a blocked target or a check already cancelled
  assertTargetAllowed(url, { allowPrivateTargets: opts.allowPrivateTargets })
  if (opts.signal?.aborted) throw checkFailed(`The check of ${url.hostname} was cancelled`)

  const budget = new Budget(totalTimeoutMs, opts.signal)
  // the companion's agent only when there is a companion request to make (a matching port)
  const withCompanion = companionUrl(url, opts.alternatePort || undefined) !== null
  const { main, companion } = agentsFor(opts, connectTimeoutMs, totalTimeoutMs, withCompanion)
  // the clock starts once the agents exist: building a trust store is our cost, not the site's
  const start = performance.now()
  const startedAt = new Date().toISOString()
  const companionAbort = new AbortController()
  const alternate = probeAlternate(url, opts, companion, headers, [budget.signal, companionAbort.signal])
  const scanner = tlsScanner(opts, connectTimeoutMs, [budget.signal, companionAbort.signal])
  scanner.at(url)

  // CORS is asked of the URL the page ends on, once its body is read: on the main agent's kept-alive
  // connection (no extra handshake), beside the subresource fetches (perf/gather.ts)
  const corsAbort = new AbortController()
  let cors: Promise<CorsProbe> | null = null
  let current = url
  try {
    const redirects: RedirectHop[] = []
    for (;;) {
      const hopStart = performance.now()
      const res = await request(current, {
        dispatcher: main.agent,
        method: 'GET',
        headers,
        signal: budget.signal,
      })
      const headersAt = performance.now()
      const conn = main.latest(current)
      const location = firstHeader(res.headers.location)
      const isRedirect = REDIRECT_STATUSES.has(res.statusCode) && location !== undefined

      if (isRedirect && redirects.length < PROBE_DEFAULTS.maxRedirects) {
        const next = nextHop(current, location, opts.allowPrivateTargets)
        redirects.push(redirectHop(current, res.statusCode, location, res.headers))
        await res.body.dump().catch(() => {})
        current = next
        scanner.at(current)
        continue
      }

      // the final response, or the first 3xx past the cap
      const contentType = firstHeader(res.headers['content-type']) ?? null
      const html = isHtml(contentType) && !isRedirect
      const count = await meterBody(
        res.body,
        firstHeader(res.headers['content-encoding']) ?? null,
        maxBodyBytes,
        budget.signal,
        keepBytes(contentType, isRedirect, opts.maxHtmlBytes),
      )
      if (budget.cause === 'cancelled') throw count.interruption ?? new Error('cancelled')
      const end = performance.now()

      const timings = timingsOf(conn, { start, hopStart, headersAt, end })
      const response = responseOf(res.statusCode, res.headers, conn?.alpnProtocol, contentType, count)
      const text = count.retained.length > 0 ? decodeHtml(count.retained, contentType) : null
      const result: ProbeResult = {
        inputUrl: url.href,
        bodyText: text,
        finalUrl: current.href,
        response,
        redirects,
        redirectLimitExceeded: isRedirect,
        timings,
        tls: current.protocol === 'https:' ? (conn?.tls ?? null) : null,
        alternate: await alternate,
        tlsScan: await scanResult(scanner.current(), current),
        cors: null,
        startedAt,
        page:
          html && text !== null
            ? readPage(text, current.href, {
                truncated: count.truncated || count.decoded > count.retained.length,
              })
            : null,
        critical: null,
      }
      // the page's own connection is read: later ones (CORS, subresources) need no TLS facts
      main.stopReadingTls()
      if (!isRedirect) {
        // undici frees the connection a moment after the body's end: one turn of the loop lets CORS reuse it
        await new Promise((resolve) => setImmediate(resolve))
        cors = probeCors(current, main.agent, headers, [budget.signal, corsAbort.signal])
      }
      result.critical = await gatherForPage(result, {
        agent: main,
        headers,
        signal: budget.signal,
        allowPrivateTargets: opts.allowPrivateTargets,
      })
      result.cors = await settleCors(cors, corsAbort)
      return result
    }
  } catch (err) {
    throw toCheckError(err, current, budget.cause, totalTimeoutMs)
  } finally {
    companionAbort.abort(CHECK_DONE)
    corsAbort.abort(CHECK_DONE)
    budget.dispose()
    await alternate.catch(() => null)
    await cors?.catch(() => null)
    // the result is known: closing the sockets need not delay it
    void Promise.all([main.destroy(), companion?.destroy()]).catch(() => undefined)
  }
}

/** What the check sends with every request: its user agent, HTML first, the usual encodings. */
function requestHeaders(opts: ProbeOptions): Record<string, string> {
  return {
    'user-agent': opts.userAgent ?? defaultUserAgent(),
    accept: 'text/html,*/*;q=0.8',
    'accept-encoding': 'gzip, deflate, br',
  }
}

/**
 * The final hop's timings: DNS, connect and TLS only when its connection was opened for it (a
 * reused one cost nothing), the server's wait from when the connection was ready.
 */
function timingsOf(
  conn: Connection | undefined,
  t: { start: number; hopStart: number; headersAt: number; end: number },
): ProbeTimings {
  const fresh = conn && conn.openedAt >= t.hopStart ? conn : undefined
  return {
    dnsMs: ms(fresh?.dnsMs),
    connectMs: ms(fresh?.connectMs),
    tlsMs: ms(fresh?.tlsMs),
    serverWaitMs: ms(t.headersAt - Math.max(t.hopStart, fresh?.readyAt ?? t.hopStart)) ?? 0,
    ttfbMs: ms(t.headersAt - t.start) ?? 0,
    totalMs: ms(t.end - t.start) ?? 0,
  }
}

/** The page's agent, and the companion's (other scheme, shorter connect) when it has a request to make. */
function agentsFor(
  opts: ProbeOptions,
  connectTimeoutMs: number,
  totalTimeoutMs: number,
  withCompanion: boolean,
) {
  const agentOptions = {
    allowPrivateTargets: opts.allowPrivateTargets,
    extraCA: opts.extraCA,
    resolver: opts.resolver,
    ioTimeoutMs: totalTimeoutMs,
    // a server that speaks only TLS 1.0/1.1 is judged, not failed (tls/legacy.ts)
    legacyFallback: true,
  }
  const main = createGuardedAgent({ ...agentOptions, connectTimeoutMs })
  const companion = withCompanion
    ? createGuardedAgent({
        ...agentOptions,
        connectTimeoutMs: Math.min(connectTimeoutMs, PROBE_DEFAULTS.alternateTimeoutMs),
      })
    : null
  return { main, companion }
}

type Scan = { origin: string; result: Promise<TlsScan>; abort: AbortController }

/**
 * The TLS scan asks about the https origin the check is at, from the moment it gets there (the
 * first URL or a redirect hop); a plain-http page has no handshake to judge, so it gets none. A
 * new origin aborts the scan of the one before. Any of `parents` aborting aborts the scan.
 */
function tlsScanner(opts: ProbeOptions, connectTimeoutMs: number, parents: AbortSignal[]) {
  let scan: Scan | null = null
  return {
    at(target: URL): void {
      if (opts.tlsScan === false || target.protocol !== 'https:') return
      const origin = originKey(target.protocol, target.hostname, target.port)
      if (scan?.origin === origin) return
      scan?.abort.abort()
      const abort = new AbortController()
      const result = scanHandshakes(target, {
        allowPrivateTargets: opts.allowPrivateTargets,
        resolver: opts.resolver,
        timeoutMs: Math.min(connectTimeoutMs, TLS_SCAN.handshakeTimeoutMs),
        signal: AbortSignal.any([...parents, abort.signal]),
      })
      scan = { origin, result, abort }
    },
    current: (): Scan | null => scan,
  }
}

/** One redirect on the way, with the cookies it set. */
function redirectHop(
  from: URL,
  status: number,
  location: string,
  headers: Record<string, string | string[] | undefined>,
): RedirectHop {
  const hop: RedirectHop = { url: from.href, status, location }
  const hopCookies = headers['set-cookie']
  if (hopCookies !== undefined) hop.setCookies = Array.isArray(hopCookies) ? hopCookies : [hopCookies]
  return hop
}

/** The final response as the signals read it: status, protocol, headers and body sizes. */
function responseOf(
  status: number,
  headers: Record<string, string | string[] | undefined>,
  alpnProtocol: string | null | undefined,
  contentType: string | null,
  count: { wire: number; decoded: number; truncated: boolean },
): ProbeResponse {
  return {
    status,
    httpVersion: alpnProtocol === 'h2' ? '2' : '1.1',
    ...splitHeaders(headers),
    contentType,
    contentEncoding: firstHeader(headers['content-encoding'])?.toLowerCase() ?? null,
    bodyBytesWire: count.wire,
    bodyBytesDecoded: count.decoded,
    bodyTruncated: count.truncated,
  }
}

/** The scan of the final URL's origin; one of an origin the redirects left is dropped unread. */
async function scanResult(scan: Scan | null, final: URL): Promise<TlsScan | null> {
  if (!scan) return null
  if (scan.origin === originKey(final.protocol, final.hostname, final.port)) return scan.result
  scan.abort.abort()
  return null
}

/** Once the page is read, the CORS answer gets a short grace, never the check's whole budget. */
async function settleCors(
  cors: Promise<CorsProbe> | null,
  abort: AbortController,
): Promise<CorsProbe | null> {
  if (!cors) return null
  const timer = setTimeout(() => abort.abort(), CORS_PROBE.graceMs)
  try {
    return await cors
  } finally {
    clearTimeout(timer)
  }
}

/** Resolves a Location against the current URL and validates it as strictly as the first URL. */
function nextHop(current: URL, location: string, allowPrivateTargets: boolean | undefined): URL {
  let href: string
  try {
    href = new URL(location, current).href
  } catch {
    throw invalidUrl(`${current.href} redirects to an invalid URL (${excerpt(location, 80)})`)
  }
  try {
    const next = parseTargetUrl(href)
    assertTargetAllowed(next, { allowPrivateTargets })
    return next
  } catch (err) {
    if (err instanceof CheckError)
      throw invalidUrl(
        `${current.href} redirects to ${shortUrl(href)}, which cannot be checked: ${err.message}`,
      )
    throw err
  }
}

/**
 * For an https URL: does plain http redirect to https? For an http URL: is https offered? It runs
 * beside the main request with its own short budget, and its failure is a finding, never an error.
 * Any of `parents` aborting cancels it.
 */
async function probeAlternate(
  url: URL,
  opts: ProbeOptions,
  agent: GuardedAgent | null,
  headers: Record<string, string>,
  parents: AbortSignal[],
): Promise<AlternateProbe | null> {
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null
  const kind = url.protocol === 'https:' ? 'http_to_https' : 'https_offered'
  const matched = companionUrl(url, opts.alternatePort || undefined)
  const target = matched ?? new URL(url.href)
  if (!matched) {
    // not tried: say which URL would have been (the other scheme's default port)
    target.protocol = kind === 'http_to_https' ? 'http:' : 'https:'
    target.port = ''
  }
  const result: AlternateProbe = { kind, url: target.href, attempted: false, ok: false }
  // (the probe made the companion's agent exactly when a port matched)
  if (!matched || !agent) return result

  result.attempted = true
  const limit = deadline(parents, PROBE_DEFAULTS.alternateTimeoutMs, 'The companion request timed out')
  const { signal } = limit
  try {
    assertTargetAllowed(target, { allowPrivateTargets: opts.allowPrivateTargets })
    const res = await request(target, { dispatcher: agent.agent, method: 'GET', headers, signal })
    await res.body.dump().catch(() => {})
    result.status = res.statusCode
    const location = firstHeader(res.headers.location)
    if (location !== undefined) result.location = location
    if (kind === 'http_to_https') {
      result.ok = REDIRECT_STATUSES.has(res.statusCode) && location !== undefined && isHttps(location, target)
    } else {
      result.ok = true
      const tls = agent.latest(target)?.tls
      if (tls) result.tls = tls
    }
  } catch (err) {
    const cause: AbortCause = limit.timedOut() ? 'timeout' : signal.aborted ? 'cancelled' : null
    result.error = toCheckError(err, target, cause, PROBE_DEFAULTS.alternateTimeoutMs).message
  } finally {
    limit.clear()
  }
  return result
}

/** The check's budget: aborts on the total timeout or on the caller's signal, and remembers which. */
class Budget {
  readonly #controller = new AbortController()
  readonly #timer: NodeJS.Timeout
  readonly #outer: AbortSignal | undefined
  readonly #onOuterAbort = () => this.#abort('cancelled')
  cause: AbortCause = null

  constructor(totalTimeoutMs: number, outer?: AbortSignal) {
    this.#timer = setTimeout(() => this.#abort('timeout'), totalTimeoutMs)
    this.#outer = outer
    if (outer?.aborted) this.#abort('cancelled')
    else outer?.addEventListener('abort', this.#onOuterAbort, { once: true })
  }

  get signal(): AbortSignal {
    return this.#controller.signal
  }

  #abort(cause: Exclude<AbortCause, null>) {
    if (this.cause) return
    this.cause = cause
    this.#controller.abort(new Error(cause === 'timeout' ? 'check timed out' : 'check cancelled'))
  }

  dispose() {
    clearTimeout(this.#timer)
    this.#outer?.removeEventListener('abort', this.#onOuterAbort)
  }
}

type RawHeaders = Record<string, string | string[] | undefined>

function splitHeaders(raw: RawHeaders): Pick<ProbeResponse, 'headers' | 'setCookies' | 'repeatedHeaders'> {
  const headers: Record<string, string> = {}
  const repeatedHeaders: Record<string, string[]> = {}
  let setCookies: string[] = []
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue
    const key = name.toLowerCase()
    if (key === 'set-cookie') setCookies = Array.isArray(value) ? value : [value]
    else headers[key] = Array.isArray(value) ? value.join(', ') : value
    if (key !== 'set-cookie' && Array.isArray(value) && value.length > 1) repeatedHeaders[key] = value
  }
  return { headers, setCookies, repeatedHeaders }
}

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value
}

function isHttps(location: string, base: URL): boolean {
  try {
    return new URL(location, base).protocol === 'https:'
  } catch {
    return false
  }
}

const ms = (value: number | null | undefined) => (value == null ? null : Math.round(value * 10) / 10)
