/**
 * Saved checks on the embedded backend: commit (the check and its charge in one shard write),
 * import, get by id, and newest-first paging. The layout is in shards.ts.
 */
import { InsufficientCreditsError } from '../errors.js'
import type {
  CheckRecord,
  CheckStore,
  ImportedCheck,
  ListChecksOptions,
  NewCheck,
  Reservation,
} from '../types.js'
import { uuidv7, uuidv7Time } from '../../shared/index.js'
import { iso, type LowdbContext } from './context.js'
import { msOf, toRecord, type Shards, type StoredCheck, type UserShards } from './shards.js'
import type { LowdbUsers } from './users.js'

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

interface PendingCommit {
  record: NewCheck
  held: Reservation
  own: Reservation | undefined
  resolve: (v: { check: CheckRecord; remaining: number }) => void
  reject: (err: unknown) => void
}

export class LowdbChecks implements CheckStore {
  private readonly batches = new Map<string, PendingCommit[]>()
  /** Reservations a commit on its way holds: a second commit of one is not paid by it. */
  private readonly committing = new Set<string>()

  constructor(
    private readonly ctx: LowdbContext,
    private readonly shards: Shards,
    private readonly users: LowdbUsers,
  ) {}

  async commit(
    reservation: Reservation,
    record: NewCheck,
  ): Promise<{ check: CheckRecord; remaining: number }> {
    this.ctx.assertOpen()
    const userId = record.user_id
    if (reservation.user_id !== userId) throw new RangeError('The reservation belongs to another user')
    const ledger = this.users.ledger
    // A reservation whose lease ran out no longer holds a credit: take a fresh one, or refuse.
    let own: Reservation | undefined
    if (!ledger.isLive(reservation) || this.committing.has(reservation.id)) {
      own = this.users.reserveNow(userId)
      if (!own) throw new InsufficientCreditsError(userId)
    }
    const held = own ?? reservation
    this.committing.add(held.id)
    const s = this.shards.of(userId)
    // Group commit: commits of one user that arrive while its previous write is on its way join
    // one batch, written (and fsynced) together when that write ends. Each caller still resolves
    // only once its check is on disk, so "acknowledged means on disk" holds, but N concurrent
    // checks of a user cost one or two shard writes instead of N.
    return new Promise((resolve, reject) => {
      let batch = this.batches.get(userId)
      if (!batch) {
        const b: PendingCommit[] = []
        batch = b
        this.batches.set(userId, b)
        this.ctx
          .enqueue(s, async () => {
            this.batches.delete(userId)
            await this.flush(s, b)
          })
          .catch((err) => {
            this.batches.delete(userId)
            for (const p of b) {
              this.committing.delete(p.held.id)
              if (p.own) ledger.end(p.own)
              p.reject(err)
            }
          })
      }
      batch.push({ record, held, own, resolve, reject })
    })
  }

  private async flush(s: UserShards, batch: PendingCommit[]): Promise<void> {
    const ledger = this.users.ledger
    let last = s.lastMs
    let seq = s.seq
    const stored = batch.map((p): StoredCheck => {
      const ms = Math.max(this.ctx.now(), last + 1)
      last = ms
      const { id: _id, created_at: _created, ...fields } = p.record as NewCheck & Partial<CheckRecord>
      return { id: uuidv7(ms), ...fields, user_id: s.id, created_at: iso(ms), seq: ++seq, imp: s.imp }
    })
    await this.shards.append(s, stored)
    // seq went up in append (same tick): the reservations' credits are now charged
    for (const p of batch) {
      ledger.end(p.held)
      this.committing.delete(p.held.id)
    }
    const remaining = this.users.available(s.id)
    batch.forEach((p, i) => p.resolve({ check: toRecord(stored[i]), remaining }))
  }

  /**
   * Written whole shards at a time; not atomic as a whole (a crash midway keeps a consistent
   * prefix). A time not newer than the previous check is bumped to previous + 1 ms.
   */
  async import(userId: string, records: ImportedCheck[], createdAt?: Date[]): Promise<void> {
    if (createdAt && createdAt.length !== records.length)
      throw new RangeError('createdAt must have one date per record')
    const s = this.shards.of(userId)
    return this.ctx.enqueue(s, async () => {
      if (records.length === 0) return
      const now = this.ctx.now()
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
        } = records[i] as ImportedCheck & Partial<CheckRecord>
        return { id: uuidv7(ms), ...fields, user_id: userId, created_at: iso(ms), seq: ++seq, imp: ++imp }
      })
      await this.shards.append(s, stored)
    })
  }

  async get(userId: string, id: string): Promise<CheckRecord | undefined> {
    this.ctx.assertOpen()
    const s = this.shards.find(userId)
    // Ids are UUIDv7 whose time is created_at: the id names its shard. Anything else was never
    // issued by this store, so there is nothing to scan for.
    const ms = uuidv7Time(id)
    if (!s || ms === undefined) return undefined
    const idx = lastAtOrBelow(s.shards, ms)
    if (idx < 0) return undefined
    const checks = await this.shards.read(s, s.shards[idx])
    const want = id.toLowerCase()
    for (let i = countBefore(checks, ms); i < checks.length && msOf(checks[i]) === ms; i++)
      if (checks[i].id === want) return toRecord(checks[i])
    return undefined
  }

  async list(
    userId: string,
    opts: ListChecksOptions,
  ): Promise<{ items: CheckRecord[]; next: string | null }> {
    this.ctx.assertOpen()
    const limit = Math.floor(opts.limit)
    if (!(limit >= 1)) throw new RangeError(`limit must be >= 1, got ${opts.limit}`)
    let before = Infinity
    if (opts.before !== undefined) {
      before = Date.parse(opts.before)
      if (Number.isNaN(before)) throw new RangeError(`before is not a date: ${opts.before}`)
    }
    const s = this.shards.find(userId)
    const items: CheckRecord[] = []
    if (!s || s.shards.length === 0) return { items, next: null }
    // the newest shard whose first check is older than `before`
    let idx = lastAtOrBelow(s.shards, Math.ceil(before) - 1)
    while (idx >= 0) {
      const checks = await this.shards.read(s, s.shards[idx])
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

  /** Every stored check of a user, oldest first, a shard at a time (export to another backend). */
  async *all(userId: string): AsyncGenerator<CheckRecord[]> {
    const s = this.shards.find(userId)
    if (!s) return
    for (const start of [...s.shards]) yield (await this.shards.read(s, start)).map(toRecord)
  }
}
