/**
 * Version 3: dashboard accounts (docs/decisions.md#accounts-and-the-dashboard), their sessions, invite / set-password links and
 * device-grant requests, plus the table the sign-in throttle keeps its counters in
 * (rate-limiter-flexible's RateLimiterPostgres layout), so throttling holds across instances.
 * Indexes are the real lookups: account by email (unique: one account per email, across
 * instances too) and by user; session by its token hash (primary key) and by account (sign out
 * everywhere); grant by its user code (unique while stored); expiry columns for the clean-up.
 */
import { sql, type Kysely, type Migration } from 'kysely'

export const accounts: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await sql`
      CREATE TABLE accounts (
        id text PRIMARY KEY,
        email text NOT NULL,
        password_hash text,
        user_id text NOT NULL,
        admin boolean NOT NULL,
        disabled_at timestamptz,
        created_at timestamptz NOT NULL
      )`.execute(db)
    await sql`CREATE UNIQUE INDEX accounts_by_email ON accounts (email)`.execute(db)
    await sql`CREATE INDEX accounts_by_user ON accounts (user_id)`.execute(db)
    await sql`
      CREATE TABLE sessions (
        id text PRIMARY KEY,
        account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
        csrf text NOT NULL,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL
      )`.execute(db)
    await sql`CREATE INDEX sessions_by_account ON sessions (account_id)`.execute(db)
    await sql`CREATE INDEX sessions_by_expiry ON sessions (expires_at)`.execute(db)
    await sql`
      CREATE TABLE invites (
        id text PRIMARY KEY,
        kind text NOT NULL CHECK (kind IN ('invite', 'setup')),
        account_id text,
        email text,
        admin boolean NOT NULL,
        credits bigint,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        used_at timestamptz
      )`.execute(db)
    await sql`CREATE INDEX invites_by_expiry ON invites (expires_at)`.execute(db)
    await sql`
      CREATE TABLE device_grants (
        id text PRIMARY KEY,
        user_code text NOT NULL,
        name text NOT NULL,
        status text NOT NULL CHECK (status IN ('pending', 'approved', 'denied', 'used')),
        account_id text,
        key_id text,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        polled_at timestamptz
      )`.execute(db)
    await sql`CREATE UNIQUE INDEX device_grants_by_user_code ON device_grants (user_code)`.execute(db)
    await sql`CREATE INDEX device_grants_by_expiry ON device_grants (expires_at)`.execute(db)
    // the layout RateLimiterPostgres expects (it is told the table exists, so it never creates it)
    await sql`
      CREATE TABLE account_throttle (
        key varchar(255) PRIMARY KEY,
        points integer NOT NULL DEFAULT 0,
        expire bigint
      )`.execute(db)
  },
  async down(db: Kysely<unknown>): Promise<void> {
    for (const t of ['account_throttle', 'device_grants', 'invites', 'sessions', 'accounts'])
      await sql`DROP TABLE ${sql.table(t)}`.execute(db)
  },
}
