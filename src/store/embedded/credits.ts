/**
 * Where credits are reserved on the embedded backend. One process serves a data dir (the lock), so
 * reservations live in memory: a reservation is an id with a lease, held per user, and a process
 * that dies takes its reservations with it. The balance itself is durable: granted credits in
 * users.json, charged credits as the running counters of the newest shard (see shards.ts).
 */
import { randomUUID } from 'node:crypto'
import type { Reservation } from '../types.js'

export class CreditLedger {
  /** user id -> reservation id -> expires_at (epoch ms). */
  private readonly held = new Map<string, Map<string, number>>()

  constructor(
    private readonly leaseMs: number,
    private readonly now: () => number,
  ) {}

  /** Live reservations of a user (expired ones are dropped on the way). */
  live(userId: string): number {
    const m = this.held.get(userId)
    if (!m) return 0
    const now = this.now()
    for (const [id, exp] of m) if (exp <= now) m.delete(id)
    if (m.size === 0) this.held.delete(userId)
    return m.size
  }

  /** Holds one credit; the caller has checked that one is available (synchronously, same tick). */
  hold(userId: string): Reservation {
    const r = { id: randomUUID(), user_id: userId, expires_at: this.now() + this.leaseMs }
    let m = this.held.get(userId)
    if (!m) this.held.set(userId, (m = new Map()))
    m.set(r.id, r.expires_at)
    return r
  }

  /** Whether the reservation still holds a credit. */
  isLive(r: Reservation): boolean {
    const exp = this.held.get(r.user_id)?.get(r.id)
    return exp !== undefined && exp > this.now()
  }

  /** Ends a reservation (released or charged); false when it was no longer held. */
  end(r: Reservation): boolean {
    const m = this.held.get(r.user_id)
    if (!m?.delete(r.id)) return false
    if (m.size === 0) this.held.delete(r.user_id)
    return true
  }
}
