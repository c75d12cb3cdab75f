/**
 * Caps on checks in flight (docs/decisions.md#monitors-and-alerts): one cap for the whole server and one per user, shared by
 * API runs and scheduled monitor runs, so ten thousand monitors (or a flood of API runs at a
 * target that never answers) can never hold more outbound connections than the server allows.
 *
 * A caller takes a slot before it starts a check and releases it when the check is over. When no
 * slot is free the caller may wait: waiters are served first come, first served, except that a
 * waiter whose user is at the per-user cap lets the next waiter of another user pass, so one busy
 * user cannot stall everybody's queue. The queue itself is bounded: past `maxWaiting`, callers are
 * refused at once instead of piling up.
 */

export interface CapacityOptions {
  /** Checks in flight on the whole server (`serve --max-concurrent-checks`, default 64). */
  maxConcurrent: number
  /** Checks in flight for one user (`serve --max-concurrent-checks-per-user`, default 16). */
  maxPerUser: number
  /** Callers allowed to wait at once; further callers are refused at once (default 4 × maxConcurrent). */
  maxWaiting?: number
}

export const DEFAULT_CAPACITY = { maxConcurrent: 64, maxPerUser: 16 } as const

/** A slot held by one running check. `release` is idempotent. */
export interface Slot {
  readonly userId: string
  release(): void
}

export interface AcquireOptions {
  /** How long to wait for a slot, ms; 0 (the default) refuses at once, Infinity waits as long as it takes. */
  waitMs?: number
  /** Gives up waiting (a client that went away, a shutdown). */
  signal?: AbortSignal
}

export type CapacityLimit = 'server' | 'user'

/** No slot within the wait: the server (or this user) already runs as many checks as allowed. */
export class CapacityExceededError extends Error {
  override readonly name = 'CapacityExceededError'
  constructor(
    /** Which cap was full when the wait ended. */
    readonly limit: CapacityLimit,
    /** The cap's value. */
    readonly max: number,
  ) {
    super(
      limit === 'server'
        ? `The server is running its maximum of ${max} checks at once`
        : `This account is running its maximum of ${max} checks at once`,
    )
  }
}

interface Waiter {
  userId: string
  grant: (slot: Slot) => void
  settled: boolean
}

export interface CapacityStats {
  inFlight: number
  waiting: number
  maxConcurrent: number
  maxPerUser: number
}

export class CheckCapacity {
  readonly maxConcurrent: number
  readonly maxPerUser: number
  readonly maxWaiting: number
  #inFlight = 0
  readonly #perUser = new Map<string, number>()
  readonly #waiters: Waiter[] = []

  constructor(opts: CapacityOptions = DEFAULT_CAPACITY) {
    if (!(opts.maxConcurrent >= 1) || !(opts.maxPerUser >= 1))
      throw new RangeError('Check capacity caps must be at least 1')
    this.maxConcurrent = Math.floor(opts.maxConcurrent)
    this.maxPerUser = Math.floor(opts.maxPerUser)
    this.maxWaiting = Math.floor(opts.maxWaiting ?? this.maxConcurrent * 4)
  }

  /** Takes a slot now if both caps allow it and nobody eligible is waiting ahead; null otherwise. */
  tryAcquire(userId: string): Slot | null {
    if (this.#waiters.some((w) => this.#userHasRoom(w.userId))) return null
    return this.#canStart(userId) ? this.#start(userId) : null
  }

  /**
   * A slot for one check, waiting up to `waitMs` for one to free. Throws CapacityExceededError
   * when the wait ends without a slot, and the signal's reason when it aborts first.
   */
  acquire(userId: string, opts: AcquireOptions = {}): Promise<Slot> {
    const now = this.tryAcquire(userId)
    if (now) return Promise.resolve(now)
    const waitMs = opts.waitMs ?? 0
    if (waitMs <= 0 || this.#waiters.length >= this.maxWaiting || opts.signal?.aborted) {
      if (opts.signal?.aborted) return Promise.reject(opts.signal.reason)
      return Promise.reject(this.#exceeded(userId))
    }
    return new Promise<Slot>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined
      const waiter: Waiter = {
        userId,
        settled: false,
        grant: (slot) => {
          cleanup()
          resolve(slot)
        },
      }
      const giveUp = (err: unknown) => {
        if (waiter.settled) return
        waiter.settled = true
        const i = this.#waiters.indexOf(waiter)
        if (i >= 0) this.#waiters.splice(i, 1)
        cleanup()
        reject(err)
        // a waiter leaving can unblock one that was queued behind it
        this.#drain()
      }
      const onAbort = () => giveUp(opts.signal!.reason)
      const cleanup = () => {
        if (timer) clearTimeout(timer)
        opts.signal?.removeEventListener('abort', onAbort)
      }
      if (Number.isFinite(waitMs)) timer = setTimeout(() => giveUp(this.#exceeded(userId)), waitMs)
      opts.signal?.addEventListener('abort', onAbort, { once: true })
      this.#waiters.push(waiter)
    })
  }

  /** Runs `fn` inside a slot, releasing it however `fn` ends. */
  async run<T>(userId: string, fn: () => Promise<T>, opts: AcquireOptions = {}): Promise<T> {
    const slot = await this.acquire(userId, opts)
    try {
      return await fn()
    } finally {
      slot.release()
    }
  }

  /** Checks in flight now (for one user, or for the server). */
  inFlight(userId?: string): number {
    return userId === undefined ? this.#inFlight : (this.#perUser.get(userId) ?? 0)
  }

  stats(): CapacityStats {
    return {
      inFlight: this.#inFlight,
      waiting: this.#waiters.length,
      maxConcurrent: this.maxConcurrent,
      maxPerUser: this.maxPerUser,
    }
  }

  #userHasRoom(userId: string): boolean {
    return (this.#perUser.get(userId) ?? 0) < this.maxPerUser
  }

  #canStart(userId: string): boolean {
    return this.#inFlight < this.maxConcurrent && this.#userHasRoom(userId)
  }

  #exceeded(userId: string): CapacityExceededError {
    return this.#userHasRoom(userId)
      ? new CapacityExceededError('server', this.maxConcurrent)
      : new CapacityExceededError('user', this.maxPerUser)
  }

  #start(userId: string): Slot {
    this.#inFlight++
    this.#perUser.set(userId, (this.#perUser.get(userId) ?? 0) + 1)
    let released = false
    return {
      userId,
      release: () => {
        if (released) return
        released = true
        this.#inFlight--
        const left = (this.#perUser.get(userId) ?? 1) - 1
        if (left <= 0) this.#perUser.delete(userId)
        else this.#perUser.set(userId, left)
        this.#drain()
      },
    }
  }

  /** Hands freed slots to the oldest waiters that may start. */
  #drain() {
    for (let i = 0; i < this.#waiters.length && this.#inFlight < this.maxConcurrent;) {
      const w = this.#waiters[i]
      if (!this.#userHasRoom(w.userId)) {
        i++
        continue
      }
      this.#waiters.splice(i, 1)
      w.settled = true
      w.grant(this.#start(w.userId))
    }
  }
}
