/**
 * Who gets the next lab slot: the lab is shared fairly between owners (the accounts whose checks
 * ask for a run), so one account's pages that never finish loading cannot keep another's quick
 * check waiting.
 *
 * - Each owner waits in a queue of its own; a freed slot goes to the waiting owner that holds
 *   the fewest slots and, among those, was served longest ago (round-robin), not to whoever
 *   asked first.
 * - One owner holds at most `perOwner` slots at once, so with two slots or more one is always
 *   left for someone else.
 * - No wait is unbounded: a request that has waited `maxWaitMs` gives up, and one that finds
 *   `queuePerOwner` of its owner's requests already waiting gives up at once. Either way the
 *   check falls back to the estimate and says why (LabFallback `busy`).
 */

export interface FairShareOptions {
  /** Slots one owner may hold at once. */
  perOwner: number
  /** Requests one owner may have waiting; past it a request is refused at once. */
  queuePerOwner: number
  /** The longest a request waits for a slot, ms. */
  maxWaitMs: number
}

/** A slot granted (give it back with `release`), or why there is none. */
export type Grant<T> =
  | { slot: T; waitedMs: number; release: () => void }
  | { refused: 'queue_full' | 'waited_too_long' | 'closed'; waitedMs: number }

interface Waiter<T> {
  owner: string
  since: number
  timer: NodeJS.Timeout
  grant: (g: Grant<T>) => void
}

export class FairShare<T> {
  /** Free slots, kept in the order they were given (the lowest first). */
  private readonly idle: T[]
  private readonly holding = new Map<string, number>()
  /** Owners with requests waiting, each with its queue (first come first served within it). */
  private readonly waiting = new Map<string, Array<Waiter<T>>>()
  /** When each owner holding or awaiting a slot was last given one (a count of grants). */
  private readonly lastServed = new Map<string, number>()
  private grants = 0
  private closed = false

  constructor(
    private readonly slots: readonly T[],
    private readonly opts: FairShareOptions,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.idle = [...slots]
  }

  /** Requests waiting now, all owners together. */
  get queued(): number {
    let n = 0
    for (const list of this.waiting.values()) n += list.length
    return n
  }

  /** Resolves with a slot or a refusal; never rejects. */
  acquire(owner: string): Promise<Grant<T>> {
    if (this.closed) return Promise.resolve({ refused: 'closed', waitedMs: 0 })
    if (this.idle.length > 0 && this.mayHold(owner)) return Promise.resolve(this.take(owner, this.now()))
    const queue = this.waiting.get(owner) ?? []
    if (queue.length >= this.opts.queuePerOwner)
      return Promise.resolve({ refused: 'queue_full', waitedMs: 0 })
    return new Promise((resolve) => {
      const waiter: Waiter<T> = {
        owner,
        since: this.now(),
        grant: resolve,
        timer: setTimeout(() => {
          this.drop(waiter)
          resolve({ refused: 'waited_too_long', waitedMs: this.waited(waiter.since) })
        }, this.opts.maxWaitMs),
      }
      queue.push(waiter)
      this.waiting.set(owner, queue)
    })
  }

  /** Refuses every waiting request; later ones are refused at once. */
  close(): void {
    this.closed = true
    for (const list of this.waiting.values())
      for (const w of list) {
        clearTimeout(w.timer)
        w.grant({ refused: 'closed', waitedMs: this.waited(w.since) })
      }
    this.waiting.clear()
  }

  private mayHold(owner: string): boolean {
    return (this.holding.get(owner) ?? 0) < this.opts.perOwner
  }

  private take(owner: string, since: number): Grant<T> {
    this.idle.sort((a, b) => this.slots.indexOf(a) - this.slots.indexOf(b))
    const slot = this.idle.shift()!
    this.holding.set(owner, (this.holding.get(owner) ?? 0) + 1)
    this.lastServed.set(owner, ++this.grants)
    let released = false
    const release = () => {
      if (released) return
      released = true
      const held = (this.holding.get(owner) ?? 1) - 1
      if (held > 0) this.holding.set(owner, held)
      else this.holding.delete(owner)
      this.forgetIfIdle(owner)
      this.idle.push(slot)
      this.serve()
    }
    return { slot, waitedMs: this.waited(since), release }
  }

  /** Hands free slots to waiting owners: fewest slots held first, then the one served longest ago. */
  private serve(): void {
    while (this.idle.length > 0) {
      const owner = this.next()
      if (owner === undefined) return
      const queue = this.waiting.get(owner)!
      const waiter = queue.shift()!
      if (queue.length === 0) this.waiting.delete(owner)
      clearTimeout(waiter.timer)
      waiter.grant(this.take(owner, waiter.since))
    }
  }

  private next(): string | undefined {
    let best: string | undefined
    const rank = (o: string) => [this.holding.get(o) ?? 0, this.lastServed.get(o) ?? 0] as const
    for (const owner of this.waiting.keys()) {
      if (!this.mayHold(owner)) continue
      if (best === undefined) best = owner
      else {
        const [held, served] = rank(owner)
        const [bestHeld, bestServed] = rank(best)
        if (held < bestHeld || (held === bestHeld && served < bestServed)) best = owner
      }
    }
    return best
  }

  private drop(waiter: Waiter<T>): void {
    const queue = this.waiting.get(waiter.owner)
    if (!queue) return
    const rest = queue.filter((w) => w !== waiter)
    if (rest.length > 0) this.waiting.set(waiter.owner, rest)
    else this.waiting.delete(waiter.owner)
    this.forgetIfIdle(waiter.owner)
  }

  /** An owner neither holding nor waiting needs no turn kept: its next request is served as a newcomer's. */
  private forgetIfIdle(owner: string): void {
    if (!this.holding.has(owner) && !this.waiting.has(owner)) this.lastServed.delete(owner)
  }

  private waited(since: number): number {
    return Math.round(this.now() - since)
  }
}
