/**
 * Dashboard accounts on PostgreSQL (docs/decisions.md#accounts-and-the-dashboard): the accounts, sessions, invites and
 * device_grants tables (migration 0003). Nothing is cached per process, so a session made or
 * ended through one instance, or a device grant approved through one, is seen by every other at
 * its next request. Every state change that must happen once (an invite used, a grant approved
 * or collected) is one conditional UPDATE, so two instances racing cannot both win. Expired rows
 * are deleted when a new one of the same kind is written (an indexed range delete), as the
 * embedded store drops them at its next write.
 */
import { RateLimiterMemory, RateLimiterPostgres, type RateLimiterAbstract } from 'rate-limiter-flexible'
import { sql, type Kysely, type RawBuilder } from 'kysely'
import type pg from 'pg'
import type {
  AccountRecord,
  AccountStore,
  DeviceGrantRecord,
  DeviceGrantStatus,
  InviteRecord,
  InviteRedemption,
  LimiterOptions,
  SessionRecord,
} from '../accounts.js'
import { DuplicateEmailError } from '../errors.js'
import type { Database } from './schema.js'

type Iso = Date | null

const iso = (d: Iso): string | null => (d === null ? null : d.toISOString())

interface AccountRow extends Omit<AccountRecord, 'disabled_at' | 'created_at'> {
  disabled_at: Iso
  created_at: Date
}
const toAccount = (r: AccountRow): AccountRecord => ({
  id: r.id,
  email: r.email,
  password_hash: r.password_hash,
  user_id: r.user_id,
  admin: r.admin,
  disabled_at: iso(r.disabled_at),
  created_at: r.created_at.toISOString(),
})

interface SessionRow {
  id: string
  account_id: string
  csrf: string
  created_at: Date
  expires_at: Date
}
const toSession = (r: SessionRow): SessionRecord => ({
  id: r.id,
  account_id: r.account_id,
  csrf: r.csrf,
  created_at: r.created_at.toISOString(),
  expires_at: r.expires_at.toISOString(),
})

interface InviteRow extends Omit<InviteRecord, 'credits' | 'created_at' | 'expires_at' | 'used_at'> {
  credits: string | null
  created_at: Date
  expires_at: Date
  used_at: Iso
}
const toInvite = (r: InviteRow): InviteRecord => ({
  id: r.id,
  kind: r.kind,
  account_id: r.account_id,
  email: r.email,
  admin: r.admin,
  credits: r.credits === null ? null : Number(r.credits),
  created_at: r.created_at.toISOString(),
  expires_at: r.expires_at.toISOString(),
  used_at: iso(r.used_at),
})

interface GrantRow extends Omit<DeviceGrantRecord, 'created_at' | 'expires_at' | 'polled_at'> {
  created_at: Date
  expires_at: Date
  polled_at: Iso
}
const toGrant = (r: GrantRow): DeviceGrantRecord => ({
  id: r.id,
  user_code: r.user_code,
  name: r.name,
  status: r.status,
  account_id: r.account_id,
  key_id: r.key_id,
  created_at: r.created_at.toISOString(),
  expires_at: r.expires_at.toISOString(),
  polled_at: iso(r.polled_at),
  client_address: r.client_address ?? null,
})

/** Columns a patch may set, with how each value is cast. */
const ACCOUNT_PATCH = {
  email: 'text',
  password_hash: 'text',
  admin: 'boolean',
  disabled_at: 'timestamptz',
  created_at: 'timestamptz',
} as const
const GRANT_PATCH = {
  user_code: 'text',
  name: 'text',
  status: 'text',
  account_id: 'text',
  key_id: 'text',
  created_at: 'timestamptz',
  expires_at: 'timestamptz',
  polled_at: 'timestamptz',
} as const

/** `col = $n::type, …` for the keys of `patch` that `allowed` names (undefined values skipped). */
function assignments(patch: Record<string, unknown>, allowed: Record<string, string>): RawBuilder<unknown>[] {
  return Object.entries(patch)
    .filter(([k, v]) => k in allowed && v !== undefined)
    .map(([k, v]) => sql`${sql.ref(k)} = ${v}::${sql.raw(allowed[k])}`)
}

const isUniqueViolation = (err: unknown, constraint: string) =>
  (err as { code?: string; constraint?: string }).code === '23505' &&
  (err as { constraint?: string }).constraint === constraint

export interface PgAccountsOptions {
  /** Clock in epoch ms: what "expired" means (tests). */
  now?: () => number
}

export class PgAccounts implements AccountStore {
  private readonly now: () => number

  constructor(
    private readonly db: Kysely<Database>,
    private readonly pool: pg.Pool,
    o: PgAccountsOptions = {},
  ) {
    this.now = o.now ?? Date.now
  }

