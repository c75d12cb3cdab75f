/**
 * The scheduler's timing (src/monitors/interval.ts, scheduler.ts): where a monitor's next run
 * falls, and how schedule lag is measured.
 */
import { randomUUID } from 'node:crypto'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { CheckCapacity } from '../../src/capacity/index.js'
import { nextRunAfter, phaseOf } from '../../src/monitors/interval.js'
import { INITIAL_MEMORY } from '../../src/monitors/rules.js'
import { Scheduler } from '../../src/monitors/scheduler.js'
import type { MonitorService } from '../../src/monitors/service.js'
import type { Claim } from '../../src/store/schedule.js'
import type { MonitorRecord } from '../../src/store/monitors.js'

const MIN = 60_000

describe('next run', () => {
  it('spreads monitors created in one burst evenly over the interval', () => {
    // 10,000 monitors whose first runs all started within one second
    const t0 = Date.UTC(2026, 0, 1)
    const buckets = new Array(10).fill(0)
    for (let i = 0; i < 10_000; i++) {
      const next = nextRunAfter(randomUUID(), 60, t0 + (i % 1000))
      buckets[Math.floor(((next - t0) % MIN) / (MIN / 10))]++
    }
    // each tenth of the minute holds about a tenth of them (binomial sd ~30)
    for (const n of buckets) {
      expect(n).toBeGreaterThan(850)
      expect(n).toBeLessThan(1150)
    }
  })

  it('keeps a monitor that runs on time exactly one interval apart', () => {
    const id = randomUUID()
    let t = nextRunAfter(id, 60, Date.UTC(2026, 0, 1, 12, 0, 7))
    for (let i = 0; i < 5; i++) {
      const next = nextRunAfter(id, 60, t + 3) // started 3 ms late
      expect(next - t).toBe(MIN)
      t = next
    }
    expect(t % MIN).toBe(phaseOf(id, MIN))
  })

  it('follows a late run by one later run, never a burst, and never leaves more than 1.5 intervals', () => {
    for (let i = 0; i < 1000; i++) {
      const id = randomUUID()
      const started = Date.UTC(2026, 0, 1) + Math.floor(Math.random() * 10 * MIN)
      const gap = nextRunAfter(id, 60, started) - started
      expect(gap).toBeGreaterThan(MIN / 2)
      expect(gap).toBeLessThanOrEqual(1.5 * MIN)
    }
  })
})

function monitor(i: number): MonitorRecord {
  return {
    id: randomUUID(),
    user_id: 'agency',
    url: `http://127.0.0.1/${i}`,
    name: `m${i}`,
    interval_seconds: 60,
    paused: false,
    paused_reason: null,
    state: 'pending',
    last_check: null,
    next_run_at: 0,
    created_at: new Date().toISOString(),
    updated_at: new Date().toISOString(),
    alerts: { down_after: 2, min_score: null },
    channels: [],
    memory: INITIAL_MEMORY,
  }
}

/** A scheduler over `n` monitors of one user, all due now, whose runs take `runMs`. */
function dueNow(n: number, runMs: number, caps: { maxConcurrent: number; maxPerUser: number }) {
  const due = Date.now()
  let claims: Claim[] = Array.from({ length: n }, (_, i) => ({
    monitor: { ...monitor(i), next_run_at: due },
    due_at: due,
  }))
  const fake = {
    monitors: {
      claimDue: async (_now: number, max: number) => claims.splice(0, max),
      nextDueAt: async () => null,
      releaseClaim: async () => {},
    },
    run: () => new Promise((resolve) => setTimeout(resolve, runMs)),
    resumeCreditPaused: async () => 0,
  }
  const scheduler = new Scheduler(fake as unknown as MonitorService, {
    capacity: new CheckCapacity(caps),
    catchUpMs: 0,
  })
  scheduler.start()
  return {
    scheduler,
    stop: async () => {
      claims = []
      await scheduler.stop()
    },
  }
}

