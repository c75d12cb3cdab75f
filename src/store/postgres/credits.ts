/**
 * Where credits are reserved on PostgreSQL. The user row carries the counters (granted, used,
 * held) and a CHECK constraint keeps used + held <= granted, so no interleaving of instances can
 * overspend. A reservation is a row with a lease (expires_at) and is taken in ONE statement that
 * raises `held` only where a credit is free and inserts the row: concurrent reservations serialise
 * on the user row. A reservation left by a dead instance is swept back once its lease ran out: at
 * once for a user whose reservation would otherwise fail, and for everyone every few seconds.
 *
 * One user's reservations that arrive while one of theirs is in flight go together as one
 * statement (batch.ts): a user with thousands of monitors updates their row once for many runs
 * instead of once per run, each update waiting for the one before it to be flushed to disk.
 */
import { randomUUID } from 'node:crypto'
import { sql, type Kysely } from 'kysely'
import { InsufficientCreditsError } from '../errors.js'
import type { Reservation } from '../types.js'
import { KeyedBatcher, type Each } from './batch.js'
import type { Database } from './schema.js'

/** A key for pg_try_advisory_xact_lock: one global sweeper at a time (two could deadlock on users rows). */
const SWEEP_LOCK = 0x5173_7765 // "Sswe"

export class PgCredits {
  constructor(
    private readonly db: Kysely<Database>,
    readonly leaseMs: number,
  ) {}

  private readonly reserving = new KeyedBatcher<string, null, Reservation | undefined>((userId, items) =>
    this.reserveMany(userId, items.length),
  )

  /**
   * Up to `n` reservations of one user in ONE statement: as many as the user has credits free
   * (the row is locked first, so the count is taken from its newest version). Those it could not
   * make come back undefined.
   */
  private async tryReserve(userId: string, n: number): Promise<Reservation[]> {
    const ids = Array.from({ length: n }, () => randomUUID())
    const { rows } = await sql<{ id: string; expires_ms: string }>`
      WITH cur AS (
        SELECT id, least(${n}::int, credits_granted - credits_used - credits_held) AS n
        FROM users WHERE id = ${userId} FOR UPDATE
      ),
      u AS (
        UPDATE users SET credits_held = users.credits_held + cur.n
        FROM cur WHERE users.id = cur.id AND cur.n >= 1
        RETURNING cur.n
      )
      INSERT INTO reservations (id, user_id, expires_at)
      SELECT t.id, ${userId}, now() + make_interval(secs => ${this.leaseMs / 1000})
      FROM u, unnest(${ids}::uuid[]) WITH ORDINALITY AS t(id, i)
      WHERE t.i <= u.n
      RETURNING id, floor(extract(epoch FROM expires_at) * 1000)::bigint AS expires_ms`.execute(this.db)
    return rows.map((r) => ({ id: r.id, user_id: userId, expires_at: Number(r.expires_ms) }))
  }

  private async reserveMany(userId: string, n: number): Promise<Each<Reservation | undefined>[]> {
    const got = await this.tryReserve(userId, n)
    // short: perhaps some credits are held by reservations whose lease ran out
    if (got.length < n && (await this.sweep(userId)) > 0)
      got.push(...(await this.tryReserve(userId, n - got.length)))
    return Array.from({ length: n }, (_, i) => ({ ok: got[i] }))
  }

  reserve(userId: string): Promise<Reservation | undefined> {
    return this.reserving.submit(userId, null)
  }

  async release(r: Reservation): Promise<void> {
    await sql`
      WITH r AS (DELETE FROM reservations WHERE id = ${r.id}::uuid AND user_id = ${r.user_id} RETURNING user_id)
      UPDATE users SET credits_held = credits_held - 1 FROM r WHERE users.id = r.user_id`.execute(this.db)
  }

  /**
   * Charges a reservation with no check saved, in ONE statement: it ends the reservation and moves
   * the credit from held to used; a reservation whose row is gone (released, swept, charged) charges
   * a free credit, if any, as a commit does (checks.ts).
   */
  async charge(r: Reservation): Promise<{ remaining: number }> {
    const { rows } = await sql<{ remaining: string }>`
      WITH r AS (DELETE FROM reservations WHERE id = ${r.id}::uuid AND user_id = ${r.user_id} RETURNING 1)
      UPDATE users SET
        credits_held = credits_held - (SELECT count(*) FROM r),
        credits_used = credits_used + 1
      WHERE id = ${r.user_id} AND (EXISTS (SELECT 1 FROM r) OR credits_granted - credits_used - credits_held >= 1)
      RETURNING credits_granted - credits_used - (
        SELECT count(*) FROM reservations x
        WHERE x.user_id = users.id AND x.expires_at > now() AND x.id <> ${r.id}::uuid
      ) AS remaining`.execute(this.db)
    if (!rows[0]) throw new InsufficientCreditsError(r.user_id)
    return { remaining: Math.max(0, Number(rows[0].remaining)) }
  }

  /**
   * Returns expired reservations' credits: of one user, or of everyone (then only when no other
   * instance is sweeping right now). Rows locked by a commit in progress are skipped. Returns how
   * many were returned.
   */
  async sweep(userId?: string): Promise<number> {
    const statement = sql<{ n: string }>`
      WITH gone AS (
        DELETE FROM reservations WHERE id IN (
          SELECT id FROM reservations
          WHERE expires_at <= now() ${userId === undefined ? sql`` : sql`AND user_id = ${userId}`}
          FOR UPDATE SKIP LOCKED
        )
        RETURNING user_id
      ),
      n AS (SELECT user_id, count(*)::int AS n FROM gone GROUP BY user_id),
      upd AS (
        UPDATE users SET credits_held = users.credits_held - n.n FROM n WHERE users.id = n.user_id RETURNING n.n
      )
      SELECT coalesce(sum(n), 0)::int AS n FROM upd`
    if (userId !== undefined) return Number((await statement.execute(this.db)).rows[0]?.n ?? 0)
    return this.db.transaction().execute(async (trx) => {
      const { rows } = await sql<{
        got: boolean
      }>`SELECT pg_try_advisory_xact_lock(${SWEEP_LOCK}) AS got`.execute(trx)
      if (!rows[0]?.got) return 0
      return Number((await statement.execute(trx)).rows[0]?.n ?? 0)
    })
  }

  /** Live reservations are subtracted from the balance (expired ones no longer count, swept or not). */
  async available(userId: string): Promise<number> {
    const { rows } = await sql<{ n: string }>`
      SELECT greatest(0, u.credits_granted - u.credits_used - (
        SELECT count(*) FROM reservations r WHERE r.user_id = u.id AND r.expires_at > now()
      )) AS n
      FROM users u WHERE u.id = ${userId}`.execute(this.db)
    return rows[0] ? Number(rows[0].n) : 0
  }
}
