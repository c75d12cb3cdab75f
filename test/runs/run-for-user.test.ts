/**
 * runForUser, the one way a check is run, through its public behaviour: an injected check (no
 * network), the embedded store in a temp dir, the real capacity caps and failure budget. What a
 * caller sees: the saved check and the balance, or a RunRefused with nothing charged.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { CheckCapacity } from '../../src/capacity/index.js'
import { CheckError } from '../../src/checks/errors.js'
import type { CheckReport } from '../../src/checks/types.js'
import { runForUser, RunRefused, type RunDeps, type RunHow } from '../../src/runs/index.js'
import { openLowdbStore, type LowdbStore } from '../../src/store/index.js'
import { fakeReport } from '../helpers/report.js'
import { removeDir, tempDir } from '../store/helpers.js'

let dir: string
let store: LowdbStore
beforeEach(async () => {
  dir = await tempDir()
  store = await openLowdbStore(dir)
})
afterEach(async () => {
  await store.close()
  await removeDir(dir)
})

const deps = (over: Partial<RunDeps> = {}): RunDeps => ({
  store,
  capacity: new CheckCapacity({ maxConcurrent: 4, maxPerUser: 2 }),
  allowPrivateTargets: false,
  checkTimeoutMs: 15_000,
  check: async (url) => fakeReport(url),
  ...over,
})

/** A budget of free failures per key, as the failure budget counts them (a fake clock-free one). */
function fakeBudget(limit: number): NonNullable<RunHow['budget']> {
  const failures = new Map<string, number>()
  return {
    key: 'key-1',
    failures: {
      policy: { limit, windowMs: 3_600_000 },
      retryAfterSec: (key: string) => ((failures.get(key) ?? 0) >= limit ? 60 : 0),
      record: (key: string) => void failures.set(key, (failures.get(key) ?? 0) + 1),
    } as unknown as NonNullable<RunHow['budget']>['failures'],
  }
}

/** The refusal a run ends in (fails the test when it succeeds). */
async function refusal(p: Promise<unknown>): Promise<RunRefused> {
  const err = await p.then(
    () => new Error('the run succeeded'),
    (e: unknown) => e,
  )
  expect(err).toBeInstanceOf(RunRefused)
  return err as RunRefused
}

/** A check that waits until released: holds its capacity slot meanwhile. */
function gatedCheck() {
  let open!: () => void
  const gate = new Promise<void>((r) => (open = r))
  let started = 0
  const check = async (url: string): Promise<CheckReport> => {
    started++
    await gate
    return fakeReport(url)
  }
  return { check, open: () => open(), started: () => started }
}