describe('scheduler', () => {
  it('measures lag up to when a run starts, including its wait for a per-user slot', async () => {
    // on a clock of its own (the store here is a fake, so no I/O waits on real time): three runs
    // due now for one user who may run one check at a time; each check takes 150 ms
    vi.useFakeTimers()
    try {
      const { scheduler, stop } = dueNow(3, 150, { maxConcurrent: 8, maxPerUser: 1 })
      await vi.advanceTimersByTimeAsync(500)
      expect(scheduler.stats.lags).toEqual([0, 150, 300])
      await stop()
    } finally {
      vi.useRealTimers()
    }
  })

  it('lets many runs wait for a slot without a listener-leak warning', async () => {
    const warnings: Error[] = []
    const onWarning = (w: Error) => warnings.push(w)
    process.on('warning', onWarning)
    const { scheduler, stop } = dueNow(20, 10, { maxConcurrent: 64, maxPerUser: 1 })
    try {
      await expect.poll(() => scheduler.stats.started, { timeout: 3000 }).toBe(20)
      // warnings are emitted on the next tick
      await new Promise((resolve) => setImmediate(resolve))
      expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([])
    } finally {
      process.off('warning', onWarning)
      await stop()
    }
  })
})

describe('scheduler claiming ahead (shared stores)', () => {
  it('claims the runs due soon in few statements and starts each at its due time, not before', async () => {
    // 120 monitors due one every 10 ms over 1.2 s; a claim hands out those due within aheadMs
    const t0 = Date.now() + 50
    const pending = Array.from({ length: 120 }, (_, i) => ({
      monitor: { ...monitor(i), next_run_at: t0 + i * 10 },
      due_at: t0 + i * 10,
    }))
    const stats = { claims: 0, nextDue: 0 }
    const started = new Map<string, number>()
    const fake = {
      monitors: {
        claimDue: async (now: number, max: number, _lease?: number, aheadMs = 0) => {
          stats.claims++
          const n = pending.filter((c) => c.due_at <= now + aheadMs).slice(0, max).length
          return pending.splice(0, n)
        },
        nextDueAt: async () => {
          stats.nextDue++
          return pending[0]?.due_at ?? null
        },
        releaseClaim: async () => {},
      },
      run: async (m: MonitorRecord, _t: string, dueAt: number) => {
        expect(started.has(m.id)).toBe(false)
        started.set(m.id, Date.now() - dueAt)
        await new Promise((r) => setTimeout(r, 3))
      },
      resumeCreditPaused: async () => 0,
    }
    const scheduler = new Scheduler(fake as unknown as MonitorService, {
      capacity: new CheckCapacity({ maxConcurrent: 64, maxPerUser: 16 }),
      catchUpMs: 0,
      claimBatch: 8,
      claimAheadMs: 250,
    })
    scheduler.start()
    try {
      await expect.poll(() => started.size, { timeout: 5000 }).toBe(120)
      const lags = [...started.values()]
      // never before its due time; on time give or take the timer (a loaded machine: generous)
      expect(Math.min(...lags)).toBeGreaterThanOrEqual(0)
      expect(Math.max(...lags)).toBeLessThan(500)
      // a claim statement for many runs, and the next due time read only while nothing was due
      expect(stats.claims).toBeLessThan(30)
      expect(stats.nextDue).toBeLessThan(10)
    } finally {
      await scheduler.stop()
    }
  })

  it('gives back the runs claimed ahead when it stops, unrun', async () => {
    const t0 = Date.now() + 200
    const claims = Array.from({ length: 5 }, (_, i) => ({
      monitor: { ...monitor(i), next_run_at: t0 + i },
      due_at: t0 + i,
    }))
    const released: string[] = []
    let runs = 0
    const fake = {
      monitors: {
        claimDue: async () => claims.splice(0),
        nextDueAt: async () => null,
        releaseClaim: async (id: string) => void released.push(id),
      },
      run: async () => void runs++,
      resumeCreditPaused: async () => 0,
    }
    const scheduler = new Scheduler(fake as unknown as MonitorService, {
      capacity: new CheckCapacity({ maxConcurrent: 64, maxPerUser: 16 }),
      catchUpMs: 0,
      claimAheadMs: 500,
    })
    scheduler.start()
    await expect.poll(() => claims.length).toBe(0)
    await scheduler.stop()
    expect(runs).toBe(0)
    expect(released).toHaveLength(5)
  })
})

