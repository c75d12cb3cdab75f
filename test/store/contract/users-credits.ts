import { expect, it } from 'vitest'
import { InsufficientCreditsError } from '../../../src/store/errors.js'
import type { Store } from '../../../src/store/types.js'
import { sampleCheck } from '../helpers.js'
import type { ContractContext } from './index.js'

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

async function commitOne(store: Store, user: string, n = 0) {
  const r = await store.users.reserveCredit(user)
  expect(r, 'a credit to reserve').toBeDefined()
  return store.checks.commit(r!, sampleCheck(user, n))
}

export function usersContract(t: ContractContext): void {
  it('creates users once, grants, and reports the balance', async () => {
    const store = await t.open()
    expect(await store.users.get('alice')).toBeUndefined()
    expect(await store.users.availableCredits('alice')).toBe(0)
    const u = await store.users.ensure('alice', 5)
    expect(u).toMatchObject({ id: 'alice', credits_granted: 5, credits_used: 0 })
    expect(Date.parse(u.created_at)).not.toBeNaN()
    // a second ensure does not reset or add
    expect(await store.users.ensure('alice', 100)).toMatchObject({ credits_granted: 5 })
    expect(await store.users.grantCredits('alice', 7)).toMatchObject({ credits_granted: 12, credits_used: 0 })
    expect(await store.users.availableCredits('alice')).toBe(12)
    // granting to an unknown user creates it
    expect(await store.users.grantCredits('bob', 3)).toMatchObject({ id: 'bob', credits_granted: 3 })
    await expect(store.users.grantCredits('bob', -1)).rejects.toThrow(RangeError)
    await expect(store.users.grantCredits('bob', 1.5)).rejects.toThrow(RangeError)
    await expect(store.users.ensure('carol', -1)).rejects.toThrow(RangeError)
    expect(await store.users.get('carol')).toBeUndefined()
    expect(await store.users.availableCredits('bob')).toBe(3)
  })

  it('reserve / release / commit arithmetic', async () => {
    const store = await t.open()
    await store.users.ensure('alice', 3)
    const r1 = await store.users.reserveCredit('alice')
    const r2 = await store.users.reserveCredit('alice')
    expect(r1?.user_id).toBe('alice')
    expect(r1?.id).not.toBe(r2?.id)
    expect(r1!.expires_at).toBeGreaterThan(Date.now())
    expect(await store.users.availableCredits('alice')).toBe(1)
    await store.users.releaseCredit(r2!)
    expect(await store.users.availableCredits('alice')).toBe(2)
    const { check, remaining } = await store.checks.commit(r1!, sampleCheck('alice'))
    expect(remaining).toBe(2)
    expect(await store.users.availableCredits('alice')).toBe(2)
    expect(await store.users.get('alice')).toMatchObject({ credits_granted: 3, credits_used: 1 })
    expect(check.user_id).toBe('alice')
    // releasing twice, or a committed reservation, never adds credit
    await store.users.releaseCredit(r2!)
    await store.users.releaseCredit(r1!)
    expect(await store.users.availableCredits('alice')).toBe(2)
    const r3 = await store.users.reserveCredit('alice')
    const r4 = await store.users.reserveCredit('alice')
    expect(await store.users.reserveCredit('alice')).toBeUndefined()
    expect(await store.users.availableCredits('alice')).toBe(0)
    await store.checks.commit(r3!, sampleCheck('alice'))
    await store.checks.commit(r4!, sampleCheck('alice'))
    expect(await store.users.get('alice')).toMatchObject({ credits_granted: 3, credits_used: 3 })
    expect(await store.users.availableCredits('alice')).toBe(0)
    // a reservation used twice does not charge twice without credit
    await expect(store.checks.commit(r4!, sampleCheck('alice'))).rejects.toBeInstanceOf(
      InsufficientCreditsError,
    )
    expect(await store.users.get('alice')).toMatchObject({ credits_used: 3 })
    await store.users.grantCredits('alice', 1)
    expect(await store.users.availableCredits('alice')).toBe(1)
    expect(await store.users.reserveCredit('nobody')).toBeUndefined()
  })

  it('50 concurrent reservations against 10 credits: exactly 10 succeed, and commits stay within them', async () => {
    const store = await t.open()
    await store.users.ensure('alice', 10)
    const results = await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        await sleep(i % 7)
        const r = await store.users.reserveCredit('alice')
        if (!r) return false
        await store.checks.commit(r, sampleCheck('alice', i))
        return true
      }),
    )
    expect(results.filter(Boolean)).toHaveLength(10)
    expect(await store.users.availableCredits('alice')).toBe(0)
    expect(await store.users.get('alice')).toMatchObject({ credits_used: 10 })
    expect((await store.checks.list('alice', { limit: 50 })).items).toHaveLength(10)
  })

  it('commits and reservations arriving all at once: each charged once, none overspent, every check kept', async () => {
    const store = await t.open()
    await store.users.ensure('alice', 30)
    // 40 asked at once against 30 credits: exactly 30 reserved
    const got = await Promise.all(Array.from({ length: 40 }, () => store.users.reserveCredit('alice')))
    const reservations = got.filter((r) => r !== undefined)
    expect(reservations).toHaveLength(30)
    expect(new Set(reservations.map((r) => r.id)).size).toBe(30)
    expect(await store.users.availableCredits('alice')).toBe(0)
    // all 30 committed at once
    const saved = await Promise.all(
      reservations.map((r, i) => store.checks.commit(r, sampleCheck('alice', i))),
    )
    expect(new Set(saved.map((s) => s.check.id)).size).toBe(30)
    expect(new Set(saved.map((s) => s.check.created_at)).size).toBe(30)
    for (const s of saved) expect(s.remaining).toBe(0)
    expect(await store.users.get('alice')).toMatchObject({ credits_granted: 30, credits_used: 30 })
    const listed = (await store.checks.list('alice', { limit: 100 })).items
    expect(listed.map((c) => c.id).sort()).toEqual(saved.map((s) => s.check.id).sort())
    const one = saved[12].check
    expect(await store.checks.get('alice', one.id)).toEqual(one)
  })

  it('charges a reservation with no check saved, once, durably', async () => {
    let store = await t.open()
    await store.users.ensure('alice', 3)
    const r1 = await store.users.reserveCredit('alice')
    const r2 = await store.users.reserveCredit('alice')
    expect(await store.users.availableCredits('alice')).toBe(1)
    expect(await store.users.chargeCredit(r1!)).toEqual({ remaining: 1 })
    expect(await store.users.get('alice')).toMatchObject({ credits_granted: 3, credits_used: 1 })
    expect((await store.checks.list('alice', { limit: 10 })).items).toEqual([])
    // charged already: releasing it returns nothing, charging it again takes a free credit
    await store.users.releaseCredit(r1!)
    expect(await store.users.availableCredits('alice')).toBe(1)
    expect(await store.users.chargeCredit(r1!)).toEqual({ remaining: 0 })
    await expect(store.users.chargeCredit(r1!)).rejects.toBeInstanceOf(InsufficientCreditsError)
    // a charge and a check commit count alike, and both outlive a reopen
    await store.checks.commit(r2!, sampleCheck('alice'))
    store = await t.reopen(store)
    expect(await store.users.get('alice')).toMatchObject({ credits_granted: 3, credits_used: 3 })
    expect(await store.users.availableCredits('alice')).toBe(0)
    await store.users.grantCredits('alice', 2)
    const concurrent = await Promise.all(
      [1, 2, 3].map(async () => {
        const r = await store.users.reserveCredit('alice')
        return r ? store.users.chargeCredit(r).then(() => true) : false
      }),
    )
    expect(concurrent.filter(Boolean)).toHaveLength(2)
    expect(await store.users.get('alice')).toMatchObject({ credits_granted: 5, credits_used: 5 })
  })

  it('a reservation that is never ended returns its credit when its lease runs out', async () => {
    const store = await t.open({ leaseMs: 300 })
    await store.users.ensure('alice', 2)
    const r1 = await store.users.reserveCredit('alice')
    const r2 = await store.users.reserveCredit('alice')
    expect(r2!.expires_at - Date.now()).toBeLessThanOrEqual(300 + 50)
    expect(await store.users.reserveCredit('alice')).toBeUndefined()
    await sleep(450)
    expect(await store.users.availableCredits('alice')).toBe(2)
    // an expired reservation still commits while a credit is available (it charges that one)...
    const { remaining } = await store.checks.commit(r1!, sampleCheck('alice'))
    expect(remaining).toBe(1)
    // ...and is refused when none is, charging nothing
    const r3 = await store.users.reserveCredit('alice')
    expect(r3).toBeDefined()
    await expect(store.checks.commit(r2!, sampleCheck('alice'))).rejects.toBeInstanceOf(
      InsufficientCreditsError,
    )
    expect(await store.users.get('alice')).toMatchObject({ credits_granted: 2, credits_used: 1 })
    await store.checks.commit(r3!, sampleCheck('alice'))
    expect(await store.users.get('alice')).toMatchObject({ credits_used: 2 })
    expect(await store.users.availableCredits('alice')).toBe(0)
  })

  it('keeps users, balances, keys and checks across close and reopen', async () => {
    let store = await t.open()
    await store.users.ensure('alice', 10)
    await store.users.grantCredits('alice', 5)
    await store.keys.create({
      id: 'k1',
      name: 'key one',
      user_id: 'alice',
      prefix: 'shk_live_abc',
      hash: 'a'.repeat(64),
      created_at: '2026-01-01T00:00:00.000Z',
      last_used_at: null,
      revoked_at: null,
    })
    await store.keys.revoke('k1', '2026-01-02T00:00:00.000Z')
    const ids: string[] = []
    for (let i = 0; i < 5; i++) ids.push((await commitOne(store, 'alice', i)).check.id)
    const open = await store.users.reserveCredit('alice')
    expect(open).toBeDefined()
    await store.users.releaseCredit(open!)
    store = await t.reopen(store)
    expect(await store.users.get('alice')).toMatchObject({ credits_granted: 15, credits_used: 5 })
    expect(await store.users.availableCredits('alice')).toBe(10)
    expect(await store.keys.list()).toHaveLength(1)
    expect((await store.keys.findByHash('a'.repeat(64)))?.revoked_at).toBe('2026-01-02T00:00:00.000Z')
    for (const id of ids) expect((await store.checks.get('alice', id))?.id).toBe(id)
    const { items } = await store.checks.list('alice', { limit: 10 })
    expect(items.map((c) => c.id)).toEqual([...ids].reverse())
  })
}
