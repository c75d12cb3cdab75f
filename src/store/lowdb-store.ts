/**
 * The embedded storage backend: lowdb JSON documents under the data dir, written durably
 * (durable-file.ts), behind a data-dir lock (lock.ts).
 *
 * Layout:
 *
 *   <dataDir>/sitehealth.lock             pid of the process serving this dir
 *   <dataDir>/users.json                  {version, users: [{id, credits_granted, created_at}]}
 *   <dataDir>/keys.json                   {version, keys: [KeyRecord]} (hashes only, never secrets)
 *   <dataDir>/checks/<user dir>/<ms>.json {user_id, checks: [...]}: one shard, at most `shardSize`
 *                                         checks in created_at order, named by its first check's
 *                                         created_at in epoch milliseconds
 *
 * A user dir is `u` + the hex of the user id's UTF-8 bytes (or `h` + its SHA-256 when that would be
 * too long for a file name), so no user id can reach outside `checks/`.
 *
 * Cost per request does not grow with the number of stored checks: a commit rewrites only the
 * user's newest shard (bounded by `shardSize`), getCheck reads the one shard its UUIDv7 id points
 * at, listChecks walks back from the shard covering its cursor only as far as `limit` needs, and a
 * small LRU keeps recently used shards in memory. Opening reads users.json, keys.json and, per
 * user, the directory listing plus the newest shard.
 *
 * Credits. Every stored check carries two running counters of its user: `seq`, the credits used
 * by saved checks up to and including it, and `imp`, the credits granted by imports up to it. The
 * newest check of a user therefore states credits_used (= seq) and the import grants, and since
 * they are written in the same file write as the check itself, a crash can never save a check
 * without charging it or charge without saving. Balance = users.json credits_granted + imp - seq
 * - reservations (memory only).
 */
import { createHash } from 'node:crypto'
import { readdir } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { Low } from 'lowdb'
import type { CheckRecord, KeyRecord, ListChecksOptions, Store, UserRecord } from './types.js'
import { DocWriter } from './doc-writer.js'
import { DurableJSONFile, ensureDir, removeTempFiles, type WriteStats } from './durable-file.js'
import { acquireDirLock, removeStaleLockTemps, type DirLock } from './lock.js'
import { uuidv7, uuidv7Time } from './uuid7.js'

/** Checks per shard file. Every commit rewrites (and fsyncs) the newest shard, so this bounds a
 * write: 25 checks (~80 KB) commit in ~2.4 ms here, where 200 took 6-12 ms (bench/check.js). */
export const DEFAULT_SHARD_SIZE = 25
export const DEFAULT_CACHED_SHARDS = 32
export const DEFAULT_TOUCH_FLUSH_MS = 1000

export interface LowdbStoreOptions {
  /** Checks per shard file (default 200). */
  shardSize?: number
  /** Shards kept in memory, least recently used evicted (default 32). */
  cachedShards?: number
  /** How long key use (touchKey) may stay in memory only (default 1000 ms). */
  touchFlushMs?: number
  /** Clock in epoch ms (tests). */
  now?: () => number
}

/** A check as stored in a shard: the record plus the user's running credit counters. */
interface StoredCheck extends CheckRecord {
  /** Credits used by this user's saved checks up to and including this one. */
  seq: number
  /** Credits granted to this user by importChecks up to and including this one. */
  imp: number
}

interface ShardDoc {
  user_id: string
  checks: StoredCheck[]
}

interface StoredUser {
  id: string
  /** Granted by ensureUser and grantCredits (import grants live in the shards, see `imp`). */
  credits_granted: number
  created_at: string
}

interface UsersDoc {
  version: 1
  users: StoredUser[]
}

interface KeysDoc {
  version: 1
  keys: KeyRecord[]
}

interface UserState {
  id: string
  dir: string
  dirReady: boolean
  /** Start ms of each shard, ascending. */
  shards: number[]
  /** Number of checks in the newest shard. */
  tailCount: number
  seq: number
  imp: number
  /** created_at (ms) of the newest check; -1 when none. */
  lastMs: number
  reserved: number
  /** Bumped on every shard write; a read that overlapped one does not fill the cache. */
  version: number
  chain: Promise<unknown>
}

type NewCheck = Omit<CheckRecord, 'id' | 'created_at'>
type ImportCheck = Omit<CheckRecord, 'id' | 'created_at' | 'user_id'>

