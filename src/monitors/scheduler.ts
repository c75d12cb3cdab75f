/**
 * The in-process scheduler: ONE timer, set for the earliest due monitor the store knows of (a heap
 * in the embedded store), never a timer per monitor. Each tick claims due monitors (at most as
 * many as the server's check capacity has free slots) and runs them; when a run ends its slot is
 * refilled at once. Scheduled runs take their slots from the same CheckCapacity as API runs
 * (docs/decisions.md#monitors-and-alerts: one cap for the whole server and per user), waiting as long as it takes.
 *
 * Restarts: next-run times are persisted, and a claim taken but not run is given back on stop,
 * so a due run is neither skipped nor doubled. Runs that fell due while the server was down are
 * spread over `catchUpMs` (at most one interval) with random jitter instead of all firing at the
 * first tick, so a restart is not a thundering herd on targets, credits or alert channels.
 *
 * Faults (docs/decisions.md#faults): the schedule never stops while the process lives. A tick that fails (the
 * database is down or silent) re-arms itself with a growing, jittered back-off, and a watchdog
 * re-arms a schedule that went quiet for any other reason; once the store answers again, runs
 * that fell due meanwhile are spread like a restart's catch-up. A run whose result cannot be
 * saved keeps its claim and is held until its next slot, so a failing store never turns a
 * monitor into a loop of checks against its site: at most one check per interval reaches it.
 */
import { setMaxListeners } from 'node:events'
import { CapacityExceededError, type CheckCapacity, type Slot } from '../capacity/index.js'
import { DueHeap } from '../shared/index.js'
import type { Claim } from '../store/schedule.js'
import { nextRunAfter } from './interval.js'
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
  /**
   * Shared stores: claim the runs due within this many ms ahead (default 0: only those due now).
   * Each waits in this process until its due time and starts then, so one claim statement serves
   * many runs instead of one or two statements a run; the claims ahead count against the free
   * slots, and while the last claim found everything due in its window, the next one waits until
   * half of that window has passed.
   */
  claimAheadMs?: number
  /** Longest back-off after failed ticks, ms (default 5 s): well under the shortest interval. */
  maxBackoffMs?: number
  /** A schedule with no tick for this long is re-armed by the watchdog, ms (default 30 s). */
  watchdogMs?: number
  now?: () => number
  log?: (line: string) => void
  /** Each scheduled run's lag (due → started, ms), as it starts (the /metrics histogram). */
  onLag?: (ms: number) => void
}

export interface SchedulerStats {
  started: number
  running: number
  /** Ticks begun (the watchdog and tests read it). */
  ticks: number
  /** Runs held until their next slot because their result could not be saved. */
  held: number
  /** due → started (slot taken), ms, for every scheduled run started (benchmarks read and clear it). */
  lags: number[]
}

export class Scheduler {
  readonly stats: SchedulerStats = { started: 0, running: 0, ticks: 0, held: 0, lags: [] }
  private readonly now: () => number
  private readonly waiting = new DueHeap()
  private readonly waitingClaims = new Map<string, Claim>()
  /** Of `waitingClaims`, those claimed ahead of their due time (claimAheadMs). */
  private readonly ahead = new Set<string>()
  /** With claimAheadMs: no claim before this time (everything due before it was claimed). */
  private nextClaimAt = 0
  /** Claims of runs that could not be saved, kept until their next slot (see `hold`). */
  private readonly held = new DueHeap()
  private readonly heldClaims = new Map<string, Claim>()
  private readonly running = new Set<Promise<void>>()
  /** Launched runs still waiting for a slot. */
  private queued = 0
  private abort = new AbortController()
  private timer: NodeJS.Timeout | undefined
  private sweeper: NodeJS.Timeout | undefined
  private watchdog: NodeJS.Timeout | undefined
  private startedAt = 0
  /** Consecutive failed ticks (0 while the store answers). */
  private failures = 0
  private lastTickAt = 0
  private stopped = true
  private ticking = false
  private again = false

  constructor(
    private readonly service: MonitorService,
    private readonly opts: SchedulerOptions,
  ) {
    this.now = opts.now ?? Date.now
  }

