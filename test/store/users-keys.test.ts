import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { DataDirLockedError, openStore, type KeyRecord, type Store } from '../../src/store/index.js'
import { removeDir, sampleCheck, tempDir, walk } from './helpers.js'

let dir: string
let store: Store | undefined

beforeEach(async () => {
  dir = await tempDir()
})
afterEach(async () => {
  await store?.close()
  store = undefined
  await removeDir(dir)
})

function key(id: string, hash: string, created_at: string, user_id = 'alice'): KeyRecord {
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

describe('users and credits', () => {
  it('creates users once, grants, and reports the balance', async () => {
    store = await openStore(dir)
    expect(store.getUser('alice')).toBeUndefined()
    expect(store.availableCredits('alice')).toBe(0)
    const u = await store.ensureUser('alice', 5)
    expect(u).toMatchObject({ id: 'alice', credits_granted: 5, credits_used: 0 })
    expect(Date.parse(u.created_at)).not.toBeNaN()
    // a second ensureUser does not reset or add
    expect(await store.ensureUser('alice', 100)).toMatchObject({ credits_granted: 5 })
    expect(await store.grantCredits('alice', 7)).toMatchObject({ credits_granted: 12, credits_used: 0 })
    expect(store.availableCredits('alice')).toBe(12)
    // granting to an unknown user creates it
    expect(await store.grantCredits('bob', 3)).toMatchObject({ id: 'bob', credits_granted: 3 })
    await expect(store.grantCredits('bob', -1)).rejects.toThrow(RangeError)
    await expect(store.grantCredits('bob', 1.5)).rejects.toThrow(RangeError)
  })

  it('reserve / release / commit arithmetic', async () => {
    store = await openStore(dir)
    await store.ensureUser('alice', 3)
    expect(store.reserveCredit('alice')).toBe(true)
    expect(store.reserveCredit('alice')).toBe(true)
    expect(store.availableCredits('alice')).toBe(1)
    store.releaseCredit('alice')
    expect(store.availableCredits('alice')).toBe(2)
    const { check, remaining } = await store.commitCheck(sampleCheck('alice'))
    expect(remaining).toBe(2)
    expect(store.availableCredits('alice')).toBe(2)
    expect(store.getUser('alice')).toMatchObject({ credits_granted: 3, credits_used: 1 })
    expect(check.user_id).toBe('alice')
    // releasing more than reserved never adds credit
    store.releaseCredit('alice')
    store.releaseCredit('alice')
    expect(store.availableCredits('alice')).toBe(2)
    expect(store.reserveCredit('alice')).toBe(true)
    expect(store.reserveCredit('alice')).toBe(true)
    expect(store.reserveCredit('alice')).toBe(false)
    expect(store.availableCredits('alice')).toBe(0)
    await store.commitCheck(sampleCheck('alice'))
    await store.commitCheck(sampleCheck('alice'))
    expect(store.getUser('alice')).toMatchObject({ credits_granted: 3, credits_used: 3 })
    expect(store.availableCredits('alice')).toBe(0)
    // a commit without reservation and without credit is refused
    await expect(store.commitCheck(sampleCheck('alice'))).rejects.toThrow(/no credit/)
    await store.grantCredits('alice', 1)
    expect(store.availableCredits('alice')).toBe(1)
    expect(store.reserveCredit('nobody')).toBe(false)
  })

  it('50 concurrent reservations against 10 credits: exactly 10 succeed, and commits stay within them', async () => {
    store = await openStore(dir)
    await store.ensureUser('alice', 10)
    const s = store
    const results = await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        await new Promise((r) => setTimeout(r, i % 7))
        if (!s.reserveCredit('alice')) return false
        await s.commitCheck(sampleCheck('alice', i))
        return true
      }),
    )
    expect(results.filter(Boolean)).toHaveLength(10)
    expect(store.availableCredits('alice')).toBe(0)
    expect(store.getUser('alice')).toMatchObject({ credits_used: 10 })
  })
})