export class StoreClosedError extends Error {
  constructor() {
    super('The store is closed.')
    this.name = 'StoreClosedError'
  }
}

export class InsufficientCreditsError extends Error {
  constructor(userId: string) {
    super(`User ${userId} has no credit left to save a check.`)
    this.name = 'InsufficientCreditsError'
  }
}

const USER_DIR = /^[uh][0-9a-f]*$/
const SHARD_FILE = /^(\d+)\.json$/

/** A file-name-safe, collision-free directory name for any user id. */
export function userDirName(userId: string): string {
  const hex = Buffer.from(userId, 'utf8').toString('hex')
  return hex.length <= 200 ? `u${hex}` : `h${createHash('sha256').update(userId, 'utf8').digest('hex')}`
}

const iso = (ms: number) => new Date(ms).toISOString()
const msOf = (c: { created_at: string }) => Date.parse(c.created_at)

function toRecord(s: StoredCheck): CheckRecord {
  const { seq: _seq, imp: _imp, ...record } = s
  return record
}

/** Index of the last element <= x in an ascending array, or -1. */
function lastAtOrBelow(sorted: number[], x: number): number {
  let lo = 0
  let hi = sorted.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (sorted[mid] <= x) lo = mid + 1
    else hi = mid
  }
  return lo - 1
}

/** Number of checks in `checks` (ascending) created strictly before `ms`. */
function countBefore(checks: StoredCheck[], ms: number): number {
  let lo = 0
  let hi = checks.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (msOf(checks[mid]) < ms) lo = mid + 1
    else hi = mid
  }
  return lo
}

function assertCount(name: string, n: number): void {
  if (!Number.isSafeInteger(n) || n < 0)
    throw new RangeError(`${name} must be a non-negative integer, got ${n}`)
}

class ShardCache {
  private readonly map = new Map<string, StoredCheck[]>()
  constructor(private readonly capacity: number) {}

  get(path: string): StoredCheck[] | undefined {
    const v = this.map.get(path)
    if (v) {
      this.map.delete(path)
      this.map.set(path, v)
    }
    return v
  }

  set(path: string, checks: StoredCheck[]): void {
    this.map.delete(path)
    this.map.set(path, checks)
    while (this.map.size > this.capacity) this.map.delete(this.map.keys().next().value as string)
  }
}

async function forEachLimited<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0
  const worker = async () => {
    while (next < items.length) await fn(items[next++])
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
}

export class LowdbStore implements Store {
  /** Bytes and files written (tests and benchmarks measure write cost with it). */
  readonly stats: WriteStats = { writes: 0, bytesWritten: 0 }
  readonly dataDir: string
  readonly shardSize: number

  private readonly checksDir: string
  private readonly cache: ShardCache
  private readonly touchFlushMs: number
  private readonly now: () => number
  private lock: DirLock | undefined
  private closing: Promise<void> | undefined
  private readonly pending = new Set<Promise<unknown>>()

  private readonly states = new Map<string, UserState>()

  private usersDb!: Low<UsersDoc>
  private usersWriter!: DocWriter<UsersDoc>
  private readonly usersStaged = new Map<string, StoredUser>()
  private usersCommitted = new Map<string, StoredUser>()

  private keysDb!: Low<KeysDoc>
  private keysWriter!: DocWriter<KeysDoc>
  private readonly keysStaged = new Map<string, KeyRecord>()
  private keysCommitted = new Map<string, KeyRecord>()
  private keysByHash = new Map<string, KeyRecord>()
  private keysChain: { chain: Promise<unknown> } = { chain: Promise.resolve() }
  /** Key use not yet necessarily on disk (newer than the records' last_used_at). */
  private readonly lastUsed = new Map<string, string>()
  private touchDirty = false
  private touchTimer: NodeJS.Timeout | undefined

  private constructor(dataDir: string, opts: LowdbStoreOptions) {
    this.dataDir = dataDir
    this.checksDir = join(dataDir, 'checks')
    this.shardSize = opts.shardSize ?? DEFAULT_SHARD_SIZE
    if (!Number.isSafeInteger(this.shardSize) || this.shardSize < 1)
      throw new RangeError('shardSize must be >= 1')
    this.cache = new ShardCache(Math.max(1, opts.cachedShards ?? DEFAULT_CACHED_SHARDS))
    this.touchFlushMs = opts.touchFlushMs ?? DEFAULT_TOUCH_FLUSH_MS
    this.now = opts.now ?? Date.now
  }

