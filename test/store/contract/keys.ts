import { expect, it } from 'vitest'
import { isPromise } from '../../../src/store/awaitable.js'
import type { KeyRecord } from '../../../src/store/types.js'
import type { ContractContext } from './index.js'

export function key(id: string, hash: string, created_at: string, user_id = 'alice'): KeyRecord {
  return {
    id,
    name: `key ${id}`,
    user_id,
    prefix: 'shk_live_abc',
    hash,
    created_at,
    last_used_at: null,
    revoked_at: null,
  }
}

export function keysContract(t: ContractContext): void {
  it('creates, lists newest first, finds by hash, revokes once', async () => {
    const store = await t.open()
    await store.users.ensure('alice', 1)
    expect(await store.keys.list()).toEqual([])
    const k1 = key('k1', 'a'.repeat(64), '2026-01-01T00:00:00.000Z')
    expect(await store.keys.create(k1)).toEqual(k1)
    await store.keys.create(key('k2', 'b'.repeat(64), '2026-01-02T00:00:00.000Z'))
    await expect(store.keys.create(key('k1', 'c'.repeat(64), '2026-01-03T00:00:00.000Z'))).rejects.toThrow()
    await expect(store.keys.create(key('k3', 'a'.repeat(64), '2026-01-03T00:00:00.000Z'))).rejects.toThrow()
    expect((await store.keys.list()).map((k) => k.id)).toEqual(['k2', 'k1'])
    expect(await store.keys.findByHash('b'.repeat(64))).toEqual(
      key('k2', 'b'.repeat(64), '2026-01-02T00:00:00.000Z'),
    )
    expect(await store.keys.findByHash('f'.repeat(64))).toBeUndefined()
    expect(await store.keys.revoke('nope', '2026-02-01T00:00:00.000Z')).toBeUndefined()
    expect((await store.keys.revoke('k1', '2026-02-01T00:00:00.000Z'))?.revoked_at).toBe(
      '2026-02-01T00:00:00.000Z',
    )
    expect((await store.keys.revoke('k1', '2026-03-01T00:00:00.000Z'))?.revoked_at).toBe(
      '2026-02-01T00:00:00.000Z',
    )
    expect((await store.keys.findByHash('a'.repeat(64)))?.revoked_at).toBe('2026-02-01T00:00:00.000Z')
    expect((await store.keys.list()).find((k) => k.id === 'k1')?.revoked_at).toBe('2026-02-01T00:00:00.000Z')
  })

  it('answers a key it holds in memory at once, without a promise (the request hot path relies on it)', async () => {
    const store = await t.open()
    await store.users.ensure('alice', 1)
    const k1 = key('k1', 'a'.repeat(64), '2026-01-01T00:00:00.000Z')
    await store.keys.create(k1)
    expect(await store.keys.findByHash(k1.hash)).toEqual(k1) // PostgreSQL: the query fills the cache
    const again = store.keys.findByHash(k1.hash)
    expect(isPromise(again)).toBe(false)
    expect(again).toEqual(k1)
    const credits = store.users.availableCredits('alice')
    expect(isPromise(credits)).toBe(store.backend === 'postgres')
    expect(await credits).toBe(1) // awaited, so a slow pool can never leave an unhandled rejection
  })

  it('lists keys created at the same time by id, descending', async () => {
    const store = await t.open()
    await store.users.ensure('alice', 1)
    for (const id of ['k-b', 'k-c', 'k-a'])
      await store.keys.create(key(id, id.padEnd(64, '0'), '2026-01-01T00:00:00.000Z'))
    expect((await store.keys.list()).map((k) => k.id)).toEqual(['k-c', 'k-b', 'k-a'])
  })

  it('records key use (the newest wins) and keeps it across reopen', async () => {
    let store = await t.open()
    await store.users.ensure('alice', 1)
    await store.keys.create(key('k1', 'a'.repeat(64), '2026-01-01T00:00:00.000Z'))
    store.keys.touch('k1', '2026-01-05T00:00:00.000Z')
    store.keys.touch('k1', '2026-01-04T00:00:00.000Z') // older: ignored
    store.keys.touch('unknown', '2026-01-05T00:00:00.000Z')
    store = await t.reopen(store)
    expect((await store.keys.list())[0].last_used_at).toBe('2026-01-05T00:00:00.000Z')
    expect((await store.keys.findByHash('a'.repeat(64)))?.last_used_at).toBe('2026-01-05T00:00:00.000Z')
  })
}
