/**
 * API keys on the embedded backend: `<dataDir>/keys.json` ({version, keys: [KeyRecord]}: hashes
 * only, never secrets), written whole by group commit and held in memory, indexed by hash. Key use
 * (touch) stays in memory and is written at most every `touchFlushMs` and on close.
 */
import { join } from 'node:path'
import { Low } from 'lowdb'
import type { KeyRecord, KeyStore } from '../types.js'
import type { Chain, LowdbContext } from './context.js'
import { DocWriter } from './doc-writer.js'

export const DEFAULT_TOUCH_FLUSH_MS = 1000

interface KeysDoc {
  version: 1
  keys: KeyRecord[]
}

export class LowdbKeys implements KeyStore {
  private writer!: DocWriter<KeysDoc>
  private readonly staged = new Map<string, KeyRecord>()
  private committed = new Map<string, KeyRecord>()
  private byHash = new Map<string, KeyRecord>()
  private readonly chain: Chain = { chain: Promise.resolve() }
  /** Key use not yet necessarily on disk (newer than the records' last_used_at). */
  private readonly lastUsed = new Map<string, string>()
  private touchDirty = false
  private touchTimer: NodeJS.Timeout | undefined

  constructor(
    private readonly ctx: LowdbContext,
    private readonly touchFlushMs: number,
  ) {}

  async load(): Promise<void> {
    const file = join(this.ctx.dataDir, 'keys.json')
    const db = new Low<KeysDoc>(this.ctx.adapter(file), { version: 1, keys: [] })
    await db.read()
    if (!Array.isArray(db.data?.keys)) throw new Error(`Corrupt ${file}`)
    for (const k of db.data.keys) this.staged.set(k.id, k)
    this.writer = new DocWriter(
      db,
      () => ({
        version: 1,
        keys: [...this.staged.values()].map((k) => {
          const used = this.lastUsed.get(k.id)
          return used && used !== k.last_used_at ? { ...k, last_used_at: used } : k
        }),
      }),
      (doc) => this.setCommitted(doc.keys),
    )
    this.setCommitted(db.data.keys)
  }

  private setCommitted(keys: KeyRecord[]): void {
    this.committed = new Map(keys.map((k) => [k.id, k]))
    this.byHash = new Map(keys.map((k) => [k.hash, k]))
  }

  private view(k: KeyRecord): KeyRecord {
    const used = this.lastUsed.get(k.id)
    return { ...k, last_used_at: used && (!k.last_used_at || used > k.last_used_at) ? used : k.last_used_at }
  }

  create(key: KeyRecord): Promise<KeyRecord> {
    return this.ctx.enqueue(this.chain, async () => {
      if (this.staged.has(key.id)) throw new Error(`A key with id ${key.id} already exists`)
      if (this.byHash.has(key.hash)) throw new Error('A key with this hash already exists')
      const record: KeyRecord = { ...key }
      this.staged.set(record.id, record)
      await this.writer.write(() => this.staged.delete(record.id))
      return this.view(record)
    })
  }

  /** Synchronous list (the embedded store keeps keys in memory). */
  all(): KeyRecord[] {
    return [...this.committed.values()]
      .map((k) => this.view(k))
      .sort((a, b) =>
        a.created_at === b.created_at ? (a.id < b.id ? 1 : -1) : a.created_at < b.created_at ? 1 : -1,
      )
  }

  list(): Promise<KeyRecord[]> {
    return Promise.resolve(this.all())
  }

  findByHash(hash: string): KeyRecord | undefined {
    const k = this.byHash.get(hash)
    return k && this.view(k)
  }

  revoke(id: string, at: string): Promise<KeyRecord | undefined> {
    return this.ctx.enqueue(this.chain, async () => {
      const prev = this.staged.get(id)
      if (!prev) return undefined
      if (prev.revoked_at) return this.view(prev)
      const next = { ...prev, revoked_at: at }
      this.staged.set(id, next)
      await this.writer.write(() => this.staged.set(id, prev))
      return this.view(next)
    })
  }

  touch(id: string, at: string): void {
    if (this.ctx.closing || !this.committed.has(id)) return
    const prev = this.lastUsed.get(id)
    if (prev && prev >= at) return
    this.lastUsed.set(id, at)
    this.touchDirty = true
    this.armFlush(this.touchFlushMs)
  }

  /** A failed write (a full disk) keeps the key use dirty and tries again, also when no key is used. */
  private armFlush(delayMs: number): void {
    this.touchTimer ??= setTimeout(() => {
      this.touchTimer = undefined
      if (!this.ctx.closing) this.flushTouches().catch(() => this.armFlush(Math.max(this.touchFlushMs, 2000)))
    }, delayMs).unref()
  }

  /** Writes key use to keys.json when some is only in memory. */
  private async flushTouches(): Promise<void> {
    if (!this.touchDirty) return
    this.touchDirty = false
    try {
      await this.writer.write()
    } catch (err) {
      this.touchDirty = true
      throw err
    }
  }

  /** On close: stop the timer, write pending key use, wait for writes. */
  async flush(): Promise<void> {
    if (this.touchTimer) clearTimeout(this.touchTimer)
    this.touchTimer = undefined
    await this.flushTouches()
    await this.writer?.idle()
  }
}
