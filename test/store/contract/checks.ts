import { expect, it } from 'vitest'
import { InsufficientCreditsError } from '../../../src/store/errors.js'
import type { CheckRecord, Store } from '../../../src/store/types.js'
import { importable, sampleCheck } from '../helpers.js'
import type { ContractContext } from './index.js'

const UUID7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

async function commit(s: Store, user: string, n: number): Promise<CheckRecord[]> {
  const out: CheckRecord[] = []
  for (let i = 0; i < n; i++) {
    const r = await s.users.reserveCredit(user)
    expect(r).toBeDefined()
    out.push((await s.checks.commit(r!, sampleCheck(user, i))).check)
  }
  return out
}

async function pageAll(s: Store, user: string, limit: number) {
  const seen: string[] = []
  let before: string | undefined
  let pages = 0
  for (;;) {
    const { items, next } = await s.checks.list(user, { limit, before })
    pages++
    expect(items.length).toBeLessThanOrEqual(limit)
    seen.push(...items.map((c) => c.id))
    if (next === null) break
    expect(items).toHaveLength(limit)
    expect(next).toBe(items[items.length - 1].created_at)
    before = next
  }
  return { seen, pages }
}

export function checksContract(t: ContractContext): void {
  it('assigns UUIDv7 ids and strictly increasing created_at, and returns exactly what was saved', async () => {
    const s = await t.open()
    await s.users.ensure('alice', 100)
    const checks = await commit(s, 'alice', 20)
    for (const [i, c] of checks.entries()) {
      expect(c.id).toMatch(UUID7)
      expect(parseInt(c.id.replace(/-/g, '').slice(0, 12), 16)).toBe(Date.parse(c.created_at))
      expect(c).toEqual({ ...sampleCheck('alice', i), id: c.id, created_at: c.created_at })
    }
    for (let i = 1; i < checks.length; i++)
      expect(Date.parse(checks[i].created_at)).toBeGreaterThan(Date.parse(checks[i - 1].created_at))
    expect(await s.checks.get('alice', checks[3].id)).toEqual(checks[3])
    expect(await s.checks.get('alice', checks[3].id.toUpperCase())).toEqual(checks[3])
    expect((await s.checks.list('alice', { limit: 10 })).items[0]).toEqual(checks[19])
  })

  it("never returns another user's check", async () => {
    const s = await t.open()
    await s.users.ensure('alice', 10)
    await s.users.ensure('bob', 10)
    const [a] = await commit(s, 'alice', 1)
    await commit(s, 'bob', 1)
    expect(await s.checks.get('bob', a.id)).toBeUndefined()
    expect(await s.checks.get('carol', a.id)).toBeUndefined()
    expect(await s.checks.get('alice', '00000000-0000-4000-8000-000000000000')).toBeUndefined()
    expect(await s.checks.get('alice', 'not-a-uuid')).toBeUndefined()
    expect((await s.checks.list('bob', { limit: 10 })).items.map((c) => c.user_id)).toEqual(['bob'])
    expect(await s.checks.list('carol', { limit: 10 })).toEqual({ items: [], next: null })
  })

  for (const frozen of [false, true]) {
    it(`pages through 60 checks with limits 10/25/50 without gap or repeat${frozen ? ' (all in the same ms)' : ''}`, async () => {
      const t0 = Date.now()
      const s = await t.open(frozen ? { now: () => t0 } : {})
      await s.users.ensure('alice', 100)
      const checks = await commit(s, 'alice', 60)
      const newestFirst = checks.map((c) => c.id).reverse()
      for (const limit of [10, 25, 50]) {
        const { seen, pages } = await pageAll(s, 'alice', limit)
        expect(seen).toEqual(newestFirst)
        expect(pages).toBe(Math.ceil(60 / limit))
      }
      // exact fit: the last page reports no next
      const { items, next } = await s.checks.list('alice', { limit: 10, before: checks[10].created_at })
      expect(items).toHaveLength(10)
      expect(next).toBeNull()
      expect((await s.checks.list('alice', { limit: 50, before: checks[0].created_at })).items).toEqual([])
      await expect(s.checks.list('alice', { limit: 0 })).rejects.toThrow(RangeError)
      await expect(s.checks.list('alice', { limit: 10, before: 'yesterday' })).rejects.toThrow(RangeError)
      const again = await t.reopen(s)
      expect((await pageAll(again, 'alice', 25)).seen).toEqual(newestFirst)
      for (const c of checks) expect((await again.checks.get('alice', c.id))?.id).toBe(c.id)
    })
  }

  it('concurrent commits of one user in the same millisecond get distinct, ordered created_at', async () => {
    const t0 = Date.now()
    const s = await t.open({ now: () => t0 })
    await s.users.ensure('alice', 30)
    const reservations = await Promise.all(Array.from({ length: 30 }, () => s.users.reserveCredit('alice')))
    const saved = await Promise.all(reservations.map((r, i) => s.checks.commit(r!, sampleCheck('alice', i))))
    const times = saved.map((x) => Date.parse(x.check.created_at)).sort((a, b) => a - b)
    expect(new Set(times).size).toBe(30)
    expect((await pageAll(s, 'alice', 10)).seen).toHaveLength(30)
    expect(saved.map((x) => x.remaining).sort((a, b) => a - b)[0]).toBe(0)
  })

  it('commits arriving together, one reservation given twice: the second use has no credit to charge', async () => {
    const s = await t.open()
    await s.users.ensure('alice', 20)
    const reservations = (
      await Promise.all(Array.from({ length: 20 }, () => s.users.reserveCredit('alice')))
    ).map((r) => r!)
    const results = await Promise.allSettled([
      ...reservations.map((r, i) => s.checks.commit(r, sampleCheck('alice', i))),
      s.checks.commit(reservations[7], sampleCheck('alice', 99)),
    ])
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(20)
    const refused = results.flatMap((r) => (r.status === 'rejected' ? [r.reason] : []))
    expect(refused).toHaveLength(1)
    expect(refused[0]).toBeInstanceOf(InsufficientCreditsError)
    expect(await s.users.get('alice')).toMatchObject({ credits_granted: 20, credits_used: 20 })
    expect((await s.checks.list('alice', { limit: 50 })).items).toHaveLength(20)
  })

  it('import: balance unchanged, ordered after existing checks, dates validated', async () => {
    let s = await t.open()
    await s.users.ensure('alice', 10)
    const [first] = await commit(s, 'alice', 1)
    const base = Date.parse(first.created_at)
    const n = 133
    // dates out of order and partly older than the existing check: sorted, then bumped after it
    const dates = Array.from({ length: n }, (_, i) => new Date(base - 100 + ((i * 7919) % n)))
    await s.checks.import(
      'alice',
      Array.from({ length: n }, (_, i) => importable('alice', i)),
      dates,
    )
    expect(await s.users.get('alice')).toMatchObject({ credits_granted: 10 + n, credits_used: 1 + n })
    expect(await s.users.availableCredits('alice')).toBe(9)
    const { seen } = await pageAll(s, 'alice', 50)
    expect(seen).toHaveLength(n + 1)
    expect(seen[seen.length - 1]).toBe(first.id)
    s = await t.reopen(s)
    expect(await s.users.availableCredits('alice')).toBe(9)
    expect(await s.users.get('alice')).toMatchObject({ credits_granted: 10 + n, credits_used: 1 + n })
    const [after] = await commit(s, 'alice', 1)
    expect((await s.checks.list('alice', { limit: 10 })).items[0].id).toBe(after.id)
    await expect(s.checks.import('alice', [importable('alice', 0)], [])).rejects.toThrow(RangeError)
    await expect(s.checks.import('alice', [importable('alice', 0)], [new Date(NaN)])).rejects.toThrow(
      RangeError,
    )
    expect(await s.users.get('alice')).toMatchObject({ credits_used: 2 + n })
    // without dates: the last one now, each earlier one a millisecond before
    await s.checks.import('bob', [importable('bob', 1), importable('bob', 2)])
    const bob = (await s.checks.list('bob', { limit: 10 })).items
    expect(bob.map((c) => c.health_score)).toEqual([2, 1])
    expect(await s.users.availableCredits('bob')).toBe(0)
  })

  it('stores any user id, including ones that look like paths', async () => {
    let s = await t.open()
    const ids = ['../../evil', '/etc/passwd', '..', 'a/b', 'x'.repeat(500), 'ünï', "o'hara; drop table", '']
    for (const id of ids) {
      await s.users.ensure(id, 1)
      const [c] = await commit(s, id, 1)
      expect((await s.checks.get(id, c.id))?.user_id).toBe(id)
    }
    s = await t.reopen(s)
    for (const id of ids) expect((await s.checks.list(id, { limit: 10 })).items, id).toHaveLength(1)
  })
}
