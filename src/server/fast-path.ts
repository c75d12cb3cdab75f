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
import { andThen, isPromise } from '../store/awaitable.js'
import type { KeyRecord } from '../store/types.js'
import { accessLine } from '../http/access-log.js'
import { SAFETY_HEADERS, renderError } from './app.js'
import { authenticateHeader } from './auth.js'
import { resolveClientAddress } from '../http/client-address.js'
import type { ServerOptions } from './context.js'
import { policiesOf, type Decision, type RateLimiter } from '../http/rate-limit.js'
import { rateLimited } from './guard.js'
import { creditBalance } from './routes/public.js'

export type NodeHandler = (req: IncomingMessage, res: ServerResponse) => unknown

/** h3's content type for JSON bodies, so that both paths send the same header. */
const JSON_TYPE = 'application/json;charset=UTF-8'

/** The headers of every success, as node:http's flat `[name, value, ...]` list. */
const OK_HEAD = flatten({ 'content-type': JSON_TYPE, ...SAFETY_HEADERS }, [])

/**
 * The success body is `creditBalance`'s JSON, whose one varying part, the first member, is a
 * number: it is serialised once and the number spliced in front of the rest on each request.
 */
const BODY_START = '{"credits_remaining":'
const BODY_REST = JSON.stringify(creditBalance(0)).slice(BODY_START.length + 1)
const balanceJson = (n: number) =>
  Number.isSafeInteger(n) ? BODY_START + n + BODY_REST : JSON.stringify(creditBalance(n))

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
  const metrics = opts.metrics?.registry
  const path = PATHS.credits
  const withQuery = `${path}?`

  /**
   * Answers one request. With the embedded store only the limiter's promise is waited for: the
   * key and the balance come back as plain values (store/awaitable.ts).
   */
  function credits(req: IncomingMessage, res: ServerResponse, url: string): void {
    const startedAt = opts.log || metrics ? performance.now() : 0
    const requestId = randomUUID()
    let rate: Decision['headers'] | undefined

    const send = (status: number, head: string[], body: string) => {
      head.push('x-request-id', requestId, 'content-length', String(Buffer.byteLength(body)))
      res.writeHead(status, head)
      res.end(body)
      if (metrics) metrics.observeRequest('GET', path, status, (performance.now() - startedAt) / 1000)
      if (opts.log) {
        const xff = req.headers['x-forwarded-for']
        const client =
          opts.trustProxy &&
          resolveClientAddress(
            req.socket.remoteAddress?.replace(/^::ffff:(?=\d+\.)/, ''),
            typeof xff === 'string' ? xff : null,
            opts.trustProxy,
          )
        opts.log(accessLine('GET', url, status, startedAt, requestId, client))
      }
    }
    const fail = (err: unknown) => {
      const e = renderError(err, requestId, opts)
      send(e.status, flatten({ ...e.headers, ...rate }, []), e.body)
    }
    const limit = (key: KeyRecord) =>
      limiter.hit(key.id, policy).then((decision) => {
        rate = decision.headers
        if (!decision.allowed) throw rateLimited(policy, decision.resetSec)
        return andThen(opts.store.users.availableCredits(key.user_id), (n) =>
          send(200, flatten(rate!, OK_HEAD.slice()), balanceJson(n)),
        )
      })

    try {
      const done = andThen(authenticateHeader(req.headers.authorization, opts.store), limit)
      // a socket failing mid-write is dropped, never a crash
      if (isPromise(done)) done.catch(fail).catch(() => res.destroy())
    } catch (err) {
      fail(err)
    }
  }

  return (req, res) => {
    const url = req.url ?? ''
    if (req.method !== 'GET' || (url !== path && !url.startsWith(withQuery))) return next(req, res)
    try {
      credits(req, res, url)
    } catch {
      res.destroy()
    }
  }
}