  private nowIso() {
    return new Date(this.now()).toISOString()
  }

  async createAccount(account: AccountRecord): Promise<AccountRecord> {
    try {
      await sql`
        INSERT INTO accounts (id, email, password_hash, user_id, admin, disabled_at, created_at)
        VALUES (${account.id}, ${account.email}, ${account.password_hash}, ${account.user_id}, ${account.admin},
          ${account.disabled_at}::timestamptz, ${account.created_at}::timestamptz)`.execute(this.db)
    } catch (err) {
      if (isUniqueViolation(err, 'accounts_by_email')) throw new DuplicateEmailError(account.email)
      throw err
    }
    return account
  }

  private async oneAccount(where: RawBuilder<unknown>): Promise<AccountRecord | undefined> {
    const { rows } = await sql<AccountRow>`SELECT * FROM accounts WHERE ${where} LIMIT 1`.execute(this.db)
    return rows[0] && toAccount(rows[0])
  }

  getAccount(id: string) {
    return this.oneAccount(sql`id = ${id}`)
  }
  findAccountByEmail(email: string) {
    return this.oneAccount(sql`email = ${email}`)
  }
  findAccountByUser(userId: string) {
    return this.oneAccount(sql`user_id = ${userId}`)
  }
  async listAccounts(): Promise<AccountRecord[]> {
    const { rows } = await sql<AccountRow>`SELECT * FROM accounts ORDER BY created_at, id`.execute(this.db)
    return rows.map(toAccount)
  }

  async updateAccount(
    id: string,
    patch: Partial<Omit<AccountRecord, 'id' | 'user_id'>>,
  ): Promise<AccountRecord | undefined> {
    const set = assignments(patch, ACCOUNT_PATCH)
    if (set.length === 0) return this.getAccount(id)
    try {
      const { rows } = await sql<AccountRow>`
        UPDATE accounts SET ${sql.join(set)} WHERE id = ${id} RETURNING *`.execute(this.db)
      return rows[0] && toAccount(rows[0])
    } catch (err) {
      if (isUniqueViolation(err, 'accounts_by_email')) throw new DuplicateEmailError(String(patch.email))
      throw err
    }
  }

  async createSession(s: SessionRecord): Promise<void> {
    await sql`DELETE FROM sessions WHERE expires_at <= ${this.nowIso()}::timestamptz`.execute(this.db)
    await sql`
      INSERT INTO sessions (id, account_id, csrf, created_at, expires_at)
      VALUES (${s.id}, ${s.account_id}, ${s.csrf}, ${s.created_at}::timestamptz, ${s.expires_at}::timestamptz)`.execute(
      this.db,
    )
  }
  async getSession(id: string): Promise<SessionRecord | undefined> {
    const { rows } = await sql<SessionRow>`
      SELECT * FROM sessions WHERE id = ${id} AND expires_at > ${this.nowIso()}::timestamptz`.execute(this.db)
    return rows[0] && toSession(rows[0])
  }
  async deleteSession(id: string): Promise<void> {
    await sql`DELETE FROM sessions WHERE id = ${id}`.execute(this.db)
  }
  async deleteSessionsOf(accountId: string, except?: string): Promise<void> {
    await sql`
      DELETE FROM sessions WHERE account_id = ${accountId} AND id IS DISTINCT FROM ${except ?? null}`.execute(
      this.db,
    )
  }

  async createInvite(i: InviteRecord): Promise<void> {
    await sql`
      DELETE FROM invites WHERE expires_at <= ${this.nowIso()}::timestamptz OR used_at IS NOT NULL`.execute(
      this.db,
    )
    await sql`
      INSERT INTO invites (id, kind, account_id, email, admin, credits, created_at, expires_at, used_at)
      VALUES (${i.id}, ${i.kind}, ${i.account_id}, ${i.email}, ${i.admin}, ${i.credits},
        ${i.created_at}::timestamptz, ${i.expires_at}::timestamptz, ${i.used_at}::timestamptz)`.execute(
      this.db,
    )
  }
  async getInvite(id: string): Promise<InviteRecord | undefined> {
    const { rows } = await sql<InviteRow>`
      SELECT * FROM invites
      WHERE id = ${id} AND used_at IS NULL AND expires_at > ${this.nowIso()}::timestamptz`.execute(this.db)
    return rows[0] && toInvite(rows[0])
  }
  async useInvite(id: string, at: string): Promise<boolean> {
    const r = await sql`
      UPDATE invites SET used_at = ${at}::timestamptz
      WHERE id = ${id} AND used_at IS NULL AND expires_at > ${at}::timestamptz`.execute(this.db)
    return Number(r.numAffectedRows ?? 0) > 0
  }

