/** Users and their balances on PostgreSQL (the `users` table); reservations are in credits.ts. */
import { sql, type Kysely } from 'kysely'
import { assertCount } from '../errors.js'
import type { Reservation, UserRecord, UserStore } from '../types.js'
import type { PgCredits } from './credits.js'
import type { Database } from './schema.js'

interface UserRow {
  id: string
  credits_granted: string
  credits_used: string
  created_at: Date
}

export const toUser = (r: UserRow): UserRecord => ({
  id: r.id,
  credits_granted: Number(r.credits_granted),
  credits_used: Number(r.credits_used),
  created_at: r.created_at.toISOString(),
})

export class PgUsers implements UserStore {
  constructor(
    private readonly db: Kysely<Database>,
    readonly credits: PgCredits,
    private readonly now: () => number,
  ) {}

  async get(userId: string): Promise<UserRecord | undefined> {
    const row = await this.db
      .selectFrom('users')
      .select(['id', 'credits_granted', 'credits_used', 'created_at'])
      .where('id', '=', userId)
      .executeTakeFirst()
    return row && toUser(row)
  }

  async ensure(userId: string, initialCredits: number): Promise<UserRecord> {
    assertCount('initialCredits', initialCredits)
    const { rows } = await sql<UserRow>`
      WITH ins AS (
        INSERT INTO users (id, credits_granted, created_at) VALUES (${userId}, ${initialCredits}, ${new Date(this.now())})
        ON CONFLICT (id) DO NOTHING
        RETURNING id, credits_granted, credits_used, created_at
      )
      SELECT * FROM ins
      UNION ALL
      SELECT id, credits_granted, credits_used, created_at FROM users WHERE id = ${userId} AND NOT EXISTS (SELECT 1 FROM ins)`.execute(
      this.db,
    )
    // the UNION's second branch reads the snapshot taken before a concurrent insert committed
    return rows[0] ? toUser(rows[0]) : (await this.get(userId))!
  }

  async grantCredits(userId: string, amount: number): Promise<UserRecord> {
    assertCount('amount', amount)
    const { rows } = await sql<UserRow>`
      INSERT INTO users (id, credits_granted, created_at) VALUES (${userId}, ${amount}, ${new Date(this.now())})
      ON CONFLICT (id) DO UPDATE SET credits_granted = users.credits_granted + EXCLUDED.credits_granted
      RETURNING id, credits_granted, credits_used, created_at`.execute(this.db)
    return toUser(rows[0])
  }

  availableCredits(userId: string): Promise<number> {
    return this.credits.available(userId)
  }

  reserveCredit(userId: string): Promise<Reservation | undefined> {
    return this.credits.reserve(userId)
  }

  releaseCredit(reservation: Reservation): Promise<void> {
    return this.credits.release(reservation)
  }

  chargeCredit(reservation: Reservation): Promise<{ remaining: number }> {
    return this.credits.charge(reservation)
  }
}
