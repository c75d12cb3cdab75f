/**
 * The probe: the engine's only network code (Lighthouse's "gather" half). One GET of the URL with
 * redirects followed by hand, each hop re-validated, plus a companion request to the other scheme
 * in parallel; everything the signals judge comes back as one plain ProbeResult.
 *
 * Budget: one AbortSignal covers the whole check (connects, redirects, headers and body) and the
 * caller's own signal. Body: counted, never kept; wire and decoded sizes, up to a decoded cap.
 */
import { performance } from 'node:perf_hooks'
import { request } from 'undici'
import { checkFailed, CheckError, invalidUrl } from './errors.js'
import { assertTargetAllowed, parseTargetUrl } from './guard.js'
import { createGuardedAgent, type GuardedAgent, type LookupResolver } from './http-agent.js'
import { meterBody } from './body-meter.js'
import { toCheckError, type AbortCause } from './net-errors.js'
import type {
  AlternateProbe,
  CheckOptions,
  ProbeResponse,
  ProbeResult,
  ProbeTimings,
  RedirectHop,
} from './types.js'
import { defaultUserAgent } from './user-agent.js'

export const PROBE_DEFAULTS = {
  connectTimeoutMs: 5_000,
  totalTimeoutMs: 15_000,
  maxBodyBytes: 4 * 1024 * 1024,
  /** Five hops: browsers allow 20 and Observatory 10, but a real site needing more than 2 is already a finding. */
  maxRedirects: 5,
  /** The companion request only answers a yes/no question; it must not hold the check up. */
  alternateTimeoutMs: 5_000,
} as const

export interface ProbeOptions extends CheckOptions {
  /**
   * Port of the other scheme for the companion request. Without it the companion runs only when
   * the URL uses its scheme's default port, and then asks the other scheme's default port: on any
   * other port, where the other scheme listens is unknowable.
   */
  alternatePort?: number
  /** Test seam: the resolver behind the guarded lookup (default: the system's). */
  resolver?: LookupResolver
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308])

export async function probe(url: URL, opts: ProbeOptions = {}): Promise<ProbeResult> {
  const totalTimeoutMs = opts.totalTimeoutMs ?? PROBE_DEFAULTS.totalTimeoutMs
  const connectTimeoutMs = opts.connectTimeoutMs ?? PROBE_DEFAULTS.connectTimeoutMs
  const maxBodyBytes = opts.maxBodyBytes ?? PROBE_DEFAULTS.maxBodyBytes
  const headers = {
    'user-agent': opts.userAgent ?? defaultUserAgent(),
    accept: 'text/html,*/*;q=0.8',
    'accept-encoding': 'gzip, deflate, br',
  }

  // nothing leaves the machine for a blocked target or a check already cancelled
  assertTargetAllowed(url, { allowPrivateTargets: opts.allowPrivateTargets })
  if (opts.signal?.aborted) throw checkFailed(`The check of ${url.hostname} was cancelled`)

  const budget = new Budget(totalTimeoutMs, opts.signal)
  const agentOptions = {
    allowPrivateTargets: opts.allowPrivateTargets,
    extraCA: opts.extraCA,
    resolver: opts.resolver,
    ioTimeoutMs: totalTimeoutMs,
  }
  const main = createGuardedAgent({ ...agentOptions, connectTimeoutMs })
  const companion = createGuardedAgent({
    ...agentOptions,
    connectTimeoutMs: Math.min(connectTimeoutMs, PROBE_DEFAULTS.alternateTimeoutMs),
  })
  // the clock starts once the agents exist: building a trust store is our cost, not the site's
  const start = performance.now()
  const startedAt = new Date().toISOString()
  const companionAbort = new AbortController()
  const alternate = probeAlternate(
    url,
    opts,
    companion,
    headers,
    AbortSignal.any([budget.signal, companionAbort.signal]),
  )

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
      const location = firstHeader(res.headers.location)
      const isRedirect = REDIRECT_STATUSES.has(res.statusCode) && location !== undefined

      if (isRedirect && redirects.length < PROBE_DEFAULTS.maxRedirects) {
        const next = nextHop(current, location, opts.allowPrivateTargets)
        redirects.push({ url: current.href, status: res.statusCode, location })
        await res.body.dump().catch(() => {})
        current = next
        continue
      }

      // the final response, or the first 3xx past the cap
      const count = await meterBody(
        res.body,
        firstHeader(res.headers['content-encoding']) ?? null,
        maxBodyBytes,
        budget.signal,
      )
      if (budget.cause === 'cancelled') throw count.interruption ?? new Error('cancelled')
      const end = performance.now()

      const conn = main.latest(current)
      const fresh = conn && conn.openedAt >= hopStart ? conn : undefined
      const timings: ProbeTimings = {
        dnsMs: ms(fresh?.dnsMs),
        connectMs: ms(fresh?.connectMs),
        tlsMs: ms(fresh?.tlsMs),
        serverWaitMs: ms(headersAt - Math.max(hopStart, fresh?.readyAt ?? hopStart)) ?? 0,
        ttfbMs: ms(headersAt - start) ?? 0,
        totalMs: ms(end - start) ?? 0,
      }
      const response: ProbeResponse = {
        status: res.statusCode,
        httpVersion: conn?.alpnProtocol === 'h2' ? '2' : '1.1',
        ...splitHeaders(res.headers),
        contentType: firstHeader(res.headers['content-type']) ?? null,
        contentEncoding: firstHeader(res.headers['content-encoding'])?.toLowerCase() ?? null,
        bodyBytesWire: count.wire,
        bodyBytesDecoded: count.decoded,
        bodyTruncated: count.truncated,
      }
      return {
        inputUrl: url.href,
        finalUrl: current.href,
        response,
        redirects,
        redirectLimitExceeded: isRedirect,
        timings,
        tls: current.protocol === 'https:' ? (conn?.tls ?? null) : null,
        alternate: await alternate,
        startedAt,
      }
    }
  } catch (err) {
    throw toCheckError(err, current, budget.cause, totalTimeoutMs)
  } finally {
    companionAbort.abort()
    budget.dispose()
    await alternate.catch(() => null)
    // the result is known: closing the sockets need not delay it
    void Promise.all([main.destroy(), companion.destroy()]).catch(() => undefined)
  }
}

