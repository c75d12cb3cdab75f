/** Group commit of saved checks on the embedded store: concurrent commits share shard writes. */
import { afterEach, describe, expect, it } from 'vitest'
import { openLowdbStore, type LowdbStore } from '../../../src/store/index.js'
import { removeDir, sampleCheck, tempDir } from '../helpers.js'

let store: LowdbStore | undefined
let dir: string | undefined
afterEach(async () => {
  await store?.close()
  if (dir) await removeDir(dir)
  store = dir = undefined
})

describe('lowdb group commit', () => {
  it('saves 200 concurrent checks of one user in a few writes, each acknowledged once on disk', async () => {
    dir = await tempDir()
    store = await openLowdbStore(dir, { shardSize: 25 })
    await store.users.ensure('agency', 300)
    const reservations = await Promise.all(
      Array.from({ length: 200 }, () => store!.users.reserveCredit('agency')),
    )
    const before = store.stats.writes
    const saved = await Promise.all(
      reservations.map((r, i) => store!.checks.commit(r!, sampleCheck('agency', i))),
    )
    const writes = store.stats.writes - before
    // one write per shard touched per batch: 200 checks fill 8 shards of 25
    expect(writes).toBeLessThanOrEqual(20)
    expect(new Set(saved.map((s) => s.check.id)).size).toBe(200)
    expect(new Set(saved.map((s) => s.check.created_at)).size).toBe(200)
    expect(store.users.availableCredits('agency')).toBe(100)
    // all there after a reopen, in order
    await store.close()
    store = await openLowdbStore(dir, { shardSize: 25 })
    const seen: string[] = []
    let before2: string | undefined
    for (;;) {
      const page = await store.checks.list('agency', { limit: 50, before: before2 })
      seen.push(...page.items.map((c) => c.id))
      if (!page.next) break
      before2 = page.next
    }
    expect(seen).toHaveLength(200)
    expect((await store.users.get('agency'))?.credits_used).toBe(200)
    expect(store.users.availableCredits('agency')).toBe(100)
  })
})
