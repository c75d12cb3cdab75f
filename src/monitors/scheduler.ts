/**
 * The in-process scheduler: ONE timer, set for the earliest due monitor the store knows of (a heap
 * in the embedded store), never a timer per monitor. Each tick claims due monitors (at most as
 * many as the server's check capacity has free slots) and runs them; when a run ends its slot is
 * refilled at once. Scheduled runs take their slots from the same CheckCapacity as API runs
 * (DESIGN §9: one cap for the whole server and per user), waiting as long as it takes.
 *
 * Restarts: next-run times are persisted, and a claim taken but not run is given back on stop,
 * so a due run is neither skipped nor doubled. Runs that fell due while the server was down are
 * spread over `catchUpMs` (at most one interval) with random jitter instead of all firing at the
 * first tick, so a restart is not a thundering herd on targets, credits or alert channels.
 */
import { setMaxListeners } from 'node:events'
import { CapacityExceededError, type CheckCapacity, type Slot } from '../capacity/index.js'
import { DueHeap } from '../shared/due-heap.js'
import type { Claim } from '../store/monitors.js'
import type { MonitorService } from './service.js'

export interface SchedulerOptions {
  /** The server's caps on checks in flight, shared with API runs. */
  capacity: CheckCapacity
  /** Catch-up runs after a start are spread over this window, ms (default 60 s). */
  catchUpMs?: number
  /** How often monitors paused for credits look for new credits, ms (default 5 s). */
  resumeSweepMs?: number
  /** How long a claim holds before another instance may take the run over, ms (shared stores). */
  claimLeaseMs?: number
  /** Longest sleep between ticks, ms: bounds the delay when another instance changes the schedule (default 1 s). */
  pollMs?: number
  /**
   * While runs are in flight, claim only once this many slots are free (default 1). A claim is a
   * heap pop in the embedded store but a statement on a shared database: at capacity, claiming a
   * few at a time instead of one per finished run saves most of those statements, and the
   * runs already waiting for a per-user slot keep the server busy meanwhile.
   */
  claimBatch?: number
  now?: () => number
  log?: (line: string) => void
}

export interface SchedulerStats {
  started: number
  running: number
  /** due → started (slot taken), ms, for every scheduled run started (benchmarks read and clear it). */
  lags: number[]
}

export class Scheduler {
  readonly stats: SchedulerStats = { started: 0, running: 0, lags: [] }
  private readonly now: () => number
  private readonly waiting = new DueHeap()
  private readonly waitingClaims = new Map<string, Claim>()
  private readonly running = new Set<Promise<void>>()
  /** Launched runs still waiting for a slot. */
  private queued = 0
  private abort = new AbortController()
  private timer: NodeJS.Timeout | undefined
  private sweeper: NodeJS.Timeout | undefined
  private startedAt = 0
  private stopped = true
  private ticking = false
  private again = false

  constructor(
    private readonly service: MonitorService,
    private readonly opts: SchedulerOptions,
  ) {
    this.now = opts.now ?? Date.now
  }

  start(): void {
    if (!this.stopped) return
    this.stopped = false
    this.abort = new AbortController()
    // every run waiting for a slot listens on this one signal (at most the capacity's queue): not a leak
    setMaxListeners(0, this.abort.signal)
    this.startedAt = this.now()
    const sweepMs = this.opts.resumeSweepMs ?? 5000
    this.sweeper = setInterval(() => {
      void this.service
        .resumeCreditPaused(Math.min(sweepMs, this.opts.catchUpMs ?? 60_000))
        .then((n) => n > 0 && this.kick())
        .catch((err) => this.opts.log?.(`scheduler: resume sweep: ${(err as Error).message}`))
    }, sweepMs).unref()
    this.kick()
  }

  /** Tick now (a monitor was created or resumed, a run ended). */
  kick(): void {
    if (this.stopped) return
    if (this.ticking) {
      this.again = true
      return
    }
    if (this.timer) clearTimeout(this.timer)
    this.timer = undefined
    this.ticking = true
    void this.tick()
      .catch((err) => this.opts.log?.(`scheduler: ${(err as Error).message}`))
      .finally(() => {
        this.ticking = false
        if (this.again) {
          this.again = false
          this.kick()
        }
      })
  }