describe('keys', () => {
  it('creates, lists newest first, finds by hash, revokes once', async () => {
    store = await openStore(dir)
    await store.createKey(key('k1', 'a'.repeat(64), '2026-01-01T00:00:00.000Z'))
    await store.createKey(key('k2', 'b'.repeat(64), '2026-01-02T00:00:00.000Z'))
    await expect(store.createKey(key('k1', 'c'.repeat(64), '2026-01-03T00:00:00.000Z'))).rejects.toThrow()
    await expect(store.createKey(key('k3', 'a'.repeat(64), '2026-01-03T00:00:00.000Z'))).rejects.toThrow()
    expect(store.listKeys().map((k) => k.id)).toEqual(['k2', 'k1'])
    expect(store.findKeyByHash('b'.repeat(64))?.id).toBe('k2')
    expect(store.findKeyByHash('f'.repeat(64))).toBeUndefined()
    expect(await store.revokeKey('nope', '2026-02-01T00:00:00.000Z')).toBeUndefined()
    expect((await store.revokeKey('k1', '2026-02-01T00:00:00.000Z'))?.revoked_at).toBe(
      '2026-02-01T00:00:00.000Z',
    )
    expect((await store.revokeKey('k1', '2026-03-01T00:00:00.000Z'))?.revoked_at).toBe(
      '2026-02-01T00:00:00.000Z',
    )
    expect(store.findKeyByHash('a'.repeat(64))?.revoked_at).toBe('2026-02-01T00:00:00.000Z')
  })

  it('touchKey is visible at once and written on close, not on every call', async () => {
    store = await openStore(dir)
    await store.createKey(key('k1', 'a'.repeat(64), '2026-01-01T00:00:00.000Z'))
    const before = await readFile(join(dir, 'keys.json'), 'utf8')
    store.touchKey('k1', '2026-01-05T00:00:00.000Z')
    store.touchKey('k1', '2026-01-04T00:00:00.000Z') // older: ignored
    store.touchKey('unknown', '2026-01-05T00:00:00.000Z')
    expect(store.findKeyByHash('a'.repeat(64))?.last_used_at).toBe('2026-01-05T00:00:00.000Z')
    expect(await readFile(join(dir, 'keys.json'), 'utf8')).toBe(before)
    await store.close()
    store = await openStore(dir)
    expect(store.listKeys()[0].last_used_at).toBe('2026-01-05T00:00:00.000Z')
  })
})

describe('persistence and files', () => {
  it('keeps everything across close and reopen', async () => {
    store = await openStore(dir)
    await store.ensureUser('alice', 10)
    await store.grantCredits('alice', 5)
    await store.createKey(key('k1', 'a'.repeat(64), '2026-01-01T00:00:00.000Z'))
    await store.revokeKey('k1', '2026-01-02T00:00:00.000Z')
    const ids: string[] = []
    for (let i = 0; i < 5; i++) {
      expect(store.reserveCredit('alice')).toBe(true)
      ids.push((await store.commitCheck(sampleCheck('alice', i))).check.id)
    }
    expect(store.reserveCredit('alice')).toBe(true) // reservations are not persisted
    await store.close()

    store = await openStore(dir)
    expect(store.getUser('alice')).toMatchObject({ credits_granted: 15, credits_used: 5 })
    expect(store.availableCredits('alice')).toBe(10)
    expect(store.listKeys()).toHaveLength(1)
    expect(store.findKeyByHash('a'.repeat(64))?.revoked_at).toBe('2026-01-02T00:00:00.000Z')
    for (const id of ids) expect((await store.getCheck('alice', id))?.id).toBe(id)
    const { items } = await store.listChecks('alice', { limit: 10 })
    expect(items.map((c) => c.id)).toEqual([...ids].reverse())
  })

  it('creates the data dir 0700 and every file 0600, never storing a secret', async () => {
    const data = join(dir, 'nested', 'data')
    store = await openStore(data)
    await store.ensureUser('alice', 2)
    await store.createKey(key('k1', 'a'.repeat(64), '2026-01-01T00:00:00.000Z'))
    store.reserveCredit('alice')
    await store.commitCheck(sampleCheck('alice'))
    const { stat } = await import('node:fs/promises')
    expect((await stat(data)).mode & 0o777).toBe(0o700)
    expect((await stat(join(data, 'checks'))).mode & 0o777).toBe(0o700)
    const files = await walk(data)
    expect(files.map((f) => f.path.slice(data.length + 1)).sort()).toEqual(
      expect.arrayContaining(['keys.json', 'users.json', 'sitehealth.lock']),
    )
    expect(files.some((f) => f.path.includes(`${join('checks', 'u')}`))).toBe(true)
    for (const f of files) expect(f.mode, f.path).toBe(0o600)
  })

  it('refuses a second open in the same process and reopens after close', async () => {
    store = await openStore(dir)
    await expect(openStore(dir)).rejects.toBeInstanceOf(DataDirLockedError)
    await store.close()
    store = await openStore(dir)
  })

  it('user ids cannot escape the data dir', async () => {
    store = await openStore(dir)
    for (const id of ['../../evil', '/etc/passwd', '..', 'a/b', 'x'.repeat(500), 'ünï', '']) {
      await store.ensureUser(id, 1)
      expect(store.reserveCredit(id)).toBe(true)
      const { check } = await store.commitCheck(sampleCheck(id))
      expect((await store.getCheck(id, check.id))?.user_id).toBe(id)
    }
    const files = await walk(dir)
    for (const f of files) expect(f.path.startsWith(dir)).toBe(true)
    await store.close()
    store = await openStore(dir)
    expect((await store.listChecks('../../evil', { limit: 10 })).items).toHaveLength(1)
    expect((await store.listChecks('x'.repeat(500), { limit: 10 })).items).toHaveLength(1)
  })
})