describe('runForUser', () => {
  it('saves the check and charges one credit', async () => {
    await store.users.ensure('ada', 3)
    const done = await runForUser(deps(), 'ada', 'https://example.com/')
    expect(done.check.url).toBe('https://example.com/')
    expect(done.check.health_score).toBe(92)
    expect(done.remaining).toBe(2)
    expect(store.users.availableCredits('ada')).toBe(2)
    expect((await store.checks.get('ada', done.check.id))?.summary).toBe(done.report.summary)
  })

  it('refuses a bad or private URL as invalid_url before reserving anything', async () => {
    await store.users.ensure('ada', 3)
    let checked = 0
    const d = deps({ check: async (url) => (checked++, fakeReport(url)) })
    expect((await refusal(runForUser(d, 'ada', 'ftp://example.com/'))).code).toBe('invalid_url')
    expect((await refusal(runForUser(d, 'ada', 'http://127.0.0.1:8080/'))).code).toBe('invalid_url')
    expect(checked).toBe(0)
    expect(store.users.availableCredits('ada')).toBe(3)
  })

  it('refuses with insufficient_credits when the user has none, and runs no check', async () => {
    await store.users.ensure('ada', 0)
    let checked = 0
    const d = deps({ check: async (url) => (checked++, fakeReport(url)) })
    expect((await refusal(runForUser(d, 'ada', 'https://example.com/'))).code).toBe('insufficient_credits')
    expect(checked).toBe(0)
  })

  it('a failed check (check_failed) releases the reserved credit', async () => {
    await store.users.ensure('ada', 1)
    const d = deps({
      check: async () => {
        throw new CheckError('check_failed', 'Could not resolve example.com.')
      },
    })
    const r = await refusal(runForUser(d, 'ada', 'https://example.com/'))
    expect(r.code).toBe('check_failed')
    expect(r.message).toBe('Could not resolve example.com.')
    expect(store.users.availableCredits('ada')).toBe(1)
    expect((await store.checks.list('ada', { limit: 10 })).items).toEqual([])
  })

  it('any other error of the check is passed on, with the credit released', async () => {
    await store.users.ensure('ada', 1)
    const boom = new Error('engine bug')
    const d = deps({
      check: async () => {
        throw boom
      },
    })
    await expect(runForUser(d, 'ada', 'https://example.com/')).rejects.toBe(boom)
    expect(store.users.availableCredits('ada')).toBe(1)
  })

  it('holds a credit while the check runs: concurrent runs never overspend', async () => {
    await store.users.ensure('ada', 2)
    const gated = gatedCheck()
    const d = deps({ check: gated.check, capacity: new CheckCapacity({ maxConcurrent: 8, maxPerUser: 8 }) })
    const runs = [1, 2, 3].map((n) =>
      runForUser(d, 'ada', `https://example.com/${n}`).then(
        (done) => ({ ok: true as const, done }),
        (err: unknown) => ({ ok: false as const, code: (err as RunRefused).code }),
      ),
    )
    await expect.poll(() => gated.started()).toBe(2)
    expect(store.users.availableCredits('ada')).toBe(0)
    gated.open()
    const results = await Promise.all(runs)
    expect(results.filter((r) => r.ok)).toHaveLength(2)
    expect(results.filter((r) => !r.ok)).toEqual([{ ok: false, code: 'insufficient_credits' }])
    expect(store.users.availableCredits('ada')).toBe(0)
  })

  describe('capacity', () => {
    it('past the per-user cap a run is refused with server_busy and nothing charged', async () => {
      await store.users.ensure('ada', 5)
      const gated = gatedCheck()
      const d = deps({ check: gated.check, capacity: new CheckCapacity({ maxConcurrent: 4, maxPerUser: 1 }) })
      const first = runForUser(d, 'ada', 'https://example.com/1')
      await expect.poll(() => gated.started()).toBe(1)
      const busy = await refusal(runForUser(d, 'ada', 'https://example.com/2', { waitMs: 0 }))
      expect(busy.code).toBe('server_busy')
      expect(busy.retryAfterSec).toBeGreaterThan(0)
      expect(store.users.availableCredits('ada')).toBe(4) // only the running check holds one
      gated.open()
      expect((await first).remaining).toBe(4)
      expect(gated.started()).toBe(1)
    })

    it('another user is not held up by one user at its cap', async () => {
      await store.users.ensure('ada', 5)
      await store.users.ensure('bob', 5)
      const gated = gatedCheck()
      const capacity = new CheckCapacity({ maxConcurrent: 4, maxPerUser: 1 })
      const first = runForUser(deps({ check: gated.check, capacity }), 'ada', 'https://example.com/1')
      await expect.poll(() => gated.started()).toBe(1)
      const bob = await runForUser(deps({ capacity }), 'bob', 'https://example.org/')
      expect(bob.remaining).toBe(4)
      gated.open()
      await first
    })

    it('a run waits for a slot up to waitMs, and the slot is released when the run ends', async () => {
      await store.users.ensure('ada', 5)
      const gated = gatedCheck()
      const capacity = new CheckCapacity({ maxConcurrent: 1, maxPerUser: 1 })
      const first = runForUser(deps({ check: gated.check, capacity }), 'ada', 'https://example.com/1')
      await expect.poll(() => gated.started()).toBe(1)
      const second = runForUser(deps({ capacity }), 'ada', 'https://example.com/2', { waitMs: 5_000 })
      gated.open()
      await first
      expect((await second).check.url).toBe('https://example.com/2')
      expect(capacity.stats().inFlight).toBe(0)
    })

    it('a slot the caller already holds is used and released', async () => {
      await store.users.ensure('ada', 5)
      const capacity = new CheckCapacity({ maxConcurrent: 1, maxPerUser: 1 })
      const slot = await capacity.acquire('ada')
      await runForUser(deps({ capacity }), 'ada', 'https://example.com/', { slot })
      expect(capacity.stats().inFlight).toBe(0)
    })
  })

  describe('failure budget', () => {
    it('counts check_failed against the key and refuses with rate_limited once it is spent', async () => {
      await store.users.ensure('ada', 5)
      const budget = fakeBudget(2)
      const d = deps({
        check: async () => {
          throw new CheckError('check_failed', 'Connection refused.')
        },
      })
      for (let i = 0; i < 2; i++)
        expect((await refusal(runForUser(d, 'ada', 'https://example.com/', { budget }))).code).toBe(
          'check_failed',
        )
      const limited = await refusal(runForUser(d, 'ada', 'https://example.com/', { budget }))
      expect(limited.code).toBe('rate_limited')
      expect(limited.retryAfterSec).toBe(60)
      expect(limited.message).toMatch(/at most 2 per 3600 s/)
      expect(store.users.availableCredits('ada')).toBe(5)
    })

    it('successful checks and refused URLs do not spend the budget', async () => {
      await store.users.ensure('ada', 5)
      const budget = fakeBudget(1)
      await runForUser(deps(), 'ada', 'https://example.com/', { budget })
      await refusal(runForUser(deps(), 'ada', 'ftp://example.com/', { budget }))
      expect(budget.failures.retryAfterSec(budget.key)).toBe(0)
    })
  })

  it('a run in flight is listed in inFlight until it ends', async () => {
    await store.users.ensure('ada', 5)
    const gated = gatedCheck()
    const inFlight = new Set<Promise<unknown>>()
    const run = runForUser(deps({ check: gated.check }), 'ada', 'https://example.com/', { inFlight })
    await expect.poll(() => inFlight.size).toBe(1)
    gated.open()
    await run
    expect(inFlight.size).toBe(0)
  })
})
