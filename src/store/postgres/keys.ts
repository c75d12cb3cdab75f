/**
 * API keys on PostgreSQL (the `api_keys` table, hashes only). Key lookups sit on every request, so
 * found keys are cached per process: at most `keyCacheSize` entries (least recently used evicted),
 * each trusted for `keyCacheMs` (default 2 s). A revocation through another instance is therefore
 * seen within that time (docs/decisions.md#scale-out asks for 5 s); through this instance, at once. Unknown hashes
 * are not cached (a key created elsewhere works immediately). Key use is batched and written at
 * most every `touchFlushMs`.
 */
import { sql, type Kysely } from 'kysely'
import type { Awaitable } from '../awaitable.js'
import type { KeyRecord, KeyStore } from '../types.js'
import type { Database } from './schema.js'

export const DEFAULT_KEY_CACHE_MS = 2000
export const DEFAULT_KEY_CACHE_SIZE = 10_000
export const DEFAULT_TOUCH_FLUSH_MS = 1000

interface KeyRow {
  id: string
  name: string
  user_id: string
  prefix: string
  hash: string
  created_at: Date
  last_used_at: Date | null
  revoked_at: Date | null
}

const toKey = (r: KeyRow): KeyRecord => ({
  id: r.id,
  name: r.name,
  user_id: r.user_id,
  prefix: r.prefix,
  hash: r.hash,
  created_at: r.created_at.toISOString(),
  last_used_at: r.last_used_at?.toISOString() ?? null,
  revoked_at: r.revoked_at?.toISOString() ?? null,
})

const COLUMNS = [
  'id',
  'name',
  'user_id',
  'prefix',
  'hash',
  'created_at',
  'last_used_at',
  'revoked_at',
] as const

export interface PgKeysOptions {
  keyCacheMs?: number
  keyCacheSize?: number
  touchFlushMs?: number
}

/** After a failed flush of key use, the next try waits at least this long, ms. */
const FLUSH_RETRY_MS = 2000

export class PgKeys implements KeyStore {
  private readonly cache = new Map<string, { key: KeyRecord; at: number }>()
  private readonly cacheMs: number
  private readonly cacheSize: number
  private readonly touchFlushMs: number
  private readonly touched = new Map<string, string>()
  private touchTimer: NodeJS.Timeout | undefined
  private flushing: Promise<void> = Promise.resolve()
  closed = false

  constructor(
    private readonly db: Kysely<Database>,
    o: PgKeysOptions = {},
  ) {
    this.cacheMs = o.keyCacheMs ?? DEFAULT_KEY_CACHE_MS
    this.cacheSize = Math.max(0, o.keyCacheSize ?? DEFAULT_KEY_CACHE_SIZE)
    this.touchFlushMs = o.touchFlushMs ?? DEFAULT_TOUCH_FLUSH_MS
  }

  async create(key: KeyRecord): Promise<KeyRecord> {
    const row = await this.db
      .insertInto('api_keys')
      .values({ ...key })
      .returning(COLUMNS)
      .executeTakeFirstOrThrow()
      .catch((err: { code?: string; constraint?: string }) => {
        if (err.code === '23505')
          throw new Error(
            err.constraint === 'api_keys_by_hash'
              ? 'A key with this hash already exists'
              : `A key with id ${key.id} already exists`,
          )
        throw err
      })
    return toKey(row)
  }

  async list(): Promise<KeyRecord[]> {
    const rows = await this.db
      .selectFrom('api_keys')
      .select(COLUMNS)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute()
    return rows.map((r) => this.withTouch(toKey(r)))
  }

  private withTouch(k: KeyRecord): KeyRecord {
    const used = this.touched.get(k.id)
    return used && (!k.last_used_at || used > k.last_used_at) ? { ...k, last_used_at: used } : k
  }

  /** A cached key at once (no microtask, see awaitable.ts); else a query. */
  findByHash(hash: string): Awaitable<KeyRecord | undefined> {
    const hit = this.cache.get(hash)
    if (hit && Date.now() - hit.at < this.cacheMs) {
      this.cache.delete(hash)
      this.cache.set(hash, hit)
      return this.withTouch(hit.key)
    }
    return this.lookUp(hash)
  }

  private async lookUp(hash: string): Promise<KeyRecord | undefined> {
    const row = await this.db
      .selectFrom('api_keys')
      .select(COLUMNS)
      .where('hash', '=', hash)
      .executeTakeFirst()
    if (!row) {
      this.cache.delete(hash)
      return undefined
    }
    const key = toKey(row)
    if (this.cacheSize > 0) {
      this.cache.delete(hash)
      this.cache.set(hash, { key, at: Date.now() })
      while (this.cache.size > this.cacheSize) this.cache.delete(this.cache.keys().next().value as string)
    }
    return this.withTouch(key)
  }

  async revoke(id: string, at: string): Promise<KeyRecord | undefined> {
    // COALESCE: revoked once, the first time stays
    const row = await this.db
      .updateTable('api_keys')
      .set({ revoked_at: sql`coalesce(revoked_at, ${at}::timestamptz)` })
      .where('id', '=', id)
      .returning(COLUMNS)
      .executeTakeFirst()
    if (!row) return undefined
    this.cache.delete(row.hash)
    return this.withTouch(toKey(row))
  }

  touch(id: string, at: string): void {
    if (this.closed) return
    const prev = this.touched.get(id)
    if (prev && prev >= at) return
    this.touched.set(id, at)
    this.armFlush(this.touchFlushMs)
  }

  /** A failed flush keeps its batch and tries again later, also when no key is used meanwhile. */
  private armFlush(delayMs: number): void {
    if (this.closed) return
    this.touchTimer ??= setTimeout(() => {
      this.touchTimer = undefined
      this.flush().catch(() => this.armFlush(Math.max(this.touchFlushMs, FLUSH_RETRY_MS)))
    }, delayMs).unref()
  }

  /** Writes pending key use (the newest time wins; unknown ids change nothing). */
  flush(): Promise<void> {
    // chained after the previous flush whatever its outcome: one failed write (the database was
    // down) must not reject every flush after it, which left key use stale until a restart
    this.flushing = this.flushing
      .catch(() => {})
      .then(async () => {
        if (this.touched.size === 0) return
        const batch = [...this.touched]
        this.touched.clear()
        try {
          await sql`
          UPDATE api_keys k SET last_used_at = greatest(k.last_used_at, t.at)
          FROM unnest(${batch.map((b) => b[0])}::text[], ${batch.map((b) => b[1])}::timestamptz[]) AS t(id, at)
          WHERE k.id = t.id`.execute(this.db)
        } catch (err) {
          for (const [id, at] of batch) if (!this.touched.has(id)) this.touched.set(id, at)
          throw err
        }
      })
    return this.flushing
  }

  async close(): Promise<void> {
    this.closed = true
    if (this.touchTimer) clearTimeout(this.touchTimer)
    this.touchTimer = undefined
    await this.flush()
  }
}
