/**
 * The access log's line (one per request, on by default) and what it never holds: secrets. Some
 * routes carry a secret in the path itself — a heartbeat's push token, an invite link — and a
 * query may carry one (`?token=`, `?key=`, `?code=`). `redactPath` replaces each with REDACTED,
 * so a log read by an operator, shipped to a log service or pasted in an issue gives no one a
 * push or a sign-up. A new route with a secret in its path adds its pattern to SECRET_ROUTES
 * (its secret parameter named in SECRET_PARAMS); a new secret query parameter, to SECRET_QUERY.
 */
import { ACCOUNT_PATHS } from '../contract/accounts.js'
import { PUSH_PATH } from '../contract/monitoring.js'

export const REDACTED = '[redacted]'

/** Route patterns (`/a/:param`) whose secret parameters are never logged. */
const SECRET_ROUTES = [PUSH_PATH, ACCOUNT_PATHS.invitePage]
/** The parameters of those routes that are secrets. */
const SECRET_PARAMS = new Set(['token'])
/** Query parameters whose values are secrets. */
const SECRET_QUERY = /([?&](?:token|key|api_key|code|device_code|secret|password)=)[^&#]*/gi

interface SecretRoute {
  /** Matches the route at the start of a path; one group per segment and per slash run. */
  re: RegExp
  /** Which of those groups are secrets. */
  secret: boolean[]
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** A route pattern as a regular expression over a path as sent. */
function compile(route: string): SecretRoute {
  const secret: boolean[] = []
  let source = '^'
  for (const [i, seg] of route.split('/').entries()) {
    if (i > 0) {
      // repeated slashes reach the same route, so they are redacted alike
      source += '(/+)'
      secret.push(false)
    }
    const param = seg.startsWith(':')
    source += param ? '([^/?#]+)' : `(${escape(seg)})`
    secret.push(param && SECRET_PARAMS.has(seg.slice(1)))
  }
  return { re: new RegExp(source, 'i'), secret }
}
const ROUTES = SECRET_ROUTES.map(compile)

/** `pathAndQuery` with every secret in it replaced by REDACTED. */
export function redactPath(pathAndQuery: string): string {
  const out = pathAndQuery.replace(SECRET_QUERY, `$1${REDACTED}`)
  for (const { re, secret } of ROUTES) {
    const m = re.exec(out)
    if (!m) continue
    const kept = m.slice(1).map((g, i) => (secret[i] ? REDACTED : g))
    return kept.join('') + out.slice(m[0].length)
  }
  return out
}

/**
 * One access-log line: method, path without the query (secrets redacted), status, time and
 * request id, then — behind a trusted proxy (`--trust-proxy`) — the client address the proxy named.
 */
export function accessLine(
  method: string,
  pathAndQuery: string,
  status: number,
  startedAt: number | undefined,
  requestId: string,
  client?: string | false,
): string {
  const ms = startedAt === undefined ? '-' : (performance.now() - startedAt).toFixed(1)
  const line = `${method} ${redactPath(pathAndQuery.split('?')[0])} ${status} ${ms}ms ${requestId}`
  return client ? `${line} ${client}` : line
}
