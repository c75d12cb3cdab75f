/**
 * How many monitors an account may have and how fast it may make them (issue 31: 400 free
 * heartbeat monitors at 450 a second). Every face that creates a monitor (API, dashboard form,
 * `deploy`, MCP through the API) goes through MonitorDefinitions.create, which asks here; no face
 * counts on its own (docs/monitoring.md#how-many-monitors).
 *
 * The rate is rate-limiter-flexible's fixed window, kept where the store keeps its limiters
 * (AccountStore.limiter: on PostgreSQL in the database, so every instance counts in one window;
 * embedded, in this process), keyed by account. It counts monitors made: a create refused
 * afterwards (the cap, a ref taken) gives its point back.
 */
import { RateLimiterMemory, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible'
import { DomainError } from '../shared/index.js'
import type { LimiterOptions } from '../store/types.js'

/** serve --max-monitors-per-account. */
export const DEFAULT_MAX_MONITORS = 1000
/** serve --monitor-create-rate: monitors an account may create per minute. */
export const DEFAULT_CREATE_RATE = 60
const WINDOW_SEC = 60

export interface QuotaOptions {
  /** Monitors per account unless its plan says otherwise (serve's default, 1000). */
  maxMonitorsPerAccount?: number
  /** Monitors an account may create per minute (60). */
  createsPerMinute?: number
}

/** What decides an account's cap: its plan's `max_monitors` once plans exist (issue 38). */
export interface AccountLimits {
  max_monitors?: number | null
}

/** The most monitors `account` may have: its plan's `max_monitors` when set, else serve's default. */
export function capFor(account: AccountLimits, serveDefault: number = DEFAULT_MAX_MONITORS): number {
  return account.max_monitors ?? serveDefault
}

/** The refusal at the cap: the API's 409 `conflict`, the dashboard's page error. */
export function capReached(cap: number): DomainError {
  return new DomainError(
    'conflict',
    `This account has reached its limit of ${cap} monitors (serve --max-monitors-per-account): delete a monitor before creating another. Nothing was created.`,
    { code: 'monitor_limit' },
  )
}

export class MonitorQuota {
  readonly maxMonitors: number
  readonly createsPerMinute: number
  private readonly limiter: RateLimiterAbstract

  constructor(
    o: QuotaOptions = {},
    limiter: (o: LimiterOptions) => RateLimiterAbstract = (x) => new RateLimiterMemory(x),
  ) {
    this.maxMonitors = o.maxMonitorsPerAccount ?? DEFAULT_MAX_MONITORS
    this.createsPerMinute = o.createsPerMinute ?? DEFAULT_CREATE_RATE
    this.limiter = limiter({
      points: this.createsPerMinute,
      duration: WINDOW_SEC,
      keyPrefix: 'monitor-create',
    })
  }

  /** The user's cap. The account's plan is read here once plans exist (issue 38); until then none has one. */
  async capOf(_userId: string): Promise<number> {
    return capFor({}, this.maxMonitors)
  }

  /**
   * Counts one monitor the user is about to create: DomainError `rate_limited` (with the wait)
   * when the minute's creates are used up. Returns the give-back for a create that then fails.
   */
  async take(userId: string): Promise<() => Promise<void>> {
    try {
      await this.limiter.consume(userId)
    } catch (e) {
      if (!(e instanceof RateLimiterRes)) throw e
      const wait = Math.max(1, Math.ceil(e.msBeforeNext / 1000))
      throw new DomainError(
        'rate_limited',
        `Too many monitors created: at most ${this.createsPerMinute} a minute (serve --monitor-create-rate). Try again in ${wait} s. Nothing was created.`,
        { retryAfterSec: wait },
      )
    }
    return async () => {
      await this.limiter.reward(userId, 1).catch(() => {})
    }
  }
}
