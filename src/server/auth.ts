/**
 * Bearer authentication. Only SHA-256 hashes of keys are stored (right for high-entropy keys);
 * the stored hash is compared in constant time. Admin calls use a separate token.
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import type { H3Event } from 'h3'
import { clientAddress } from '../http/client-address.js'
import { hashKey, isWellFormedApiKey } from '../contract/api-key.js'
import { andThen, type Awaitable } from '../store/awaitable.js'
import type { KeyRecord, Store } from '../store/types.js'
import { ServiceError } from '../http/errors.js'

/** The current time as ISO 8601, formatted at most once per millisecond (key use is recorded per request). */
let lastMs = 0
let lastIso = ''
function nowIso(): string {
  const ms = Date.now()
  if (ms !== lastMs) {
    lastMs = ms
    lastIso = new Date(ms).toISOString()
  }
  return lastIso
}

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i

function bearerOf(header: string | null | undefined): string | undefined {
  return header ? BEARER.exec(header)?.[1] : undefined
}

const bearer = (event: H3Event) => bearerOf(event.req.headers.get('authorization'))

function sameSecret(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest()
  const hb = createHash('sha256').update(b).digest()
  return timingSafeEqual(ha, hb)
}

const invalidKey = () =>
  new ServiceError(
    401,
    'invalid_api_key',
    'Invalid or missing API key. Send it as `Authorization: Bearer <key>`.',
    {
      'www-authenticate': 'Bearer realm="sitehealth"',
    },
  )

export function authenticate(event: H3Event, store: Store): Awaitable<KeyRecord> {
  return authenticateHeader(event.req.headers.get('authorization'), store)
}

/**
 * The same check on a raw `Authorization` header value (the node-level fast path has no H3Event).
 * Synchronous when the store has the key in memory (see store/awaitable.ts); throws or rejects
 * with the 401 otherwise.
 */
export function authenticateHeader(header: string | null | undefined, store: Store): Awaitable<KeyRecord> {
  const key = bearerOf(header)
  if (!key || !isWellFormedApiKey(key)) throw invalidKey()
  const hex = hashKey(key)
  return andThen(store.keys.findByHash(hex), (record) => admit(record, hex, store))
}

function admit(record: KeyRecord | undefined, hex: string, store: Store): KeyRecord {
  if (!record || !timingSafeEqual(Buffer.from(record.hash, 'hex'), Buffer.from(hex, 'hex')))
    throw invalidKey()
  if (record.revoked_at)
    throw new ServiceError(
      401,
      'revoked_api_key',
      'This API key has been revoked. Create a new key to continue.',
      {
        'www-authenticate': 'Bearer realm="sitehealth", error="invalid_token"',
      },
    )
  store.keys.touch(record.id, nowIso())
  return record
}

/**
 * Back-off for failed admin authentication, per client address: the first few failures are free
 * (typos), then each further failure doubles the time that client must wait (1 s, 2 s, 4 s … up to
 * 15 min) before its next admin request is even looked at. A success clears the client's record.
 * While a client is waiting, every admin request it makes gets 429, the right token included:
 * otherwise a guesser would still learn which guess was right. Clients are told apart by the
 * client address (the TCP peer, or the address `serve --trust-proxy` lets X-Forwarded-For name).
 */
export class AdminAuthThrottle {
  static readonly FREE_FAILURES = 5
  static readonly MAX_DELAY_MS = 15 * 60_000
  static readonly MAX_CLIENTS = 10_000
  readonly #clients = new Map<string, { failures: number; until: number }>()

  constructor(private readonly clock: () => number = Date.now) {}

  /** Seconds the client must still wait (0: go ahead). */
  waitSec(client: string): number {
    const c = this.#clients.get(client)
    const ms = c ? c.until - this.clock() : 0
    return ms > 0 ? Math.ceil(ms / 1000) : 0
  }

  failed(client: string): void {
    const now = this.clock()
    if (this.#clients.size >= AdminAuthThrottle.MAX_CLIENTS) this.#sweep(now)
    const c = this.#clients.get(client) ?? { failures: 0, until: 0 }
    c.failures++
    const over = c.failures - AdminAuthThrottle.FREE_FAILURES
    if (over >= 0) c.until = now + Math.min(1000 * 2 ** over, AdminAuthThrottle.MAX_DELAY_MS)
    this.#clients.set(client, c)
  }

  succeeded(client: string): void {
    this.#clients.delete(client)
  }

  #sweep(now: number) {
    for (const [k, c] of this.#clients)
      if (c.until + AdminAuthThrottle.MAX_DELAY_MS < now) this.#clients.delete(k)
    // still full of live entries (a spread-out attack): forget the oldest half rather than grow
    if (this.#clients.size >= AdminAuthThrottle.MAX_CLIENTS)
      for (const k of [...this.#clients.keys()].slice(0, AdminAuthThrottle.MAX_CLIENTS / 2))
        this.#clients.delete(k)
  }
}

export function authenticateAdmin(event: H3Event, adminToken: string, throttle?: AdminAuthThrottle): void {
  const client = clientAddress(event)
  const wait = throttle?.waitSec(client) ?? 0
  if (wait > 0)
    throw new ServiceError(
      429,
      'rate_limited',
      `Too many failed admin authentications from this client. Retry in ${wait} s.`,
      { 'retry-after': String(wait) },
    )
  const token = bearer(event)
  if (!token || !sameSecret(token, adminToken)) {
    throttle?.failed(client)
    throw new ServiceError(401, 'invalid_api_key', 'Invalid or missing admin token.', {
      'www-authenticate': 'Bearer realm="sitehealth-admin"',
    })
  }
  throttle?.succeeded(client)
}
