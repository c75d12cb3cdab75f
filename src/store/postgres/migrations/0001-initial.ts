/**
 * Version 1: users with their credit counters, reservations with leases, API keys, saved checks.
 * Indexes are the ones the real queries use: checks by (user_id, created_ms) for recent-first
 * paging (unique: created_at is unique per user), check by id (primary key), key by hash (unique),
 * reservations by expiry (the sweep) and by user (the live count of the balance).
 */
import { sql, type Kysely, type Migration } from 'kysely'

export const initial: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await sql`
      CREATE TABLE users (
        id text PRIMARY KEY,
        credits_granted bigint NOT NULL DEFAULT 0,
        credits_used bigint NOT NULL DEFAULT 0,
        credits_held integer NOT NULL DEFAULT 0,
        last_check_ms bigint NOT NULL DEFAULT -1,
        created_at timestamptz NOT NULL,
        -- the balance can never go below zero, whatever the number of instances
        CONSTRAINT users_balance_not_negative CHECK (credits_used + credits_held <= credits_granted),
        CONSTRAINT users_held_not_negative CHECK (credits_held >= 0)
      )`.execute(db)
    await sql`
      CREATE TABLE reservations (
        id uuid PRIMARY KEY,
        user_id text NOT NULL,
        expires_at timestamptz NOT NULL
      )`.execute(db)
    await sql`CREATE INDEX reservations_by_expiry ON reservations (expires_at)`.execute(db)
    await sql`CREATE INDEX reservations_by_user ON reservations (user_id, expires_at)`.execute(db)
    await sql`
      CREATE TABLE api_keys (
        id text PRIMARY KEY,
        name text NOT NULL,
        user_id text NOT NULL,
        prefix text NOT NULL,
        hash text NOT NULL,
        created_at timestamptz NOT NULL,
        last_used_at timestamptz,
        revoked_at timestamptz
      )`.execute(db)
    await sql`CREATE UNIQUE INDEX api_keys_by_hash ON api_keys (hash)`.execute(db)
    await sql`CREATE INDEX api_keys_by_created ON api_keys (created_at DESC, id DESC)`.execute(db)
    await sql`
      CREATE TABLE checks (
        id uuid PRIMARY KEY,
        user_id text NOT NULL,
        created_ms bigint NOT NULL,
        record json NOT NULL
      )`.execute(db)
    await sql`CREATE UNIQUE INDEX checks_by_user_created ON checks (user_id, created_ms DESC)`.execute(db)
  },
  async down(db: Kysely<unknown>): Promise<void> {
    for (const t of ['checks', 'api_keys', 'reservations', 'users'])
      await sql`DROP TABLE ${sql.table(t)}`.execute(db)
  },
}