  static async open(dataDir: string, opts: LowdbStoreOptions = {}): Promise<LowdbStore> {
    const store = new LowdbStore(resolve(dataDir), opts)
    await ensureDir(store.dataDir)
    store.lock = await acquireDirLock(store.dataDir)
    try {
      await store.load()
    } catch (err) {
      await store.lock.release()
      throw err
    }
    return store
  }

  private adapter<T>(file: string): DurableJSONFile<T> {
    return new DurableJSONFile<T>(file, this.stats)
  }

  private async load(): Promise<void> {
    await removeTempFiles(this.dataDir)
    await removeStaleLockTemps(this.dataDir)
    await ensureDir(this.checksDir)

    this.usersDb = new Low<UsersDoc>(this.adapter(join(this.dataDir, 'users.json')), {
      version: 1,
      users: [],
    })
    await this.usersDb.read()
    if (!Array.isArray(this.usersDb.data?.users))
      throw new Error(`Corrupt ${join(this.dataDir, 'users.json')}`)
    for (const u of this.usersDb.data.users) this.usersStaged.set(u.id, u)
    this.usersCommitted = new Map(this.usersStaged)
    this.usersWriter = new DocWriter(
      this.usersDb,
      () => ({ version: 1, users: [...this.usersStaged.values()] }),
      (doc) => {
        this.usersCommitted = new Map(doc.users.map((u) => [u.id, u]))
      },
    )

    this.keysDb = new Low<KeysDoc>(this.adapter(join(this.dataDir, 'keys.json')), { version: 1, keys: [] })
    await this.keysDb.read()
    if (!Array.isArray(this.keysDb.data?.keys)) throw new Error(`Corrupt ${join(this.dataDir, 'keys.json')}`)
    for (const k of this.keysDb.data.keys) this.keysStaged.set(k.id, k)
    this.keysWriter = new DocWriter(
      this.keysDb,
      () => ({
        version: 1,
        keys: [...this.keysStaged.values()].map((k) => {
          const used = this.lastUsed.get(k.id)
          return used && used !== k.last_used_at ? { ...k, last_used_at: used } : k
        }),
      }),
      (doc) => this.setCommittedKeys(doc.keys),
    )
    this.setCommittedKeys(this.keysDb.data.keys)

    const entries = await readdir(this.checksDir, { withFileTypes: true })
    const dirs = entries.filter((e) => e.isDirectory() && USER_DIR.test(e.name)).map((e) => e.name)
    await forEachLimited(dirs, 8, (name) => this.loadUserDir(name))
  }

