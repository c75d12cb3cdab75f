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

export class SignInThrottle {
  private readonly account: RateLimiterAbstract
  private readonly client: RateLimiterAbstract
  constructor(
    private readonly limits: ThrottleLimits = DEFAULT_THROTTLE,
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

  /** Seconds until this email may be tried again from this client, or 0 when it may be now. */
  async blockedFor(email: string, client: string): Promise<number> {
    const [a, c] = await Promise.all([this.account.get(email), this.client.get(client)])
    const wait = (r: RateLimiterRes | null, limit: number) =>
      r && r.consumedPoints >= limit ? Math.ceil(r.msBeforeNext / 1000) : 0
    return Math.max(wait(a, this.limits.perAccount), wait(c, this.limits.perClient))
  }

  async failed(email: string, client: string): Promise<void> {
    await Promise.all([swallow(this.account.consume(email)), swallow(this.client.consume(client))])
  }

  async succeeded(email: string): Promise<void> {
    await this.account.delete(email)
  }
}

/** consume() rejects once the limit is reached; that is the state blockedFor() reads, not an error. */
const swallow = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => {
      if (!(e instanceof RateLimiterRes)) throw e
    },
  )
