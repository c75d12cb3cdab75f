/**
 * The on-disk layout of saved checks on the embedded backend:
 *
 *   <dataDir>/checks/<user dir>/<ms>.json {user_id, checks: [...]}: one shard, at most `shardSize`
 *                                         checks in created_at order, named by its first check's
 *                                         created_at in epoch milliseconds
 *
 * A user dir is `u` + the hex of the user id's UTF-8 bytes (or `h` + its SHA-256 when that would be
 * too long for a file name), so no user id can reach outside `checks/`.
 *
 * Cost per request does not grow with the number of stored checks: a commit rewrites only the
 * user's newest shard (bounded by `shardSize`), a read touches only the shards it needs, and a
 * small LRU keeps recently used shards in memory. Opening reads, per user, the directory listing
 * plus the newest shard.
 *
 * Every stored check carries two running counters of its user: `seq`, the credits used by saved
 * checks up to and including it, and `imp`, the credits granted by imports up to it. The newest
 * check of a user therefore states credits_used (= seq) and the import grants, and since they are
 * written in the same file write as the check itself, a crash can never save a check without
 * charging it or charge without saving.
 */
import { createHash } from 'node:crypto'
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { Low } from 'lowdb'
import type { CheckRecord } from '../types.js'
import type { Chain, LowdbContext } from './context.js'
import { ensureDir, removeTempFiles } from './durable-file.js'

/** Checks per shard file. Every commit rewrites (and fsyncs) the newest shard, so this bounds a
 * write: 25 checks (~80 KB) commit in ~2.4 ms here, where 200 took 6-12 ms (bench/check.js). */
export const DEFAULT_SHARD_SIZE = 25
export const DEFAULT_CACHED_SHARDS = 32

/** A check as stored in a shard: the record plus the user's running credit counters. */
export interface StoredCheck extends CheckRecord {
  /** Credits used by this user's saved checks up to and including this one. */
  seq: number
  /** Credits granted to this user by imports up to and including this one. */
  imp: number
}

interface ShardDoc {
  user_id: string
  checks: StoredCheck[]
}

/** One user's checks: its shards and running counters. Writes go through `chain`. */
export interface UserShards extends Chain {
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
  /** Bumped on every shard write; a read that overlapped one does not fill the cache. */
  version: number
}

const USER_DIR = /^[uh][0-9a-f]*$/
const SHARD_FILE = /^(\d+)\.json$/

/** A file-name-safe, collision-free directory name for any user id. */
export function userDirName(userId: string): string {
  const hex = Buffer.from(userId, 'utf8').toString('hex')
  return hex.length <= 200 ? `u${hex}` : `h${createHash('sha256').update(userId, 'utf8').digest('hex')}`
}

export const msOf = (c: { created_at: string }) => Date.parse(c.created_at)

export function toRecord(s: StoredCheck): CheckRecord {
  const { seq: _seq, imp: _imp, ...record } = s
  return record
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

export class Shards {
  readonly checksDir: string
  private readonly cache: ShardCache
  private readonly users = new Map<string, UserShards>()

  constructor(
    private readonly ctx: LowdbContext,
    readonly shardSize: number,
    cachedShards: number,
  ) {
    if (!Number.isSafeInteger(shardSize) || shardSize < 1) throw new RangeError('shardSize must be >= 1')
    this.checksDir = join(ctx.dataDir, 'checks')
    this.cache = new ShardCache(Math.max(1, cachedShards))
  }

  /** Reads every user's shard listing and newest shard. */
  async load(): Promise<void> {
    await ensureDir(this.checksDir)
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
    const db = new Low<ShardDoc | null>(this.ctx.adapter(newest), null)
    await db.read()
    const doc = db.data
    if (!doc || typeof doc.user_id !== 'string' || !Array.isArray(doc.checks) || doc.checks.length === 0)
      throw new Error(`Corrupt shard ${newest}`)
    if (userDirName(doc.user_id) !== name)
      throw new Error(`Shard ${newest} belongs to another user directory`)
    const last = doc.checks[doc.checks.length - 1]
    this.users.set(doc.user_id, {
      id: doc.user_id,
      dir,
      dirReady: true,
      shards: starts,
      tailCount: doc.checks.length,
      seq: last.seq,
      imp: last.imp ?? 0,
      lastMs: msOf(last),
      version: 0,
      chain: Promise.resolve(),
    })
    this.cache.set(newest, doc.checks)
  }

  /** The user's shards, if any check was ever saved for it. */
  find(userId: string): UserShards | undefined {
    return this.users.get(userId)
  }

  /** The user's shards, created (in memory) when missing. */
  of(userId: string): UserShards {
    let s = this.users.get(userId)
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
        version: 0,
        chain: Promise.resolve(),
      }
      this.users.set(userId, s)
    }
    return s
  }

  /** Every user with saved checks. */
  userIds(): string[] {
    return [...this.users.keys()]
  }

  private path(s: UserShards, start: number): string {
    return join(s.dir, `${start}.json`)
  }

  async read(s: UserShards, start: number): Promise<StoredCheck[]> {
    const path = this.path(s, start)
    const hit = this.cache.get(path)
    if (hit) return hit
    const version = s.version
    const db = new Low<ShardDoc | null>(this.ctx.adapter(path), null)
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
  async append(s: UserShards, checks: StoredCheck[]): Promise<void> {
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
        base = await this.read(s, start)
      } else {
        start = msOf(checks[i])
        base = []
      }
      const take = checks.slice(i, i + (room > 0 ? room : this.shardSize))
      const next = base.concat(take)
      const path = this.path(s, start)
      const db = new Low<ShardDoc>(this.ctx.adapter(path), { user_id: s.id, checks: next })
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
}