  private async loadUserDir(name: string): Promise<void> {
    const dir = join(this.checksDir, name)
    await removeTempFiles(dir)
    const starts = (await readdir(dir))
      .map((f) => SHARD_FILE.exec(f))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => Number(m[1]))
      .sort((a, b) => a - b)
    if (starts.length === 0) return
    const newest = join(dir, `${starts[starts.length - 1]}.json`)
    const db = new Low<ShardDoc | null>(this.adapter(newest), null)
    await db.read()
    const doc = db.data
    if (!doc || typeof doc.user_id !== 'string' || !Array.isArray(doc.checks) || doc.checks.length === 0)
      throw new Error(`Corrupt shard ${newest}`)
    if (userDirName(doc.user_id) !== name)
      throw new Error(`Shard ${newest} belongs to another user directory`)
    const last = doc.checks[doc.checks.length - 1]
    this.states.set(doc.user_id, {
      id: doc.user_id,
      dir,
      dirReady: true,
      shards: starts,
      tailCount: doc.checks.length,
      seq: last.seq,
      imp: last.imp ?? 0,
      lastMs: msOf(last),
      reserved: 0,
      version: 0,
      chain: Promise.resolve(),
    })
    this.cache.set(newest, doc.checks)
  }

  private setCommittedKeys(keys: KeyRecord[]): void {
    this.keysCommitted = new Map(keys.map((k) => [k.id, k]))
    this.keysByHash = new Map(keys.map((k) => [k.hash, k]))
  }

  // ---- plumbing ----

  private assertOpen(): void {
    if (this.closing) throw new StoreClosedError()
  }

  /** Runs fn after everything queued on `holder`; failures do not break the chain. */
  private enqueue<T>(holder: { chain: Promise<unknown> }, fn: () => Promise<T>): Promise<T> {
    this.assertOpen()
    const p = holder.chain.then(fn)
    const settled = p.then(
      () => undefined,
      () => undefined,
    )
    holder.chain = settled
    this.pending.add(settled)
    void settled.then(() => this.pending.delete(settled))
    return p
  }

  private state(userId: string): UserState {
    let s = this.states.get(userId)
    if (!s) {
      s = {
        id: userId,
        dir: join(this.checksDir, userDirName(userId)),
        dirReady: false,
        shards: [],
        tailCount: 0,
        seq: 0,
        imp: 0,
        lastMs: -1,
        reserved: 0,
        version: 0,
        chain: Promise.resolve(),
      }
      this.states.set(userId, s)
    }
    return s
  }

  private shardPath(s: UserState, start: number): string {
    return join(s.dir, `${start}.json`)
  }

  private async loadShard(s: UserState, start: number): Promise<StoredCheck[]> {
    const path = this.shardPath(s, start)
    const hit = this.cache.get(path)
    if (hit) return hit
    const version = s.version
    const db = new Low<ShardDoc | null>(this.adapter(path), null)
    await db.read()
    if (!db.data || !Array.isArray(db.data.checks)) throw new Error(`Missing or corrupt shard ${path}`)
    // A shard write that completed meanwhile has cached the newer content; do not overwrite it.
    if (s.version === version) this.cache.set(path, db.data.checks)
    return db.data.checks
  }

  /**
   * Appends checks (ascending, all newer than the user's newest) to the user's shards: fills the
   * newest shard, then starts new ones. One durable write per shard touched; the in-memory state
   * follows each write, so it always matches what is on disk. Runs inside the user's chain.
   */
  private async append(s: UserState, checks: StoredCheck[]): Promise<void> {
    if (!s.dirReady) {
      await ensureDir(s.dir)
      s.dirReady = true
    }
    let i = 0
    while (i < checks.length) {
      let start: number
      let base: StoredCheck[]
      const room = s.shards.length > 0 ? this.shardSize - s.tailCount : 0
      if (room > 0) {
        start = s.shards[s.shards.length - 1]
        base = await this.loadShard(s, start)
      } else {
        start = msOf(checks[i])
        base = []
      }
      const take = checks.slice(i, i + (room > 0 ? room : this.shardSize))
      const next = base.concat(take)
      const path = this.shardPath(s, start)
      const db = new Low<ShardDoc>(this.adapter(path), { user_id: s.id, checks: next })
      await db.write()
      // on disk: make it visible
      if (room <= 0) s.shards.push(start)
      s.version++
      this.cache.set(path, next)
      const last = next[next.length - 1]
      s.tailCount = next.length
      s.seq = last.seq
      s.imp = last.imp
      s.lastMs = msOf(last)
      i += take.length
    }
  }

  // ---- users and credits ----

  getUser(userId: string): UserRecord | undefined {
    const u = this.usersCommitted.get(userId)
    if (!u) return undefined
    const s = this.states.get(userId)
    return {
      id: u.id,
      credits_granted: u.credits_granted + (s?.imp ?? 0),
      credits_used: s?.seq ?? 0,
      created_at: u.created_at,
    }
  }

  async ensureUser(userId: string, initialCredits: number): Promise<UserRecord> {
    assertCount('initialCredits', initialCredits)
    return this.enqueue(this.state(userId), async () => {
      if (!this.usersStaged.has(userId)) {
        this.usersStaged.set(userId, {
          id: userId,
          credits_granted: initialCredits,
          created_at: iso(this.now()),
        })
        await this.usersWriter.write(() => this.usersStaged.delete(userId))
      }
      return this.getUser(userId)!
    })
  }

  async grantCredits(userId: string, amount: number): Promise<UserRecord> {
    assertCount('amount', amount)
    return this.enqueue(this.state(userId), async () => {
      const prev = this.usersStaged.get(userId)
      this.usersStaged.set(
        userId,
        prev
          ? { ...prev, credits_granted: prev.credits_granted + amount }
          : { id: userId, credits_granted: amount, created_at: iso(this.now()) },
      )
      await this.usersWriter.write(() => {
        if (prev) this.usersStaged.set(userId, prev)
        else this.usersStaged.delete(userId)
      })
      return this.getUser(userId)!
    })
  }

  availableCredits(userId: string): number {
    const granted = this.usersCommitted.get(userId)?.credits_granted ?? 0
    const s = this.states.get(userId)
    if (!s) return Math.max(0, granted)
    return Math.max(0, granted + s.imp - s.seq - s.reserved)
  }

  reserveCredit(userId: string): boolean {
    if (this.closing || this.availableCredits(userId) < 1) return false
    this.state(userId).reserved++
    return true
  }

  releaseCredit(userId: string): void {
    const s = this.states.get(userId)
    if (s && s.reserved > 0) s.reserved--
  }

  /**
   * Consumes one reservation of the user. A caller that did not reserve gets one reserved here,
   * or an InsufficientCreditsError when none is available. On failure the reservation stays, for
   * the caller to release.
   */
  async commitCheck(record: NewCheck): Promise<{ check: CheckRecord; remaining: number }> {
    this.assertOpen()
    const userId = record.user_id
    const s = this.state(userId)
    if (s.reserved === 0 && !this.reserveCredit(userId)) throw new InsufficientCreditsError(userId)
    return this.enqueue(s, async () => {
      const ms = Math.max(this.now(), s.lastMs + 1)
      const { id: _id, created_at: _created, ...fields } = record as NewCheck & Partial<CheckRecord>
      const stored: StoredCheck = {
        id: uuidv7(ms),
        ...fields,
        user_id: userId,
        created_at: iso(ms),
        seq: s.seq + 1,
        imp: s.imp,
      }
      await this.append(s, [stored])
      // seq went up by one in append (same tick): hand the reservation over to it
      if (s.reserved > 0) s.reserved--
      return { check: toRecord(stored), remaining: this.availableCredits(userId) }
    })
  }

  /**
   * Bulk load. Checks are stored in createdAt order (default: the last one now, each earlier one
   * a millisecond before) after the user's newest check: a time not newer than the previous
   * check is bumped to previous + 1 ms, as commitCheck does. Imported checks count as used credits
   * like saved ones, and the same number of credits is granted with them (in the same shard
   * writes, see `imp`), so the user's available balance is unchanged and credits_used stays equal
   * to the number of saved checks. Written whole shards at a time; not atomic as a whole (a crash
   * midway keeps a consistent prefix).
   */
  async importChecks(userId: string, records: ImportCheck[], createdAt?: Date[]): Promise<void> {
    if (createdAt && createdAt.length !== records.length)
      throw new RangeError('createdAt must have one date per record')
    const s = this.state(userId)
    return this.enqueue(s, async () => {
      if (records.length === 0) return
      const now = this.now()
      const n = records.length
      const order = records.map((_, i) => ({ i, t: createdAt ? createdAt[i].getTime() : now - (n - 1 - i) }))
      if (order.some((o) => !Number.isFinite(o.t))) throw new RangeError('createdAt holds an invalid date')
      order.sort((a, b) => a.t - b.t || a.i - b.i)
      let last = s.lastMs
      let seq = s.seq
      let imp = s.imp
      const stored = order.map(({ i, t }) => {
        const ms = Math.max(Math.trunc(t), last + 1)
        last = ms
        const {
          id: _id,
          created_at: _c,
          user_id: _u,
          ...fields
        } = records[i] as ImportCheck & Partial<CheckRecord>
        return { id: uuidv7(ms), ...fields, user_id: userId, created_at: iso(ms), seq: ++seq, imp: ++imp }
      })
      await this.append(s, stored)
    })
  }

  // ---- checks ----

  async getCheck(userId: string, id: string): Promise<CheckRecord | undefined> {
    this.assertOpen()
    const s = this.states.get(userId)
    // Ids are UUIDv7 whose time is created_at: the id names its shard. Anything else was never
    // issued by this store, so there is nothing to scan for.
    const ms = uuidv7Time(id)
    if (!s || ms === undefined) return undefined
    const idx = lastAtOrBelow(s.shards, ms)
    if (idx < 0) return undefined
    const checks = await this.loadShard(s, s.shards[idx])
    const want = id.toLowerCase()
    for (let i = countBefore(checks, ms); i < checks.length && msOf(checks[i]) === ms; i++)
      if (checks[i].id === want) return toRecord(checks[i])
    return undefined
  }

  async listChecks(
    userId: string,
    opts: ListChecksOptions,
  ): Promise<{ items: CheckRecord[]; next: string | null }> {
    this.assertOpen()
    const limit = Math.floor(opts.limit)
    if (!(limit >= 1)) throw new RangeError(`limit must be >= 1, got ${opts.limit}`)
    let before = Infinity
    if (opts.before !== undefined) {
      before = Date.parse(opts.before)
      if (Number.isNaN(before)) throw new RangeError(`before is not a date: ${opts.before}`)
    }
    const s = this.states.get(userId)
    const items: CheckRecord[] = []
    if (!s || s.shards.length === 0) return { items, next: null }
    // the newest shard whose first check is older than `before`
    let idx = lastAtOrBelow(s.shards, Math.ceil(before) - 1)
    while (idx >= 0) {
      const checks = await this.loadShard(s, s.shards[idx])
      let j = Number.isFinite(before) ? countBefore(checks, before) - 1 : checks.length - 1
      while (j >= 0 && items.length < limit) items.push(toRecord(checks[j--]))
      if (items.length === limit) {
        // shards are never empty: older items exist in this shard or any earlier one
        const more = j >= 0 || idx > 0
        return { items, next: more ? items[items.length - 1].created_at : null }
      }
      idx--
    }
    return { items, next: null }
  }

  // ---- keys ----

  private keyView(k: KeyRecord): KeyRecord {
    const used = this.lastUsed.get(k.id)
    return { ...k, last_used_at: used && (!k.last_used_at || used > k.last_used_at) ? used : k.last_used_at }
  }

  async createKey(key: KeyRecord): Promise<KeyRecord> {
    return this.enqueue(this.keysChain, async () => {
      if (this.keysStaged.has(key.id)) throw new Error(`A key with id ${key.id} already exists`)
      if (this.keysByHash.has(key.hash)) throw new Error('A key with this hash already exists')
      const record: KeyRecord = { ...key }
      this.keysStaged.set(record.id, record)
      await this.keysWriter.write(() => this.keysStaged.delete(record.id))
      return this.keyView(record)
    })
  }

  listKeys(): KeyRecord[] {
    return [...this.keysCommitted.values()]
      .map((k) => this.keyView(k))
      .sort((a, b) =>
        a.created_at === b.created_at ? (a.id < b.id ? 1 : -1) : a.created_at < b.created_at ? 1 : -1,
      )
  }

  findKeyByHash(hash: string): KeyRecord | undefined {
    const k = this.keysByHash.get(hash)
    return k && this.keyView(k)
  }

  async revokeKey(id: string, at: string): Promise<KeyRecord | undefined> {
    return this.enqueue(this.keysChain, async () => {
      const prev = this.keysStaged.get(id)
      if (!prev) return undefined
      if (prev.revoked_at) return this.keyView(prev)
      const next = { ...prev, revoked_at: at }
      this.keysStaged.set(id, next)
      await this.keysWriter.write(() => this.keysStaged.set(id, prev))
      return this.keyView(next)
    })
  }

  touchKey(id: string, at: string): void {
    if (this.closing || !this.keysCommitted.has(id)) return
    const prev = this.lastUsed.get(id)
    if (prev && prev >= at) return
    this.lastUsed.set(id, at)
    this.touchDirty = true
    this.touchTimer ??= setTimeout(() => {
      this.touchTimer = undefined
      if (!this.closing) void this.flushTouches().catch(() => {})
    }, this.touchFlushMs).unref()
  }

  /** Writes key use to keys.json when some is only in memory. */
  private async flushTouches(): Promise<void> {
    if (!this.touchDirty) return
    this.touchDirty = false
    try {
      await this.keysWriter.write()
    } catch (err) {
      this.touchDirty = true
      throw err
    }
  }

  // ---- lifecycle ----

  close(): Promise<void> {
    this.closing ??= (async () => {
      if (this.touchTimer) clearTimeout(this.touchTimer)
      this.touchTimer = undefined
      try {
        while (this.pending.size > 0) await Promise.all([...this.pending])
        await this.flushTouches()
        await Promise.all([this.usersWriter?.idle(), this.keysWriter?.idle()])
      } finally {
        await this.lock?.release()
      }
    })()
    return this.closing
  }
}

/** Opens (and locks) the embedded store in `dataDir`. */
export function openLowdbStore(dataDir: string, opts?: LowdbStoreOptions): Promise<LowdbStore> {
  return LowdbStore.open(dataDir, opts)
}