/** Resolves a Location against the current URL and validates it as strictly as the first URL. */
function nextHop(current: URL, location: string, allowPrivateTargets: boolean | undefined): URL {
  let href: string
  try {
    href = new URL(location, current).href
  } catch {
    throw invalidUrl(`${current.href} redirects to an invalid URL (${location.slice(0, 200)})`)
  }
  try {
    const next = parseTargetUrl(href)
    assertTargetAllowed(next, { allowPrivateTargets })
    return next
  } catch (err) {
    if (err instanceof CheckError)
      throw invalidUrl(`${current.href} redirects to ${href}, which cannot be checked: ${err.message}`)
    throw err
  }
}

/**
 * For an https URL: does plain http redirect to https? For an http URL: is https offered? It runs
 * beside the main request with its own short budget, and its failure is a finding, never an error.
 */
async function probeAlternate(
  url: URL,
  opts: ProbeOptions,
  agent: GuardedAgent,
  headers: Record<string, string>,
  parent: AbortSignal,
): Promise<AlternateProbe | null> {
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null
  const kind = url.protocol === 'https:' ? 'http_to_https' : 'https_offered'
  const target = new URL(url.href)
  target.protocol = kind === 'http_to_https' ? 'http:' : 'https:'
  target.port = opts.alternatePort ? String(opts.alternatePort) : ''
  const result: AlternateProbe = { kind, url: target.href, attempted: false, ok: false }
  if (url.port !== '' && !opts.alternatePort) return result

  result.attempted = true
  const timeout = AbortSignal.timeout(PROBE_DEFAULTS.alternateTimeoutMs)
  const signal = AbortSignal.any([parent, timeout])
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
    const cause: AbortCause = timeout.aborted ? 'timeout' : signal.aborted ? 'cancelled' : null
    result.error = toCheckError(err, target, cause, PROBE_DEFAULTS.alternateTimeoutMs).message
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

function splitHeaders(raw: RawHeaders): Pick<ProbeResponse, 'headers' | 'setCookies'> {
  const headers: Record<string, string> = {}
  let setCookies: string[] = []
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue
    const key = name.toLowerCase()
    if (key === 'set-cookie') setCookies = Array.isArray(value) ? value : [value]
    else headers[key] = Array.isArray(value) ? value.join(', ') : value
  }
  return { headers, setCookies }
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
