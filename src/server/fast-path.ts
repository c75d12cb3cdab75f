/**
 * The node-level fast path of the hottest authenticated read, `GET /credits` (what clients and
 * agents poll): answered straight on node:http with one `writeHead` + `end`, without h3's web
 * Request/Headers/Response objects and hook chain, which cost more CPU per request than the whole
 * of a bare node:http answer (bench/RESULTS.md, API overhead). Everything else, including HEAD,
 * other methods and any path that is not exactly this one, goes to h3 unchanged.
 *
 * It is not a second implementation: authentication (constant-time compare, revocation, key use),
 * the rate limiter, the body, the error envelope and the access-log line are the same functions
 * the h3 route uses, and test/server/fast-path.test.ts checks that both paths answer alike.
 */
import { randomUUID } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { PATHS } from '../contract/routes.js'
import { SAFETY_HEADERS, accessLine, renderError } from './app.js'
import { authenticateHeader } from './auth.js'
import type { ServerOptions } from './context.js'
import { policiesOf, type RateLimiter } from './rate-limit.js'
import { rateLimited } from './guard.js'
import { creditBalance } from './routes/public.js'

export type NodeHandler = (req: IncomingMessage, res: ServerResponse) => unknown

/** h3's content type for JSON bodies, so that both paths send the same header. */
const JSON_TYPE = 'application/json;charset=UTF-8'

/** The headers of every success, as node:http's flat `[name, value, ...]` list. */
const OK_HEAD = flatten({ 'content-type': JSON_TYPE, ...SAFETY_HEADERS }, [])

/**
 * Appends `headers` to a flat header list: `writeHead` takes that list as it is, where an object
 * would be walked key by key (and built by spreading first) on every response.
 */
function flatten(headers: Record<string, string>, into: string[]): string[] {
  for (const name in headers) into.push(name, headers[name])
  return into
}

export function withFastPath(opts: ServerOptions, limiter: RateLimiter, next: NodeHandler): NodeHandler {
  const policy = policiesOf(opts.limits).api
  const path = PATHS.credits
  const withQuery = `${path}?`

  async function credits(req: IncomingMessage, res: ServerResponse, url: string): Promise<void> {
    const startedAt = performance.now()
    const requestId = randomUUID()
    let rate: Record<string, string> = {}
    let status = 200
    let head: string[]
    let body: string
    try {
      const key = await authenticateHeader(req.headers.authorization, opts.store)
      const decision = await limiter.hit(key.id, policy)
      rate = decision.headers
      if (!decision.allowed) throw rateLimited(policy, decision.resetSec)
      body = JSON.stringify(await creditBalance(opts, key.user_id))
      head = flatten(rate, OK_HEAD.slice())
    } catch (err) {
      const e = renderError(err, requestId, opts)
      ;({ status, body } = e)
      head = flatten({ ...e.headers, ...rate }, [])
    }
    head.push('x-request-id', requestId, 'content-length', String(Buffer.byteLength(body)))
    res.writeHead(status, head)
    res.end(body)
    if (opts.log) opts.log(accessLine('GET', url, status, startedAt, requestId))
  }

  return (req, res) => {
    const url = req.url ?? ''
    if (req.method !== 'GET' || (url !== path && !url.startsWith(withQuery))) return next(req, res)
    // nothing above throws past its catch; a socket failing mid-write is dropped, never a crash
    return credits(req, res, url).catch(() => res.destroy())
  }
}
