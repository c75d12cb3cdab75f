/**
 * The account's monitor quota (src/monitors/quota.ts, docs/monitoring.md#how-many-monitors): the
 * cap is a plan's max_monitors where one is set, else serve's default; the create rate refuses
 * past its count with the wait, and a create that then fails gives its place back.
 */
import { describe, expect, it } from 'vitest'
import {
  capFor,
  capReached,
  DEFAULT_CREATE_RATE,
  DEFAULT_MAX_MONITORS,
  MonitorQuota,
} from '../../src/monitors/quota.js'
import { DomainError } from '../../src/shared/domain-error.js'

describe('capFor', () => {
  it("is the plan's max_monitors when set, else serve's default (1000 unless told)", () => {
    expect(capFor({})).toBe(DEFAULT_MAX_MONITORS)
    expect(DEFAULT_MAX_MONITORS).toBe(1000)
    expect(capFor({}, 25)).toBe(25)
    expect(capFor({ max_monitors: null }, 25)).toBe(25)
    expect(capFor({ max_monitors: 5 }, 25)).toBe(5)
    expect(capFor({ max_monitors: 5000 }, 25)).toBe(5000)
  })

  it('is refused as a conflict naming the cap', () => {
    const err = capReached(7)
    expect(err).toBeInstanceOf(DomainError)
    expect(err.kind).toBe('conflict')
    expect(err.message).toContain('limit of 7 monitors')
  })
})

describe('MonitorQuota', () => {
  it('gives every account its cap from serve (no plans yet)', async () => {
    expect(await new MonitorQuota().capOf('alice')).toBe(DEFAULT_MAX_MONITORS)
    expect(await new MonitorQuota({ maxMonitorsPerAccount: 3 }).capOf('alice')).toBe(3)
  })

  it('lets an account create its rate a minute, then refuses with the wait; accounts apart', async () => {
    const q = new MonitorQuota({ createsPerMinute: 3 })
    for (let i = 0; i < 3; i++) await q.take('alice')
    const refused = await q.take('alice').catch((e: unknown) => e)
    expect(refused).toBeInstanceOf(DomainError)
    expect(refused).toMatchObject({ kind: 'rate_limited' })
    const wait = (refused as DomainError).retryAfterSec!
    expect(wait).toBeGreaterThanOrEqual(1)
    expect(wait).toBeLessThanOrEqual(60)
    expect((refused as DomainError).message).toContain('at most 3 a minute')
    await q.take('bob') // another account has its own count
    expect(new MonitorQuota().createsPerMinute).toBe(DEFAULT_CREATE_RATE)
  })

  it('counts monitors made: a create that fails after taking its place gives it back', async () => {
    const q = new MonitorQuota({ createsPerMinute: 2 })
    await q.take('alice')
    const giveBack = await q.take('alice')
    await giveBack()
    await q.take('alice')
    await expect(q.take('alice')).rejects.toMatchObject({ kind: 'rate_limited' })
  })
})
