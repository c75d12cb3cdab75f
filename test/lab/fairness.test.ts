// The lab shared between accounts (src/lab/fair-share.ts): one account's pages that never finish
// loading cannot keep another's check waiting past a bound, and nobody queues without limit. Fake
// lab work (slots that answer on fake timers) stands in for Chromium, so nothing here is timed.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { Lab, type LabOutcome } from '../../src/lab/index.js'
import type { LabSlot, SlotResult } from '../../src/lab/slot.js'

const REPLY: SlotResult = {
  ok: true,
  lighthouseVersion: '12.8.2',
  score: 0.9,
  metrics: { fcp: 900, lcp: 1200, tbt: 0, cls: 0, si: 1000 },
  finalUrl: 'https://quick.example/',
  runtimeError: null,
}

/** A slot whose `/hang` pages never load (the run ends at its timeout) and other pages take 1 s. */
class FakeSlot implements LabSlot {
  readonly browserPid = null
  readonly restarts = 0
  constructor(private readonly started: string[]) {}
  async warmUp(): Promise<void> {}
  run(url: string, timeoutMs: number): Promise<SlotResult> {
    this.started.push(url)
    const hangs = url.includes('/hang')
    return new Promise((resolve) =>
      setTimeout(() => resolve(hangs ? { ok: false, timeout: true } : REPLY), hangs ? timeoutMs : 1000),
    )
  }
  kill(): void {}
  async close(): Promise<void> {}
}

function fakeLab(slots: number, opts: ConstructorParameters<typeof Lab>[2] = {}) {
  const started: string[] = []
  const lab = new Lab(
    Array.from({ length: slots }, () => new FakeSlot(started)),
    { refused: [], close: async () => {} },
    { timeoutMs: 5000, ...opts },
  )
  return { lab, started }
}

/** Settles as the fake clock runs; `done` is set once it has. */
function track(p: Promise<LabOutcome>) {
  const t: { done?: LabOutcome } = {}
  void p.then((o) => (t.done = o))
  return t
}

describe('the lab shared between accounts', () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it("serves another account's check next, not after every page of the account that asked first", async () => {
    const { lab, started } = fakeLab(1)
    const hogs = [1, 2, 3].map((i) => track(lab.measure(`https://hog.example/hang${i}`, 'A')))
    await vi.advanceTimersByTimeAsync(0)
    const quick = track(lab.measure('https://quick.example/', 'B'))
    // A's first page holds the only slot until its 5 s timeout; then B's turn comes before A's second
    await vi.advanceTimersByTimeAsync(6000)
    expect(quick.done).toMatchObject({ method: 'lab', queuedMs: 5000 })
    expect(started).toEqual([
      'https://hog.example/hang1',
      'https://quick.example/',
      'https://hog.example/hang2',
    ])
    await vi.advanceTimersByTimeAsync(20_000)
    expect(hogs.map((h) => h.done?.method)).toEqual(['estimate', 'estimate', 'estimate'])
    await lab.close()
  })

  it('keeps a slot free for other accounts: one account holds at most all slots but one', async () => {
    const { lab, started } = fakeLab(2)
    for (let i = 0; i < 4; i++) void lab.measure(`https://hog.example/hang${i}`, 'A')
    await vi.advanceTimersByTimeAsync(0)
    expect(started).toHaveLength(1)
    const quick = track(lab.measure('https://quick.example/', 'B'))
    await vi.advanceTimersByTimeAsync(1000)
    expect(quick.done).toMatchObject({ method: 'lab', queuedMs: 0 })
    expect(lab.stats).toMatchObject({ active: 1, queued: 3 })
    await lab.close()
  })

  it('never waits past the bound for a slot: the check falls back to the estimate and says why', async () => {
    const { lab } = fakeLab(1, { queueWaitMs: 3000 })
    void lab.measure('https://hog.example/hang', 'A')
    await vi.advanceTimersByTimeAsync(0)
    const waiting = track(lab.measure('https://quick.example/', 'B'))
    await vi.advanceTimersByTimeAsync(2999)
    expect(waiting.done).toBeUndefined()
    await vi.advanceTimersByTimeAsync(1)
    expect(waiting.done).toEqual({
      method: 'estimate',
      fallback: 'busy',
      reason: 'no lab browser was free within 3 s',
      durationMs: 0,
      queuedMs: 3000,
    })
    expect(lab.stats.fallbacks.busy).toBe(1)
    await lab.close()
  })

  it("bounds each account's queue: past it a check falls back at once, and other accounts still queue", async () => {
    const { lab } = fakeLab(1, { queuePerUser: 2 })
    const outcomes = [0, 1, 2, 3].map((i) => track(lab.measure(`https://hog.example/hang${i}`, 'A')))
    await vi.advanceTimersByTimeAsync(0)
    // one runs, two wait, the fourth is refused without waiting
    expect(outcomes[3].done).toEqual({
      method: 'estimate',
      fallback: 'busy',
      reason: 'this account already has 2 lab runs waiting for a browser',
      durationMs: 0,
      queuedMs: 0,
    })
    expect(outcomes.slice(0, 3).every((o) => o.done === undefined)).toBe(true)
    const other = track(lab.measure('https://quick.example/', 'B'))
    await vi.advanceTimersByTimeAsync(0)
    expect(other.done).toBeUndefined()
    expect(lab.stats.queued).toBe(3)
    await lab.close()
  })

  it('answers every waiting check when the lab closes, instead of leaving it hanging', async () => {
    const { lab } = fakeLab(1)
    void lab.measure('https://hog.example/hang', 'A')
    await vi.advanceTimersByTimeAsync(0)
    const waiting = track(lab.measure('https://quick.example/', 'B'))
    await lab.close()
    await vi.advanceTimersByTimeAsync(0)
    expect(waiting.done).toMatchObject({
      method: 'estimate',
      fallback: 'failed',
      reason: 'the lab is closed',
    })
  })
})
