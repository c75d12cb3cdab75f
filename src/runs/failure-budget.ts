/**
 * A bound on free failures per key. Failed checks cost nothing (docs/checks-and-scoring.md#health-score-risk-level-status-and-summary), and their
 * distinct errors (refused, not HTTP, no answer) tell a port scanner what listens where: without a
 * bound, one key could probe public hosts for free at the full run rate. Each `check_failed` a key
 * causes is counted in a sliding window; at the bound, the key's further runs are refused with 429
 * until the oldest failure leaves the window. Successful checks are paid for and never counted.
 */
export interface FailurePolicy {
  /** Failed checks allowed per key per window. */
  limit: number
  windowMs: number
}

export const DEFAULT_FAILURE_POLICY: FailurePolicy = { limit: 30, windowMs: 60 * 60_000 }

export class FailureBudget {
  readonly #failures = new Map<string, number[]>()

  constructor(
    readonly policy: FailurePolicy = DEFAULT_FAILURE_POLICY,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Seconds until the key may cause another failure: 0 when it may now. */
  retryAfterSec(key: string): number {
    const times = this.#trim(key)
    if (times.length < this.policy.limit) return 0
    return Math.max(1, Math.ceil((times[0] + this.policy.windowMs - this.clock()) / 1000))
  }

  record(key: string): void {
    const times = this.#trim(key)
    times.push(this.clock())
    this.#failures.set(key, times)
  }

  /** Drop keys with no failure left in the window (called periodically). */
  sweep(): void {
    for (const key of [...this.#failures.keys()]) if (this.#trim(key).length === 0) this.#failures.delete(key)
  }

  #trim(key: string): number[] {
    const times = this.#failures.get(key) ?? []
    const cutoff = this.clock() - this.policy.windowMs
    let drop = 0
    while (drop < times.length && times[drop] <= cutoff) drop++
    if (drop) times.splice(0, drop)
    return times
  }
}