  private free(): number {
    const cap = this.opts.capacity
    return cap.maxConcurrent - cap.inFlight() - this.queued
  }

  /** Whether a claim is worth making now (see `claimBatch`). */
  private canClaim(): boolean {
    const free = this.free()
    if (free <= 0) return false
    if (this.running.size === 0) return true
    return free >= Math.min(this.opts.claimBatch ?? 1, this.opts.capacity.maxConcurrent)
  }

  private async tick(): Promise<void> {
    if (this.stopped) return
    let now = this.now()
    // catch-up runs whose jittered start has come
    while (this.free() > 0) {
      const top = this.waiting.peek()
      if (!top || top.due > now) break
      this.waiting.pop()
      const claim = this.waitingClaims.get(top.id)
      this.waitingClaims.delete(top.id)
      if (claim) this.launch(claim)
    }
    if (this.canClaim()) {
      const claims = await this.service.monitors.claimDue(now, this.free(), this.opts.claimLeaseMs)
      now = this.now()
      const window = this.opts.catchUpMs ?? 60_000
      for (const c of claims) {
        if (this.stopped) {
          await this.service.monitors.releaseClaim(c.monitor.id)
          continue
        }
        if (c.due_at < this.startedAt && window > 0) {
          // fell due while we were not running: spread over the window (at most one interval)
          const spread = Math.min(window, c.monitor.interval_seconds * 1000)
          const at = now + Math.floor(Math.random() * spread)
          this.waiting.push({ due: at, id: c.monitor.id })
          this.waitingClaims.set(c.monitor.id, c)
        } else this.launch(c)
      }
    }
    // full (or waiting to claim a batch): the next run's end kicks us, the next due time can wait
    this.arm(this.canClaim() ? await this.service.monitors.nextDueAt() : null)
  }

  private arm(nextDue: number | null): void {
    if (this.stopped) return
    const now = this.now()
    const candidates = [nextDue, this.waiting.peek()?.due].filter((x): x is number => typeof x === 'number')
    let delay = this.opts.pollMs ?? 1000
    if (candidates.length > 0) delay = Math.min(delay, Math.max(0, Math.min(...candidates) - now))
    // full: the next run's end kicks us
    if (!this.canClaim()) delay = this.opts.pollMs ?? 1000
    if (this.timer) clearTimeout(this.timer)
    this.timer = setTimeout(() => this.kick(), delay)
    this.timer.unref()
  }

  private launch(c: Claim): void {
    this.queued++
    const work = this.opts.capacity
      .acquire(c.monitor.user_id, { waitMs: Infinity, signal: this.abort.signal })
      .then(
        (slot) => {
          this.queued--
          // the run starts now, with its slot (it may have waited for one, e.g. at the per-user cap)
          this.stats.started++
          this.stats.lags.push(this.now() - c.due_at)
          return this.runInSlot(c, slot)
        },
        async (err) => {
          this.queued--
          // stopping, or the capacity's queue is full: the claim goes back and the run stays due
          await this.service.monitors.releaseClaim(c.monitor.id)
          if (!(err instanceof CapacityExceededError) && !this.stopped) throw err
        },
      )
      .catch((err) => this.opts.log?.(`monitor ${c.monitor.id}: run failed: ${(err as Error).message}`))
      .finally(() => {
        this.running.delete(work)
        this.stats.running = this.running.size
        this.kick()
      })
    this.running.add(work)
    this.stats.running = this.running.size
  }

  private async runInSlot(c: Claim, slot: Slot): Promise<void> {
    try {
      await this.service.run(c.monitor, 'schedule', c.due_at, { slot })
    } finally {
      slot.release()
    }
  }

  /** Stops claiming, gives back claims not started, and waits for runs in flight to be recorded. */
  async stop(): Promise<void> {
    if (this.stopped) return
    this.stopped = true
    if (this.timer) clearTimeout(this.timer)
    if (this.sweeper) clearInterval(this.sweeper)
    this.abort.abort(new Error('The scheduler stopped'))
    for (const id of this.waitingClaims.keys()) await this.service.monitors.releaseClaim(id)
    this.waitingClaims.clear()
    while (this.running.size > 0) await Promise.allSettled([...this.running])
  }
}
