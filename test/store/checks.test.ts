import { readFile } from 'node:fs/promises'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  DEFAULT_SHARD_SIZE,
  openLowdbStore,
  type LowdbStore,
  type LowdbStoreOptions,
} from '../../src/store/index.js'
import type { CheckRecord } from '../../src/store/types.js'
import { importable, removeDir, sampleCheck, tempDir, walk } from './helpers.js'

let dir: string
let store: LowdbStore | undefined

beforeEach(async () => {
  dir = await tempDir()
})
afterEach(async () => {
  await store?.close()
  store = undefined
  await removeDir(dir)
})

async function open(opts?: LowdbStoreOptions): Promise<LowdbStore> {
  store = await openLowdbStore(dir, opts)
  return store
}

async function commit(s: LowdbStore, user: string, n: number): Promise<CheckRecord[]> {
  const out: CheckRecord[] = []
  for (let i = 0; i < n; i++) {
    expect(s.reserveCredit(user)).toBe(true)
    out.push((await s.commitCheck(sampleCheck(user, i))).check)
  }
  return out
}

async function pageAll(s: LowdbStore, user: string, limit: number) {
  const seen: string[] = []
  let before: string | undefined
  let pages = 0
  for (;;) {
    const { items, next } = await s.listChecks(user, { limit, before })
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

describe('checks', () => {
  it('assigns UUIDv7 ids and strictly increasing created_at, and strips internal fields', async () => {
    const s = await open()
    await s.ensureUser('alice', 100)
    const checks = await commit(s, 'alice', 20)
    for (const c of checks) {
      expect(c.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
      expect(parseInt(c.id.replace(/-/g, '').slice(0, 12), 16)).toBe(Date.parse(c.created_at))
      expect(Object.keys(c)).not.toContain('seq')
      expect(Object.keys(c)).not.toContain('imp')
    }
    for (let i = 1; i < checks.length; i++)
      expect(Date.parse(checks[i].created_at)).toBeGreaterThan(Date.parse(checks[i - 1].created_at))
    const got = await s.getCheck('alice', checks[3].id)
    expect(got).toEqual(checks[3])
    expect(await s.getCheck('alice', checks[3].id.toUpperCase())).toEqual(checks[3])
  })

  it("never returns another user's check", async () => {
    const s = await open()
    await s.ensureUser('alice', 10)
    await s.ensureUser('bob', 10)
    const [a] = await commit(s, 'alice', 1)
    await commit(s, 'bob', 1)
    expect(await s.getCheck('bob', a.id)).toBeUndefined()
    expect(await s.getCheck('carol', a.id)).toBeUndefined()
    expect(await s.getCheck('alice', '00000000-0000-4000-8000-000000000000')).toBeUndefined()
    expect(await s.getCheck('alice', 'not-a-uuid')).toBeUndefined()
    expect((await s.listChecks('bob', { limit: 10 })).items.map((c) => c.user_id)).toEqual(['bob'])
    expect(await s.listChecks('carol', { limit: 10 })).toEqual({ items: [], next: null })
  })

  for (const frozen of [false, true]) {
    it(`pages through 60 checks with limits 10/25/50 without gap or repeat${frozen ? ' (all in the same ms)' : ''}`, async () => {
      const t = Date.now()
      // small shards so pages cross shard boundaries
      const s = await open({ shardSize: 7, ...(frozen ? { now: () => t } : {}) })
      await s.ensureUser('alice', 100)
      const checks = await commit(s, 'alice', 60)
      const newestFirst = checks.map((c) => c.id).reverse()
      for (const limit of [10, 25, 50]) {
        const { seen, pages } = await pageAll(s, 'alice', limit)
        expect(seen).toEqual(newestFirst)
        expect(pages).toBe(Math.ceil(60 / limit))
      }
      // exact fit: the last page reports no next
      const { items, next } = await s.listChecks('alice', { limit: 10, before: checks[10].created_at })
      expect(items).toHaveLength(10)
      expect(next).toBeNull()
      // a cursor between checks and before the first
      expect((await s.listChecks('alice', { limit: 50, before: checks[0].created_at })).items).toEqual([])
      // survives a reopen (shards read back from disk)
      await s.close()
      const again = await open({ shardSize: 7, cachedShards: 1 })
      expect((await pageAll(again, 'alice', 25)).seen).toEqual(newestFirst)
      for (const c of checks) expect((await again.getCheck('alice', c.id))?.id).toBe(c.id)
    })
  }

  it('bounds every shard file (1000 checks, the default shard size)', async () => {
    const s = await open()
    await s.ensureUser('alice', 1000)
    await commit(s, 'alice', 1000)
    const shards = (await walk(dir)).filter((f) => f.path.includes('/checks/'))
    expect(shards.length).toBe(1000 / DEFAULT_SHARD_SIZE)
    for (const f of shards) {
      const doc = JSON.parse(await readFile(f.path, 'utf8')) as { checks: CheckRecord[] }
      expect(doc.checks.length).toBeLessThanOrEqual(DEFAULT_SHARD_SIZE)
    }
    expect(s.getUser('alice')).toMatchObject({ credits_used: 1000 })
  })

  it('writes a bounded number of bytes per commit, however many checks are stored', async () => {
    const s = await open({ shardSize: 200 })
    await s.ensureUser('alice', 10_000)
    await s.ensureUser('bob', 10_000)
    const costs: { writes: number; bytes: number }[] = []
    for (let i = 1; i <= 2010; i++) {
      const w0 = s.stats.writes
      const b0 = s.stats.bytesWritten
      s.reserveCredit('alice')
      await s.commitCheck(sampleCheck('alice', 0))
      costs.push({ writes: s.stats.writes - w0, bytes: s.stats.bytesWritten - b0 })
    }
    const perCheck = costs[0].bytes // the first commit writes a one-check shard
    // every commit is one file write: only the user's newest shard (users.json and keys.json untouched)
    for (const c of costs) expect(c.writes).toBe(1)
    // commit 2010 sits at the same place in its shard as commit 10: same cost
    const c10 = costs[9].bytes
    const c2010 = costs[2009].bytes
    expect(Math.abs(c2010 - c10)).toBeLessThanOrEqual(c10 * 0.02)
    // and no commit ever writes more than one full shard
    const max = Math.max(...costs.map((c) => c.bytes))
    expect(max).toBeLessThanOrEqual(perCheck * 200 * 1.05)
    expect(Math.max(...costs.slice(1800).map((c) => c.bytes))).toBeLessThanOrEqual(
      Math.max(...costs.slice(0, 200).map((c) => c.bytes)) * 1.02,
    )
    // a different user's commit does not depend on alice's history either
    const b0 = s.stats.bytesWritten
    s.reserveCredit('bob')
    await s.commitCheck(sampleCheck('bob', 0))
    expect(s.stats.bytesWritten - b0).toBeLessThanOrEqual(perCheck * 1.05)
  })

  it('importChecks: whole shards, balance unchanged, ordered after existing checks', async () => {
    const s = await open({ shardSize: 50 })
    await s.ensureUser('alice', 10)
    const [first] = await commit(s, 'alice', 1)
    const base = Date.parse(first.created_at)
    const n = 333
    // dates out of order and partly older than the existing check: sorted, then bumped after it
    const dates = Array.from({ length: n }, (_, i) => new Date(base - 100 + ((i * 7919) % n)))
    const w0 = s.stats.writes
    await s.importChecks(
      'alice',
      Array.from({ length: n }, (_, i) => importable('alice', i)),
      dates,
    )
    expect(s.stats.writes - w0).toBe(Math.ceil((n + 1) / 50))
    expect(s.getUser('alice')).toMatchObject({ credits_granted: 10 + n, credits_used: 1 + n })
    expect(s.availableCredits('alice')).toBe(9)
    const { seen } = await pageAll(s, 'alice', 50)
    expect(seen).toHaveLength(n + 1)
    expect(seen[seen.length - 1]).toBe(first.id)
    await s.close()
    const again = await open({ shardSize: 50 })
    expect(again.availableCredits('alice')).toBe(9)
    expect(again.getUser('alice')).toMatchObject({ credits_granted: 10 + n, credits_used: 1 + n })
    const [after] = await commit(again, 'alice', 1)
    expect((await again.listChecks('alice', { limit: 10 })).items[0].id).toBe(after.id)
    await expect(again.importChecks('alice', [importable('alice', 0)], [])).rejects.toThrow(RangeError)
  })

  it('seeds 100 000 checks across 5 users quickly', { timeout: 120_000 }, async () => {
    const s = await open()
    const users = ['u0', 'u1', 'u2', 'u3', 'u4']
    const per = 20_000
    const t0 = Date.now()
    await Promise.all(
      users.map(async (u) => {
        await s.ensureUser(u, 5)
        const start = Date.now() - 30 * 86_400_000
        await s.importChecks(
          u,
          Array.from({ length: per }, (_, i) => importable(u, i)),
          Array.from({ length: per }, (_, i) => new Date(start + i * 1000)),
        )
      }),
    )
    const seconds = (Date.now() - t0) / 1000
    expect(seconds).toBeLessThan(60)
    for (const u of users) expect(s.availableCredits(u)).toBe(5)
    await s.close()
    const t1 = Date.now()
    const again = await open()
    const openSeconds = (Date.now() - t1) / 1000
    expect(openSeconds).toBeLessThan(10)
    expect(again.getUser('u3')).toMatchObject({ credits_used: per })
    const { items, next } = await again.listChecks('u3', { limit: 50 })
    expect(items).toHaveLength(50)
    expect(next).not.toBeNull()
    console.log(`seeded 100000 checks in ${seconds.toFixed(1)} s; reopened in ${openSeconds.toFixed(2)} s`)
  })
})
