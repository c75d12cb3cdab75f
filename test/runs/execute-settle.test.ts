/**
 * The two halves of a run apart: `execute` makes a check with no store at all (as a remote
 * executor would), and `reserve` / `settle` pay for what was run, wherever it ran.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { CheckCapacity } from '../../src/capacity/index.js'
import { CheckError } from '../../src/checks/errors.js'
import { execute, FailureBudget, reserve, RunRefused, settle } from '../../src/runs/index.js'
import { openLowdbStore, type LowdbStore } from '../../src/store/index.js'
import { fakeReport } from '../helpers/report.js'
import { removeDir, tempDir } from '../store/helpers.js'

const executor = (capacity = new CheckCapacity({ maxConcurrent: 2, maxPerUser: 1 })) => ({
  capacity,
  allowPrivateTargets: false,
  checkTimeoutMs: 15_000,
  check: async (url: string) => fakeReport(url),
})

describe('execute', () => {
  it('runs the check in a slot with no store, and frees the slot', async () => {
    const deps = executor()
    const report = await execute(deps, 'ada', 'https://example.com/')
    expect(report.url).toBe('https://example.com/')
    expect(deps.capacity.stats().inFlight).toBe(0)
  })

  it('refuses a private target before the engine runs', async () => {
    let ran = 0
    const deps = { ...executor(), check: async (url: string) => (ran++, fakeReport(url)) }
    await expect(execute(deps, 'ada', 'http://10.0.0.1/')).rejects.toMatchObject({ code: 'invalid_url' })
    expect(ran).toBe(0)
  })

  it('an engine failure refuses as check_failed', async () => {
    const deps = {
      ...executor(),
      check: async () => {
        throw new CheckError('check_failed', 'Could not resolve example.com.')
      },
    }
    await expect(execute(deps, 'ada', 'https://example.com/')).rejects.toMatchObject({ code: 'check_failed' })
  })

  it('refuses with server_busy when no slot is free in time', async () => {
    const deps = executor(new CheckCapacity({ maxConcurrent: 1, maxPerUser: 1 }))
    const slot = await deps.capacity.acquire('ada')
    await expect(execute(deps, 'ada', 'https://example.com/')).rejects.toMatchObject({
      code: 'server_busy',
    })
    slot.release()
  })
})

describe('reserve and settle', () => {
  let dir: string
  let store: LowdbStore
  beforeEach(async () => {
    dir = await tempDir()
    store = await openLowdbStore(dir)
    await store.users.ensure('ada', 2)
  })
  afterEach(async () => {
    await store.close()
    await removeDir(dir)
  })

  it('a run made elsewhere is saved with its charge', async () => {
    const ticket = await reserve({ store }, 'ada')
    const report = await execute(executor(), 'ada', 'https://example.com/')
    const { check, remaining } = await settle({ store }, ticket, { report })
    expect(remaining).toBe(1)
    expect((await store.checks.get('ada', check.id))?.url).toBe('https://example.com/')
  })

  it('a run that reached its target with no check is charged one credit and saves nothing', async () => {
    const ticket = await reserve({ store }, 'ada')
    expect(await settle({ store }, ticket, { reached: true })).toEqual({ remaining: 1 })
    expect(await store.users.get('ada')).toMatchObject({ credits_used: 1 })
    expect((await store.checks.list('ada', { limit: 5 })).items).toEqual([])
  })

  it('a failed run gives the credit back, is thrown on, and counts against the failure budget', async () => {
    const budget = { failures: new FailureBudget({ limit: 1, windowMs: 60_000 }), key: 'k' }
    const ticket = await reserve({ store }, 'ada', budget)
    const error = new RunRefused('check_failed', 'Connection refused.')
    await expect(settle({ store }, ticket, { error })).rejects.toBe(error)
    expect(store.users.availableCredits('ada')).toBe(2)
    await expect(reserve({ store }, 'ada', budget)).rejects.toMatchObject({ code: 'rate_limited' })
  })

  it('refuses a user with no credit left', async () => {
    await settle({ store }, await reserve({ store }, 'ada'), { reached: true })
    await settle({ store }, await reserve({ store }, 'ada'), { reached: true })
    await expect(reserve({ store }, 'ada')).rejects.toMatchObject({ code: 'insufficient_credits' })
  })
})