  /**
   * One transaction: the conditional UPDATE claims the link (a racing transaction waits on the
   * row, then finds it used), then the account is inserted; a taken email rolls the claim back.
   */
  async redeemInvite(id: string, at: string, account: AccountRecord): Promise<InviteRedemption> {
    const outcome = await this.db
      .transaction()
      .execute(async (trx) => {
        const claim = await sql`
          UPDATE invites SET used_at = ${at}::timestamptz
          WHERE id = ${id} AND used_at IS NULL AND expires_at > ${at}::timestamptz`.execute(trx)
        if (Number(claim.numAffectedRows ?? 0) === 0) return 'used' as const
        await sql`
          INSERT INTO accounts (id, email, password_hash, user_id, admin, disabled_at, created_at)
          VALUES (${account.id}, ${account.email}, ${account.password_hash}, ${account.user_id},
            ${account.admin}, ${account.disabled_at}::timestamptz, ${account.created_at}::timestamptz)`.execute(
          trx,
        )
        return 'redeemed' as const
      })
      .catch((err: unknown) => {
        if (isUniqueViolation(err, 'accounts_by_email')) return 'email_taken' as const
        throw err
      })
    return outcome
  }

  async createDeviceGrant(g: DeviceGrantRecord): Promise<void> {
    await sql`DELETE FROM device_grants WHERE expires_at <= ${this.nowIso()}::timestamptz`.execute(this.db)
    await sql`
      INSERT INTO device_grants (id, user_code, name, status, account_id, key_id, created_at, expires_at, polled_at,
        client_address)
      VALUES (${g.id}, ${g.user_code}, ${g.name}, ${g.status}, ${g.account_id}, ${g.key_id},
        ${g.created_at}::timestamptz, ${g.expires_at}::timestamptz, ${g.polled_at}::timestamptz,
        ${g.client_address})`.execute(this.db)
  }
  async getDeviceGrant(id: string): Promise<DeviceGrantRecord | undefined> {
    const { rows } = await sql<GrantRow>`SELECT * FROM device_grants WHERE id = ${id}`.execute(this.db)
    return rows[0] && toGrant(rows[0])
  }
  async findDeviceGrantByUserCode(userCode: string): Promise<DeviceGrantRecord | undefined> {
    const { rows } = await sql<GrantRow>`SELECT * FROM device_grants WHERE user_code = ${userCode}`.execute(
      this.db,
    )
    return rows[0] && toGrant(rows[0])
  }
  async transitionDeviceGrant(
    id: string,
    from: DeviceGrantStatus,
    patch: Partial<DeviceGrantRecord>,
  ): Promise<boolean> {
    const set = assignments(patch, GRANT_PATCH)
    if (set.length === 0) set.push(sql`status = status`)
    const r = await sql`
      UPDATE device_grants SET ${sql.join(set)} WHERE id = ${id} AND status = ${from}`.execute(this.db)
    return Number(r.numAffectedRows ?? 0) > 0
  }
  async expirePendingDeviceGrants(at: string): Promise<number> {
    const r = await sql`
      UPDATE device_grants SET expires_at = ${at}::timestamptz
      WHERE status = 'pending' AND expires_at > ${at}::timestamptz`.execute(this.db)
    return Number(r.numAffectedRows ?? 0)
  }
  async touchDeviceGrant(id: string, at: string): Promise<string | null> {
    // the row lock orders polls arriving through different instances: each sees the one before
    return this.db.transaction().execute(async (trx) => {
      const { rows } = await sql<{ polled_at: Iso }>`
        SELECT polled_at FROM device_grants WHERE id = ${id} FOR UPDATE`.execute(trx)
      if (!rows[0]) return null
      await sql`UPDATE device_grants SET polled_at = ${at}::timestamptz WHERE id = ${id}`.execute(trx)
      return iso(rows[0].polled_at)
    })
  }

  /**
   * Limiters that hold across every instance on this database: rate-limiter-flexible's
   * PostgreSQL store on the store's own pool (the table is made by migration 0003). If the
   * database does not answer, a per-process memory limiter stands in (the library's insurance),
   * so a database hiccup neither lets unlimited guesses through nor turns sign-in into a 500.
   */
  limiter(o: LimiterOptions): RateLimiterAbstract {
    return new RateLimiterPostgres({
      storeClient: this.pool,
      storeType: 'pool',
      tableName: 'account_throttle',
      tableCreated: true,
      points: o.points,
      duration: o.duration,
      keyPrefix: o.keyPrefix,
      insuranceLimiter: new RateLimiterMemory(o),
    })
  }
}
