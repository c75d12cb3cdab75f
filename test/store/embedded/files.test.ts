/**
 * What only the embedded backend has: its file layout (bounded shards, bounded bytes per write,
 * whole-shard imports), lazy key-use writes, file modes, the in-process data-dir lock, and paths.
 * The behaviour every backend shares is in ../contract/.
 */
import { readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  DEFAULT_SHARD_SIZE,
  DataDirLockedError,
  openLowdbStore,
  openStore,
  type LowdbStore,
  type LowdbStoreOptions,
} from '../../../src/store/index.js'
import type { CheckRecord, Store } from '../../../src/store/types.js'
import { key } from '../contract/keys.js'
import { importable, removeDir, sampleCheck, tempDir, walk } from '../helpers.js'

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

async function open(opts?: LowdbStoreOptions): Promise<LowdbStore> {
  const s = await openLowdbStore(dir, opts)
  store = s
  return s
}

async function commitOne(s: Store, user: string, n = 0) {
  const r = await s.users.reserveCredit(user)
  expect(r).toBeDefined()
  return s.checks.commit(r!, sampleCheck(user, n))
}

describe('lowdb files', () => {
  it('bounds every shard file (1000 checks, the default shard size)', async () => {
    const s = await open()
    await s.users.ensure('alice', 1000)
    for (let i = 0; i < 1000; i++) await commitOne(s, 'alice', i)
    const shards = (await walk(dir)).filter((f) => f.path.includes('/checks/'))
    expect(shards.length).toBe(1000 / DEFAULT_SHARD_SIZE)
    for (const f of shards) {
      const doc = JSON.parse(await readFile(f.path, 'utf8')) as { checks: CheckRecord[] }
      expect(doc.checks.length).toBeLessThanOrEqual(DEFAULT_SHARD_SIZE)
    }
    expect(await s.users.get('alice')).toMatchObject({ credits_used: 1000 })
  })

  it(
    'writes a bounded number of bytes per commit, however many checks are stored',
    { timeout: 120_000 },
    async () => {
      const s = await open({ shardSize: 200 })
      await s.users.ensure('alice', 10_000)
      await s.users.ensure('bob', 10_000)
      const costs: { writes: number; bytes: number }[] = []
      for (let i = 1; i <= 2010; i++) {
        const r = await s.users.reserveCredit('alice')
        const w0 = s.stats.writes
        const b0 = s.stats.bytesWritten
        await s.checks.commit(r!, sampleCheck('alice', 0))
        costs.push({ writes: s.stats.writes - w0, bytes: s.stats.bytesWritten - b0 })
      }
      const perCheck = costs[0].bytes // the first commit writes a one-check shard
      // every commit is one file write: only the user's newest shard (users.json and keys.json untouched)
      for (const c of costs) expect(c.writes).toBe(1)
      // commit 2010 sits at the same place in its shard as commit 10: same cost
      const c10 = costs[9].bytes
      const c2010 = costs[2009].bytes
      expect(Math.abs(c2010 - c10)).toBeLessThanOrEqual(c10 * 0.02)
      const max = Math.max(...costs.map((c) => c.bytes))
      expect(max).toBeLessThanOrEqual(perCheck * 200 * 1.05)
      expect(Math.max(...costs.slice(1800).map((c) => c.bytes))).toBeLessThanOrEqual(
        Math.max(...costs.slice(0, 200).map((c) => c.bytes)) * 1.02,
      )
      // a different user's commit does not depend on alice's history either
      const r = await s.users.reserveCredit('bob')
      const b0 = s.stats.bytesWritten
      await s.checks.commit(r!, sampleCheck('bob', 0))
      expect(s.stats.bytesWritten - b0).toBeLessThanOrEqual(perCheck * 1.05)
    },
  )

  it('imports whole shards at a time', async () => {
    const s = await open({ shardSize: 50 })
    await s.users.ensure('alice', 10)
    await commitOne(s, 'alice')
    const n = 333
    const w0 = s.stats.writes
    await s.checks.import(
      'alice',
      Array.from({ length: n }, (_, i) => importable('alice', i)),
    )
    expect(s.stats.writes - w0).toBe(Math.ceil((n + 1) / 50))
  })

  it('seeds 100 000 checks across 5 users quickly', { timeout: 120_000 }, async () => {
    const s = await open()
    const users = ['u0', 'u1', 'u2', 'u3', 'u4']
    const per = 20_000
    const t0 = Date.now()
    await Promise.all(
      users.map(async (u) => {
        await s.users.ensure(u, 5)
        const start = Date.now() - 30 * 86_400_000
        await s.checks.import(
          u,
          Array.from({ length: per }, (_, i) => importable(u, i)),
          Array.from({ length: per }, (_, i) => new Date(start + i * 1000)),
        )
      }),
    )
    const seconds = (Date.now() - t0) / 1000
    expect(seconds).toBeLessThan(60)
    for (const u of users) expect(s.users.availableCredits(u)).toBe(5)
    await s.close()
    const t1 = Date.now()
    const again = await open()
    const openSeconds = (Date.now() - t1) / 1000
    expect(openSeconds).toBeLessThan(10)
    expect(await again.users.get('u3')).toMatchObject({ credits_used: per })
    const { items, next } = await again.checks.list('u3', { limit: 50 })
    expect(items).toHaveLength(50)
    expect(next).not.toBeNull()
    console.log(`seeded 100000 checks in ${seconds.toFixed(1)} s; reopened in ${openSeconds.toFixed(2)} s`)
  })

  it('key use is visible at once and written on close, not on every call', async () => {
    const s = await open()
    await s.keys.create(key('k1', 'a'.repeat(64), '2026-01-01T00:00:00.000Z'))
    const before = await readFile(join(dir, 'keys.json'), 'utf8')
    s.keys.touch('k1', '2026-01-05T00:00:00.000Z')
    expect(s.keys.findByHash('a'.repeat(64))?.last_used_at).toBe('2026-01-05T00:00:00.000Z')
    expect(await readFile(join(dir, 'keys.json'), 'utf8')).toBe(before)
    await s.close()
    expect(await readFile(join(dir, 'keys.json'), 'utf8')).toContain('2026-01-05T00:00:00.000Z')
  })

  it('creates the data dir 0700 and every file 0600, never storing a secret', async () => {
    const data = join(dir, 'nested', 'data')
    store = await openStore(data)
    await store.users.ensure('alice', 2)
    await store.keys.create(key('k1', 'a'.repeat(64), '2026-01-01T00:00:00.000Z'))
    await commitOne(store, 'alice')
    expect((await stat(data)).mode & 0o777).toBe(0o700)
    expect((await stat(join(data, 'checks'))).mode & 0o777).toBe(0o700)
    const files = await walk(data)
    expect(files.map((f) => f.path.slice(data.length + 1)).sort()).toEqual(
      expect.arrayContaining(['keys.json', 'users.json', 'sitehealth.lock']),
    )
    expect(files.some((f) => f.path.includes(`${join('checks', 'u')}`))).toBe(true)
    for (const f of files) expect(f.mode, f.path).toBe(0o600)
  })

  it('reads a data dir written before the storage split (on-disk format unchanged)', async () => {
    // users.json, keys.json and a shard exactly as the first stage wrote them
    const { mkdir, writeFile } = await import('node:fs/promises')
    const { userDirName } = await import('../../../src/store/embedded/shards.js')
    await writeFile(
      join(dir, 'users.json'),
      JSON.stringify({
        version: 1,
        users: [{ id: 'alice', credits_granted: 10, created_at: '2026-01-01T00:00:00.000Z' }],
      }),
    )
    await writeFile(
      join(dir, 'keys.json'),
      JSON.stringify({ version: 1, keys: [key('k1', 'a'.repeat(64), '2026-01-01T00:00:00.000Z')] }),
    )
    const c = {
      ...sampleCheck('alice'),
      id: '019b0000-0000-7000-8000-000000000001',
      created_at: new Date(0x019b00000000).toISOString(),
      seq: 1,
      imp: 0,
    }
    await mkdir(join(dir, 'checks', userDirName('alice')), { recursive: true })
    await writeFile(
      join(dir, 'checks', userDirName('alice'), `${0x019b00000000}.json`),
      JSON.stringify({ user_id: 'alice', checks: [c] }),
    )
    const s = await open()
    expect(await s.users.get('alice')).toMatchObject({ credits_granted: 10, credits_used: 1 })
    expect(s.users.availableCredits('alice')).toBe(9)
    expect((await s.checks.get('alice', c.id))?.url).toBe(c.url)
    expect(s.keys.findByHash('a'.repeat(64))?.id).toBe('k1')
  })

  it('refuses a second open in the same process and reopens after close', async () => {
    store = await openStore(dir)
    await expect(openStore(dir)).rejects.toBeInstanceOf(DataDirLockedError)
    await store.close()
    store = await openStore(dir)
  })

  it('user ids cannot escape the data dir', async () => {
    const s = await open()
    for (const id of ['../../evil', '/etc/passwd', '..', 'a/b', 'x'.repeat(500), 'ünï', '']) {
      await s.users.ensure(id, 1)
      await commitOne(s, id)
    }
    for (const f of await walk(dir)) expect(f.path.startsWith(dir)).toBe(true)
  })
})
