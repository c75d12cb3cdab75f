/**
 * Failed sign-ins, throttled per account and per client with rate-limiter-flexible (a maintained
 * brute-force limiter whose stores also come in PostgreSQL and Redis flavours). OWASP's
 * Authentication Cheat Sheet: lock the account out for a while after a few failures, and bound
 * what one client may try across many accounts. A successful sign-in clears the account's count.
 * The counts live where the store says (AccountStore.limiter): on PostgreSQL in the database, so a
 * guesser spreading tries over several instances meets one limit; on the embedded store (one
 * process) in memory.
 */
import { RateLimiterMemory, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible'
import type { LimiterOptions } from '../store/types.js'

/** Makes a limiter; the default keeps its counts in this process's memory. */
export type LimiterFactory = (o: LimiterOptions) => RateLimiterAbstract
export const memoryLimiter: LimiterFactory = (o) => new RateLimiterMemory(o)

export interface ThrottleLimits {
  /** Failed sign-ins per account per window. */
  perAccount: number
  /** Failed sign-ins per client address per window. */
  perClient: number
  windowSec: number
}

export const DEFAULT_THROTTLE: ThrottleLimits = { perAccount: 5, perClient: 20, windowSec: 15 * 60 }

/**
 * Counts an attempt before the secret behind it is checked, atomically in the limiter's store
 * (rate-limiter-flexible's consume is one increment, in memory or one upsert on PostgreSQL): with
 * five tries allowed, 24 concurrent guesses get five checks, not 24, across instances too.
 */
export interface Attempt {
  /** Seconds to wait when refused; 0 when the attempt may go on. */
  waitSec: number
  /** Attempts left for the account in this window after this one (0: this was the last). */
  left: number
}

export class SignInThrottle {
  private readonly account: RateLimiterAbstract
  private readonly client: RateLimiterAbstract
  constructor(
    readonly limits: ThrottleLimits = DEFAULT_THROTTLE,
    limiter: LimiterFactory = memoryLimiter,
  ) {
    this.account = limiter({
      points: limits.perAccount,
      duration: limits.windowSec,
      keyPrefix: 'acct',
    })
    this.client = limiter({
      points: limits.perClient,
      duration: limits.windowSec,
      keyPrefix: 'client',
    })
  }

  /** Counts one attempt on this account from this client, before the password is verified. */
  async attempt(email: string, client: string): Promise<Attempt> {
    const byClient = await take(this.client, client)
    if (byClient.waitSec > 0) return byClient
    return take(this.account, email)
  }

  /** A verified password: the account's count starts afresh, the client's attempt is given back. */
  async succeeded(email: string, client: string): Promise<void> {
    await Promise.all([this.account.delete(email), this.client.reward(client, 1)])
  }
}

/** One point of `limiter` for `key`: refused (with the wait) once the points are used up. */
export async function take(limiter: RateLimiterAbstract, key: string): Promise<Attempt> {
  try {
    const r = await limiter.consume(key)
    return { waitSec: 0, left: r.remainingPoints }
  } catch (e) {
    if (!(e instanceof RateLimiterRes)) throw e
    return { waitSec: Math.max(1, Math.ceil(e.msBeforeNext / 1000)), left: 0 }
  }
}

/**
 * RFC 8628 §5.1: user codes are short, so attempts to enter one are limited per signed-in session
 * and per client address, and after repeated misses across the server every pending code is ended
 * (the people waiting run `sitehealth login` again; a guesser is left with nothing to find).
 */
export interface DeviceCodeLimits {
  perSession: number
  perClient: number
  /** Wrong codes across the server within the window before pending codes are ended. */
  missesBeforeExpiry: number
  windowSec: number
}

export const DEFAULT_DEVICE_LIMITS: DeviceCodeLimits = {
  perSession: 10,
  perClient: 20,
  missesBeforeExpiry: 30,
  windowSec: 10 * 60,
}

export class DeviceCodeThrottle {
  private readonly session: RateLimiterAbstract
  private readonly client: RateLimiterAbstract
  private readonly misses: RateLimiterAbstract
  constructor(limits: DeviceCodeLimits = DEFAULT_DEVICE_LIMITS, limiter: LimiterFactory = memoryLimiter) {
    const make = (points: number, keyPrefix: string) =>
      limiter({ points, duration: limits.windowSec, keyPrefix })
    this.session = make(limits.perSession, 'devcode-session')
    this.client = make(limits.perClient, 'devcode-client')
    this.misses = make(limits.missesBeforeExpiry, 'devcode-miss')
  }

  /** Counts an attempt to enter a code; seconds to wait when refused, else 0. */
  async attempt(session: string, client: string): Promise<number> {
    const s = await take(this.session, session)
    if (s.waitSec > 0) return s.waitSec
    return (await take(this.client, client)).waitSec
  }

  /** A wrong code: true when the misses across the server call for ending the pending codes. */
  async missed(): Promise<boolean> {
    return (await take(this.misses, 'all')).left === 0
  }
}
