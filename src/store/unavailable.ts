/**
 * Telling "a dependency is down" from "a bug" (docs/decisions.md#faults): the database refused, dropped or did
 * not answer in time, the disk is full or failing, Redis went silent. Such a failure is the
 * server's to report as 503 `service_unavailable` with Retry-After (try again shortly), never as
 * 500 `internal_error`. The errors come from the drivers as they are (pg, ioredis, node:fs), so
 * they are recognised here by their codes, walking `cause` chains.
 */

/** Thrown by the embedded store when its disk cannot take a write (full, quota, read-only, I/O). */
export class StorageFullError extends Error {
  override readonly name = 'StorageFullError'
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
  }
}

export type Dependency = 'database' | 'disk' | 'redis' | 'store'

/** Socket errors: the peer is gone, refused, or unreachable. */
const NETWORK = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'EAI_AGAIN',
])
/** File-system errors of a disk that cannot take a write now. */
const DISK = new Set(['ENOSPC', 'EDQUOT', 'EROFS', 'EIO', 'EMFILE', 'ENFILE'])
/**
 * PostgreSQL SQLSTATEs that say "not now" rather than "wrong": connection exceptions (08),
 * insufficient resources (53: disk full, out of memory, too many connections), operator
 * intervention (57P01-57P05: shutting down, starting up, idle session timeout) and the statement
 * timeout (57014), system errors (58), serialization failure and deadlock (40001, 40P01).
 */
const PG_RETRYABLE = /^(08|53|58|57P0|57014$|40001$|40P01$)/
/** The driver's own messages when a connection or a wait gives up (pg, pg-pool, ioredis). */
const DRIVER_MESSAGES = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect/,
  /^Query read timeout/,
  /not queryable/,
  /^Cannot use a pool after calling end/,
  /^Command timed out/,
  /^Connection is closed/,
  /MaxRetriesPerRequestError|Reached the max retries per request/,
  /^Stream isn't writeable/,
]

/** The dependency whose outage `err` reports, or undefined when it is something else (a bug). */
export function unavailableDependency(err: unknown): Dependency | undefined {
  for (let e = err, depth = 0; e && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    if (typeof e !== 'object') return undefined
    const x = e as { code?: unknown; message?: unknown; name?: unknown; severity?: unknown }
    const code = typeof x.code === 'string' ? x.code : ''
    const message = typeof x.message === 'string' ? x.message : ''
    if (e instanceof StorageFullError || DISK.has(code)) return 'disk'
    if (x.name === 'StoreClosedError') return 'store'
    // a pg DatabaseError carries `severity` and a five-character SQLSTATE
    if (typeof x.severity === 'string' && /^[0-9A-Z]{5}$/.test(code))
      return PG_RETRYABLE.test(code) ? 'database' : undefined
    if (NETWORK.has(code)) return 'database'
    if (x.name === 'MaxRetriesPerRequestError' || /^Command timed out|^Connection is closed/.test(message))
      return 'redis'
    if (DRIVER_MESSAGES.some((re) => re.test(message))) return 'database'
  }
  return undefined
}

/** What the 503's message says about the outage (no detail that helps an attacker). */
export function unavailableMessage(dep: Dependency): string {
  const what = {
    database: 'the database is down or did not answer in time',
    disk: 'the server cannot write to its disk (full or failing)',
    redis: 'Redis did not answer in time',
    store: 'the server is shutting down',
  }[dep]
  return `The service is temporarily unavailable: ${what}. Nothing was charged; retry in a few seconds.`
}
