/**
 * Users and their balances on the embedded backend: `<dataDir>/users.json`
 * ({version, users: [{id, credits_granted, credits_charged?, created_at}]}), written whole by group
 * commit.
 *
 * Balance = users.json credits_granted + import grants (shards' `imp`) - charged with a check
 * (shards' `seq`) - charged with no check (users.json `credits_charged`) - live reservations
 * (credits.ts).
 */
import { join } from 'node:path'
import { Low } from 'lowdb'
import { assertCount, InsufficientCreditsError } from '../errors.js'
import type { Reservation, UserRecord, UserStore } from '../types.js'
import { iso, type LowdbContext } from './context.js'
import type { CreditLedger } from './credits.js'
import { DocWriter } from './doc-writer.js'
import type { Shards } from './shards.js'

interface StoredUser {
  id: string
  /** Granted by ensure and grantCredits (import grants live in the shards, see `imp`). */
  credits_granted: number
  /** Charged by runs that saved no check (chargeCredit); absent when none was. */
  credits_charged?: number
  created_at: string
}

interface UsersDoc {
  version: 1
  users: StoredUser[]
}

export class LowdbUsers implements UserStore {
  private writer!: DocWriter<UsersDoc>
  private readonly staged = new Map<string, StoredUser>()
  private committed = new Map<string, StoredUser>()
  /** Reservations a charge on its way holds: a second charge of one is not paid by it. */
  private readonly charging = new Set<string>()

  constructor(
    private readonly ctx: LowdbContext,
    private readonly shards: Shards,
    readonly ledger: CreditLedger,
  ) {}

  async load(): Promise<void> {
    const file = join(this.ctx.dataDir, 'users.json')
    const db = new Low<UsersDoc>(this.ctx.adapter(file), { version: 1, users: [] })
    await db.read()
    if (!Array.isArray(db.data?.users)) throw new Error(`Corrupt ${file}`)
    for (const u of db.data.users) this.staged.set(u.id, u)
    this.committed = new Map(this.staged)
    this.writer = new DocWriter(
      db,
      () => ({ version: 1, users: [...this.staged.values()] }),
      (doc) => {
        this.committed = new Map(doc.users.map((u) => [u.id, u]))
      },
    )
  }

  idle(): Promise<void> {
    return this.writer?.idle() ?? Promise.resolve()
  }

  /** Synchronous view (the embedded store keeps users in memory). */
  peek(userId: string): UserRecord | undefined {
    const u = this.committed.get(userId)
    if (!u) return undefined
    const s = this.shards.find(userId)
    return {
      id: u.id,
      credits_granted: u.credits_granted + (s?.imp ?? 0),
      credits_used: (s?.seq ?? 0) + (u.credits_charged ?? 0),
      created_at: u.created_at,
    }
  }

  /** Synchronous balance: reserving checks and takes in one tick, so no two callers overspend. */
  available(userId: string): number {
    const u = this.committed.get(userId)
    const s = this.shards.find(userId)
    const used = (s?.seq ?? 0) + (u?.credits_charged ?? 0)
    return Math.max(0, (u?.credits_granted ?? 0) + (s?.imp ?? 0) - used - this.ledger.live(userId))
  }

  /**
   * Every user with its counters, for export: those of users.json, and users known only from
   * their checks (imported without a users.json entry), whose grants are all import grants.
   */
  all(): (UserRecord & { last_check_ms: number })[] {
    const ids = new Set([...this.committed.keys(), ...this.shards.userIds()])
    return [...ids].map((id) => {
      const s = this.shards.find(id)
      const u = this.peek(id) ?? {
        id,
        credits_granted: s?.imp ?? 0,
        credits_used: s?.seq ?? 0,
        created_at: iso(this.ctx.now()),
      }
      return { ...u, last_check_ms: s?.lastMs ?? -1 }
    })
  }

  get(userId: string): Promise<UserRecord | undefined> {
    return Promise.resolve(this.peek(userId))
  }

  async ensure(userId: string, initialCredits: number): Promise<UserRecord> {
    assertCount('initialCredits', initialCredits)
    return this.ctx.enqueue(this.shards.of(userId), async () => {
      if (!this.staged.has(userId)) {
        this.staged.set(userId, {
          id: userId,
          credits_granted: initialCredits,
          created_at: iso(this.ctx.now()),
        })
        await this.writer.write(() => this.staged.delete(userId))
      }
      return this.peek(userId)!
    })
  }

  async grantCredits(userId: string, amount: number): Promise<UserRecord> {
    assertCount('amount', amount)
    return this.ctx.enqueue(this.shards.of(userId), async () => {
      const prev = this.staged.get(userId)
      this.staged.set(
        userId,
        prev
          ? { ...prev, credits_granted: prev.credits_granted + amount }
          : { id: userId, credits_granted: amount, created_at: iso(this.ctx.now()) },
      )
      await this.writer.write(() => {
        if (prev) this.staged.set(userId, prev)
        else this.staged.delete(userId)
      })
      return this.peek(userId)!
    })
  }

  availableCredits(userId: string): number {
    return this.available(userId)
  }

  /** Synchronous core of reserveCredit: check and hold in one tick. */
  reserveNow(userId: string): Reservation | undefined {
    if (this.ctx.closing || this.available(userId) < 1) return undefined
    return this.ledger.hold(userId)
  }

  reserveCredit(userId: string): Promise<Reservation | undefined> {
    return Promise.resolve(this.reserveNow(userId))
  }

  releaseCredit(reservation: Reservation): Promise<void> {
    this.ledger.end(reservation)
    return Promise.resolve()
  }

  async chargeCredit(reservation: Reservation): Promise<{ remaining: number }> {
    this.ctx.assertOpen()
    const userId = reservation.user_id
    // a reservation whose lease ran out (or that is being charged) no longer holds a credit
    let own: Reservation | undefined
    if (!this.ledger.isLive(reservation) || this.charging.has(reservation.id)) {
      own = this.reserveNow(userId)
      if (!own) throw new InsufficientCreditsError(userId)
    }
    const held = own ?? reservation
    this.charging.add(held.id)
    try {
      await this.ctx.enqueue(this.shards.of(userId), async () => {
        const prev = this.staged.get(userId)
        const base = prev ?? { id: userId, credits_granted: 0, created_at: iso(this.ctx.now()) }
        this.staged.set(userId, { ...base, credits_charged: (base.credits_charged ?? 0) + 1 })
        await this.writer.write(() => {
          if (prev) this.staged.set(userId, prev)
          else this.staged.delete(userId)
        })
      })
    } catch (err) {
      if (own) this.ledger.end(own)
      throw err
    } finally {
      this.charging.delete(held.id)
    }
    // the charge is on disk (and in the committed view): the reservation's hold ends
    this.ledger.end(held)
    return { remaining: this.available(userId) }
  }
}