/** A fake service over one monitor whose store and runs fail as the test says. */
function flaky(intervalSeconds: number) {
  const m = { ...monitor(0), interval_seconds: intervalSeconds, next_run_at: Date.now() }
  const s = {
    failClaims: 0,
    failRuns: false,
    claimed: false,
    claims: 0,
    releases: 0,
    /** Runs that reached the site (the run started). */
    runs: [] as number[],
    log: [] as string[],
  }
  const fake = {
    monitors: {
      claimDue: async (now: number) => {
        if (s.failClaims > 0) {
          s.failClaims--
          throw new Error('connection terminated unexpectedly')
        }
        if (s.claimed || m.next_run_at! > now) return []
        s.claimed = true
        s.claims++
        return [{ monitor: m, due_at: m.next_run_at! }]
      },
      nextDueAt: async () => (s.claimed ? null : m.next_run_at),
      releaseClaim: async () => {
        s.releases++
        s.claimed = false
      },
    },
    run: async (_m: MonitorRecord, _t: string, dueAt: number) => {
      s.runs.push(Date.now())
      await new Promise((r) => setTimeout(r, 5))
      if (s.failRuns) throw new Error('ENOSPC: no space left on device, write')
      // saved: the next slot, the claim ends
      m.next_run_at = dueAt + intervalSeconds * 1000
      s.claimed = false
    },
    resumeCreditPaused: async () => 0,
  }
  const scheduler = new Scheduler(fake as unknown as MonitorService, {
    capacity: new CheckCapacity({ maxConcurrent: 4, maxPerUser: 4 }),
    catchUpMs: 0,
    pollMs: 20,
    maxBackoffMs: 80,
    watchdogMs: 200,
    log: (l) => s.log.push(l),
  })
  return { s, m, scheduler }
}

describe('scheduler faults', () => {
  // on a clock of their own: the store and the runs are fakes, so nothing waits on real time
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('keeps ticking after failed ticks (a database blip) and runs the due monitor once it is back', async () => {
    const { s, scheduler } = flaky(60)
    s.failClaims = 5
    scheduler.start()
    try {
      // five failed ticks back off up to 80 ms each
      await vi.advanceTimersByTimeAsync(1000)
      expect(s.runs.length).toBe(1)
      expect(s.log.some((l) => /tick failed/.test(l))).toBe(true)
      expect(s.log.some((l) => /recovered/.test(l))).toBe(true)
    } finally {
      await scheduler.stop()
    }
  })

  it('holds a run whose result cannot be saved until its next slot: one run per interval, not a loop', async () => {
    const { s, scheduler } = flaky(1)
    s.failRuns = true
    scheduler.start()
    try {
      await vi.advanceTimersByTimeAsync(2600)
      // a 1 s monitor over 2.6 s: at most 3 runs reach the site (before: hundreds)
      expect(s.runs.length).toBeGreaterThanOrEqual(2)
      expect(s.runs.length).toBeLessThanOrEqual(4)
      for (let i = 1; i < s.runs.length; i++) expect(s.runs[i] - s.runs[i - 1]).toBeGreaterThan(450)
      expect(s.log.some((l) => /could not be saved/.test(l))).toBe(true)
      // the store is back: runs go on as usual
      s.failRuns = false
      const before = s.runs.length
      await vi.advanceTimersByTimeAsync(3000)
      expect(s.runs.length).toBeGreaterThan(before + 1)
    } finally {
      await scheduler.stop()
    }
  })

  it('a watchdog re-arms a schedule that went quiet', async () => {
    const { s, scheduler } = flaky(60)
    scheduler.start()
    try {
      await vi.advanceTimersByTimeAsync(100)
      expect(s.runs.length).toBe(1)
      // something lost the timer (as a failed tick used to)
      clearTimeout((scheduler as unknown as { timer?: NodeJS.Timeout }).timer)
      const ticks = scheduler.stats.ticks
      await vi.advanceTimersByTimeAsync(1000)
      expect(scheduler.stats.ticks).toBeGreaterThan(ticks + 1)
      expect(s.log.some((l) => /went quiet/.test(l))).toBe(true)
    } finally {
      await scheduler.stop()
    }
  })
})
