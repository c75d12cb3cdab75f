/**
 * The CORS request beside the final response: one OPTIONS with a made-up Origin and
 * `Access-Control-Request-Method: GET`, as a browser's preflight and the MDN HTTP Observatory send
 * it. The Origin is random per check, so an answer that names it can only be a reflection of
 * whatever Origin arrives, never an allow-list hit. It is sent once the page's body is read, through
 * the check's main guarded agent, so it rides the page's kept-alive connection (no second TCP/TLS
 * handshake, and the page's timings are already taken); it has its own short timeout and never
 * fails the check: an error or a late answer is judged "unknown".
 */
import { deadline, randomHex } from '../shared/index.js'
import { request, type Dispatcher } from 'undici'
import type { CorsProbe } from './types.js'

export const CORS_PROBE = {
  /** The answer is a yes/no; a server slower than this to answer OPTIONS is judged without it. */
  timeoutMs: 3_000,
  /**
   * How long the check waits for the CORS answer once the page and its subresources are in. It is
   * sent when the page's body is read and runs beside the subresource fetches, on a connection that
   * is already open, so it is usually in by then; a server slow to answer OPTIONS costs the check
   * at most this (our own bound: half a second).
   */
  graceMs: 500,
} as const

/** Any of `parents` aborting cancels the request. */
export async function probeCors(
  url: URL,
  dispatcher: Dispatcher,
  headers: Record<string, string>,
  parents: AbortSignal[],
): Promise<CorsProbe> {
  // .example is reserved (RFC 2606): no real site can own this origin
  const origin = `https://cors-check-${randomHex(6)}.example`
  const result: CorsProbe = { url: url.href, origin, answered: false }
  const limit = deadline(parents, CORS_PROBE.timeoutMs, 'The CORS request timed out')
  const { signal } = limit
  try {
    const res = await request(url, {
      dispatcher,
      method: 'OPTIONS',
      headers: {
        'user-agent': headers['user-agent'],
        accept: '*/*',
        origin,
        'access-control-request-method': 'GET',
      },
      signal,
    })
    await res.body.dump({ limit: 64 * 1024 }).catch(() => {})
    result.answered = true
    result.status = res.statusCode
    result.allowOrigin = first(res.headers['access-control-allow-origin'])
    result.allowCredentials = first(res.headers['access-control-allow-credentials'])
  } catch (err) {
    const code = (err as { code?: unknown } | null)?.code
    result.error = signal.aborted ? 'no answer in time' : typeof code === 'string' ? code : 'request failed'
  } finally {
    limit.clear()
  }
  return result
}

/** The first line of a header, cut to a sane length (only equality with our Origin matters). */
function first(value: string | string[] | undefined): string | null {
  const v = Array.isArray(value) ? value[0] : value
  return v === undefined ? null : v.slice(0, 256)
}