  /** Consecutive ticks that failed (0 while the store answers): readiness reports it. */
  get failedTicks(): number {
    return this.failures
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
        .then((n) => n > 0 && this.scheduleChanged())
        .catch((err) => this.opts.log?.(`scheduler: resume sweep: ${(err as Error).message}`))
    }, sweepMs).unref()
    const watchMs = this.opts.watchdogMs ?? 30_000
    this.watchdog = setInterval(() => this.watch(), Math.max(10, Math.round(watchMs / 2))).unref()
    this.kick()
  }

  /** A monitor's next run moved earlier (created, resumed, changed): claim again at the next tick. */
  scheduleChanged(): void {
    this.nextClaimAt = 0
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
    this.lastTickAt = this.now()
    this.stats.ticks++
    void this.tick()
      .then(
        () => {
          if (this.failures > 0)
            this.opts.log?.(
              `scheduler: the store answers again after ${this.failures} failed ticks; recovered`,
            )
          this.failures = 0
        },
        (err) => {
          this.failures++
          const delay = this.backoff()
          this.opts.log?.(
            `scheduler: tick failed (${(err as Error).message}); retrying in ${delay} ms (failure ${this.failures})`,
          )
          this.setTimer(delay)
        },
      )
      .finally(() => {
        this.ticking = false
        if (this.again) {
          this.again = false
          this.kick()
        }
      })
  }

  /** Jittered exponential back-off after failed ticks, from `pollMs` up to `maxBackoffMs`. */
  private backoff(): number {
    const base = this.opts.pollMs ?? 1000
    const max = Math.max(base, this.opts.maxBackoffMs ?? 5000)
    const raw = Math.min(max, base * 2 ** Math.min(this.failures - 1, 20))
    return Math.round(raw / 2 + Math.random() * (raw / 2))
  }

  private setTimer(delay: number): void {
    if (this.stopped) return
    if (this.timer) clearTimeout(this.timer)
    this.timer = setTimeout(() => this.kick(), delay)
    this.timer.unref()
  }

  /** Notices a schedule that went quiet (no tick for `watchdogMs`) and re-arms it. */
  private watch(): void {
    if (this.stopped) return
    const quietMs = this.now() - this.lastTickAt
    const limit = this.opts.watchdogMs ?? 30_000
    if (quietMs < limit) return
    if (this.ticking) {
      this.opts.log?.(`scheduler: a tick has waited ${Math.round(quietMs / 1000)} s on the store`)
      return
    }
    this.opts.log?.(`scheduler: the schedule went quiet for ${Math.round(quietMs / 1000)} s; re-armed`)
    this.kick()
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
    const now = this.now()
    await this.releaseHeld(now)
    // catch-up runs whose jittered start has come
    while (this.free() > 0) {
      const top = this.waiting.peek()
      if (!top || top.due > now) break
      this.waiting.pop()
      const claim = this.waitingClaims.get(top.id)
      this.waitingClaims.delete(top.id)
      this.ahead.delete(top.id)
      if (claim) this.launch(claim)
    }
    const aheadMs = this.opts.claimAheadMs ?? 0
    if (aheadMs > 0) return this.tickAhead(now, aheadMs)
    if (this.canClaim()) await this.claim(now, this.free(), 0)
    // full (or waiting to claim a batch): the next run's end kicks us, the next due time can wait
    this.arm(this.canClaim() ? await this.service.monitors.nextDueAt() : null)
  }

  /** With claimAheadMs: claim only when the window claimed before runs low, and read the next due time only when nothing was due. */
  private async tickAhead(now: number, aheadMs: number): Promise<void> {
    if (this.slotsToClaim() > 0 && now >= this.nextClaimAt) {
      const want = this.slotsToClaim()
      const got = await this.claim(now, want, aheadMs)
      if (got >= want)
        this.nextClaimAt = 0 // more may be due: claim again as slots free up
      else if (got > 0) this.nextClaimAt = now + aheadMs / 2
      else {
        // nothing due in the window: sleep until the next due run comes within it
        const nextDue = await this.service.monitors.nextDueAt()
        const pollMs = this.opts.pollMs ?? 1000
        this.nextClaimAt =
          nextDue === null
            ? now + pollMs
            : Math.min(now + pollMs, Math.max(now + aheadMs / 2, nextDue - aheadMs))
      }
    }
    // the next claim once it is time and slots allow (else a run's end kicks us), or the next run claimed ahead
    this.arm(this.slotsToClaim() > 0 ? this.nextClaimAt : null, false)
  }

  /**
   * With claimAheadMs: how many runs to claim now. The runs claimed ahead will take slots, so
   * the rest; once busy, only a batch at a time (claimBatch), so a claim serves many runs.
   */
  private slotsToClaim(): number {
    const want = this.free() - this.ahead.size
    const busy = this.running.size > 0 || this.ahead.size > 0
    const batch = Math.min(this.opts.claimBatch ?? 1, this.opts.capacity.maxConcurrent)
    return want > 0 && (!busy || want >= batch) ? want : 0
  }

  /** Claims up to `max` runs due within `aheadMs`; returns how many it got. */
  private async claim(now: number, max: number, aheadMs: number): Promise<number> {
    const claims = await this.service.monitors.claimDue(now, max, this.opts.claimLeaseMs, aheadMs)
    now = this.now()
    const window = this.opts.catchUpMs ?? 60_000
    // after failed ticks, what fell due during the outage is caught up like after a restart
    const spreadBefore = this.failures > 0 ? now : this.startedAt
    for (const c of claims) {
      if (this.stopped) {
        await this.service.monitors.releaseClaim(c.monitor.id)
        continue
      }
      if (c.due_at < spreadBefore && window > 0) {
        // fell due while we were not running: spread over the window (at most one interval)
        const spread = Math.min(window, c.monitor.interval_seconds * 1000)
        const at = now + Math.floor(Math.random() * spread)
        this.waiting.push({ due: at, id: c.monitor.id })
        this.waitingClaims.set(c.monitor.id, c)
      } else if (c.due_at > now) {
        // claimed ahead: starts at its due time
        this.waiting.push({ due: c.due_at, id: c.monitor.id })
        this.waitingClaims.set(c.monitor.id, c)
        this.ahead.add(c.monitor.id)
      } else this.launch(c)
    }
    return claims.length
  }

  /** Sets the timer for the next tick: `nextDue` (a claim), a run waiting for its time, a held run. */
  private arm(nextDue: number | null, onlyWhenClaiming = true): void {
    if (this.stopped) return
    const now = this.now()
    const at: number[] = []
    // full: the next run's end kicks us; a claim waiting for its due time needs one free slot
    if (nextDue !== null && (!onlyWhenClaiming || this.canClaim())) at.push(nextDue)
    const waiting = this.waiting.peek()
    if (waiting && this.free() > 0) at.push(waiting.due)
    const held = this.held.peek()
    if (held) at.push(held.due)
    const pollMs = this.opts.pollMs ?? 1000
    this.setTimer(at.length > 0 ? Math.min(pollMs, Math.max(0, Math.min(...at) - now)) : pollMs)
  }

  /** Held runs whose next slot has come go back to the store, which hands them out again. */
  private async releaseHeld(now: number): Promise<void> {
    for (;;) {
      const top = this.held.peek()
      if (!top || top.due > now) return
      this.held.pop()
      const claim = this.heldClaims.get(top.id)
      if (!claim) continue
      try {
        await this.service.monitors.releaseClaim(top.id)
        this.heldClaims.delete(top.id)
      } catch (err) {
        // still no store: hold on to it for one more slot
        this.held.push({ due: nextRunAfter(top.id, claim.monitor.interval_seconds, now), id: top.id })
        throw err
      }
    }
  }

  /**
   * A run that reached (or may have reached) its site but whose result could not be saved keeps
   * its claim until the monitor's next slot: the store still says "due", and handing it straight
   * back would run it again at once, in a loop (a full disk made a 1 s monitor send 317 checks/s).
   */
  private hold(c: Claim, startedAt: number, err: unknown): void {
    const until = nextRunAfter(c.monitor.id, c.monitor.interval_seconds, startedAt)
    this.held.push({ due: until, id: c.monitor.id })
    this.heldClaims.set(c.monitor.id, c)
    this.stats.held++
    this.opts.log?.(
      `monitor ${c.monitor.id}: run could not be saved (${(err as Error).message}); next try at ${new Date(until).toISOString()}`,
    )
  }

  private launch(c: Claim): void {
    this.queued++
    let startedAt = this.now()
    const work = this.opts.capacity
      .acquire(c.monitor.user_id, { waitMs: Infinity, signal: this.abort.signal })
      .then(
        (slot) => {
          this.queued--
          // the run starts now, with its slot (it may have waited for one, e.g. at the per-user cap)
          startedAt = this.now()
          this.stats.started++
          this.stats.lags.push(startedAt - c.due_at)
          this.opts.onLag?.(startedAt - c.due_at)
          return this.runInSlot(c, slot).catch((err) => {
            if (this.stopped) throw err
            this.hold(c, startedAt, err)
          })
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
      await this.service.run(c.monitor, 'schedule', c.due_at, { slot }, c.version)
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
    if (this.watchdog) clearInterval(this.watchdog)
    this.abort.abort(new Error('The scheduler stopped'))
    for (const id of this.waitingClaims.keys()) await this.service.monitors.releaseClaim(id).catch(() => {})
    this.waitingClaims.clear()
    this.ahead.clear()
    // held runs stay due in the store (next_run_at unchanged): the next start catches them up
    for (const id of this.heldClaims.keys()) await this.service.monitors.releaseClaim(id).catch(() => {})
    this.heldClaims.clear()
    while (this.running.size > 0) await Promise.allSettled([...this.running])
  }
}
