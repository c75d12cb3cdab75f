/**
 * Saved checks on PostgreSQL (the `checks` table). A commit is ONE statement, so one transaction:
 * it ends the reservation, charges the credit, moves the user's newest created_at on (at least
 * +1 ms, so created_at is unique per user and paging never skips or repeats) and inserts the
 * check; the user row lock serialises commits of one user across instances.
 *
 * One user's commits that arrive while one of theirs is in flight go together as one statement
 * (batch.ts): their reservations end, the user row moves once by their number, and the checks are
 * inserted with consecutive created_ms. A commit whose reservation is gone (released, swept, or
 * given twice) goes on its own afterwards, the single statement above.
 */
import { sql, type Kysely } from 'kysely'
import { InsufficientCreditsError } from '../errors.js'
import type {
  CheckRecord,
  CheckStore,
  ImportedCheck,
  ListChecksOptions,
  NewCheck,
  Reservation,
} from '../types.js'
import { isUuid, uuidv7 } from '../../shared/index.js'
import { KeyedBatcher, type Each } from './batch.js'
import type { Database } from './schema.js'

const IMPORT_BATCH = 1000

interface CheckRow {
  id: string
  user_id: string
  created_ms: string
  record: Record<string, unknown>
}

/**
 * A UUIDv7 (RFC 9562 §5.7) made in SQL from a millisecond column: the 48-bit time, then version 7,
 * then the random bits (and variant) of gen_random_uuid(), as uuid7.ts does in JavaScript.
 */
const UUID7_OF = (msColumn: string) =>
  sql.raw(
    `(lpad(to_hex(${msColumn}), 12, '0') || '7' || substr(replace(gen_random_uuid()::text, '-', ''), 14))::uuid`,
  )

export function toCheck(r: CheckRow): CheckRecord {
  return {
    id: r.id,
    ...(r.record as Omit<CheckRecord, 'id' | 'user_id' | 'created_at'>),
    user_id: r.user_id,
    created_at: new Date(Number(r.created_ms)).toISOString(),
  }
}

/** The stored json: the record without the columns kept apart (id, owner, time). */
export function recordJson(record: object): string {
  const { id: _i, user_id: _u, created_at: _c, ...rest } = record as Partial<CheckRecord>
  return JSON.stringify(rest)
}

/** Inserts checks with their ids and times; one already there (same id, or same user and time) is left as it is. */
export async function insertChecks(
  db: Kysely<Database>,
  userId: string,
  rows: { id: string; ms: number; json: string }[],
): Promise<number> {
  const result = await sql`
    INSERT INTO checks (id, user_id, created_ms, record)
    SELECT id, ${userId}, ms, rec FROM unnest(${rows.map((r) => r.id)}::uuid[], ${rows.map((r) => String(r.ms))}::bigint[], ${rows.map((r) => r.json)}::json[]) AS t(id, ms, rec)
    ON CONFLICT DO NOTHING`.execute(db)
  return Number(result.numAffectedRows ?? 0)
}

type Committed = { check: CheckRecord; remaining: number }

export class PgChecks implements CheckStore {
  private readonly committing = new KeyedBatcher<
    string,
    { reservation: Reservation; json: string },
    Committed
  >((userId, items) => this.commitMany(userId, items))

  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => number,
  ) {}

  async commit(reservation: Reservation, record: NewCheck): Promise<Committed> {
    const userId = record.user_id
    if (reservation.user_id !== userId) throw new RangeError('The reservation belongs to another user')
    return this.committing.submit(userId, { reservation, json: recordJson(record) })
  }

  /**
   * Commits of one user in ONE statement: each whose reservation row it deletes is charged and
   * saved, at consecutive created_ms; the rest go one by one through `commitOne`.
   */
  private async commitMany(
    userId: string,
    items: { reservation: Reservation; json: string }[],
  ): Promise<Each<Committed>[]> {
    if (items.length === 1) {
      const [{ reservation, json }] = items
      return [
        await this.commitOne(reservation, userId, json).then(
          (ok) => ({ ok }),
          (error) => ({ error }),
        ),
      ]
    }
    const ms = this.now()
    const ids = items.map((x) => x.reservation.id)
    const { rows } = await sql<{ i: string; id: string; created_ms: string; remaining: string }>`
      WITH t AS (
        SELECT * FROM unnest(${ids}::uuid[], ${items.map((x) => x.json)}::json[]) WITH ORDINALITY AS t(res_id, rec, i)
      ),
      r AS (
        DELETE FROM reservations WHERE id = ANY(${ids}::uuid[]) AND user_id = ${userId} RETURNING id
      ),
      -- a reservation given twice pays for its first commit only
      c AS (
        SELECT i, rec, row_number() OVER (ORDER BY i) AS k
        FROM (SELECT DISTINCT ON (t.res_id) t.i, t.rec FROM t JOIN r ON r.id = t.res_id ORDER BY t.res_id, t.i) f
      ),
      u AS (
        UPDATE users SET
          credits_held = credits_held - (SELECT count(*) FROM c),
          credits_used = credits_used + (SELECT count(*) FROM c),
          last_check_ms = greatest(${ms}::bigint, last_check_ms + 1) + (SELECT count(*) FROM c) - 1
        WHERE id = ${userId} AND EXISTS (SELECT 1 FROM c)
        RETURNING last_check_ms, credits_granted - credits_used - (
          SELECT count(*) FROM reservations x
          WHERE x.user_id = users.id AND x.expires_at > now() AND x.id <> ALL(${ids}::uuid[])
        ) AS remaining
      ),
      cc AS (
        SELECT c.i, c.rec, u.last_check_ms - (SELECT count(*) FROM c) + c.k AS ms, u.remaining FROM u, c
      ),
      ins AS (
        INSERT INTO checks (id, user_id, created_ms, record)
        SELECT ${UUID7_OF('cc.ms')}, ${userId}, cc.ms, cc.rec FROM cc
        RETURNING id, created_ms
      )
      SELECT cc.i, ins.id, ins.created_ms, cc.remaining FROM ins JOIN cc ON cc.ms = ins.created_ms`.execute(
      this.db,
    )
    const out: Each<Committed>[] = new Array(items.length)
    for (const row of rows) {
      const i = Number(row.i) - 1
      const check = toCheck({
        id: row.id,
        user_id: userId,
        created_ms: row.created_ms,
        record: JSON.parse(items[i].json),
      })
      out[i] = { ok: { check, remaining: Math.max(0, Number(row.remaining)) } }
    }
    // reservations it did not find: each charges a free credit, if any, on its own
    for (let i = 0; i < items.length; i++)
      if (!out[i])
        out[i] = await this.commitOne(items[i].reservation, userId, items[i].json).then(
          (ok) => ({ ok }),
          (error) => ({ error }),
        )
    return out
  }

  private async commitOne(reservation: Reservation, userId: string, json: string): Promise<Committed> {
    const ms = this.now()
    const { rows } = await sql<{ created_ms: string; id: string; remaining: string }>`
      WITH r AS (
        DELETE FROM reservations WHERE id = ${reservation.id}::uuid AND user_id = ${userId} RETURNING 1
      ),
      u AS (
        UPDATE users SET
          credits_held = credits_held - (SELECT count(*) FROM r),
          credits_used = credits_used + 1,
          last_check_ms = greatest(${ms}::bigint, last_check_ms + 1)
        -- a reservation whose row is gone (released, swept) charges a free credit, if any
        WHERE id = ${userId} AND (EXISTS (SELECT 1 FROM r) OR credits_granted - credits_used - credits_held >= 1)
        RETURNING last_check_ms, credits_granted - credits_used - (
          SELECT count(*) FROM reservations x
          WHERE x.user_id = users.id AND x.expires_at > now() AND x.id <> ${reservation.id}::uuid
        ) AS remaining
      ),
      c AS (
        INSERT INTO checks (id, user_id, created_ms, record)
        SELECT ${UUID7_OF('u.last_check_ms')}, ${userId}, u.last_check_ms, ${json}::json FROM u
        RETURNING id
      )
      SELECT u.last_check_ms AS created_ms, c.id, u.remaining FROM u, c`.execute(this.db)
    const row = rows[0]
    if (!row) throw new InsufficientCreditsError(userId)
    const check = toCheck({
      id: row.id,
      user_id: userId,
      created_ms: row.created_ms,
      record: JSON.parse(json),
    })
    return { check, remaining: Math.max(0, Number(row.remaining)) }
  }

  /** One transaction: all or nothing. */
  async import(userId: string, records: ImportedCheck[], createdAt?: Date[]): Promise<void> {
    if (createdAt && createdAt.length !== records.length)
      throw new RangeError('createdAt must have one date per record')
    const now = this.now()
    const n = records.length
    const order = records.map((_, i) => ({ i, t: createdAt ? createdAt[i].getTime() : now - (n - 1 - i) }))
    if (order.some((o) => !Number.isFinite(o.t))) throw new RangeError('createdAt holds an invalid date')
    if (n === 0) return
    order.sort((a, b) => a.t - b.t || a.i - b.i)
    await this.db.transaction().execute(async (trx) => {
      await sql`
        INSERT INTO users (id, credits_granted, created_at) VALUES (${userId}, 0, ${new Date(now)})
        ON CONFLICT (id) DO NOTHING`.execute(trx)
      const { rows } = await sql<{ last: string }>`
        SELECT last_check_ms AS last FROM users WHERE id = ${userId} FOR UPDATE`.execute(trx)
      let last = Number(rows[0].last)
      const stamped = order.map(({ i, t }) => {
        const ms = Math.max(Math.trunc(t), last + 1)
        last = ms
        return { id: uuidv7(ms), ms, json: recordJson(records[i]) }
      })
      for (let off = 0; off < stamped.length; off += IMPORT_BATCH)
        await insertChecks(trx, userId, stamped.slice(off, off + IMPORT_BATCH))
      await sql`
        UPDATE users SET credits_granted = credits_granted + ${n}, credits_used = credits_used + ${n},
          last_check_ms = greatest(last_check_ms, ${last}::bigint)
        WHERE id = ${userId}`.execute(trx)
    })
  }

  async get(userId: string, id: string): Promise<CheckRecord | undefined> {
    if (!isUuid(id)) return undefined
    const row = await this.db
      .selectFrom('checks')
      .select(['id', 'user_id', 'created_ms', 'record'])
      .where('id', '=', id.toLowerCase())
      .where('user_id', '=', userId)
      .executeTakeFirst()
    return row && toCheck(row)
  }

  async list(
    userId: string,
    opts: ListChecksOptions,
  ): Promise<{ items: CheckRecord[]; next: string | null }> {
    const limit = Math.floor(opts.limit)
    if (!(limit >= 1)) throw new RangeError(`limit must be >= 1, got ${opts.limit}`)
    let q = this.db
      .selectFrom('checks')
      .select(['id', 'user_id', 'created_ms', 'record'])
      .where('user_id', '=', userId)
    if (opts.before !== undefined) {
      const before = Date.parse(opts.before)
      if (Number.isNaN(before)) throw new RangeError(`before is not a date: ${opts.before}`)
      q = q.where('created_ms', '<', String(Math.ceil(before)))
    }
    const rows = await q
      .orderBy('created_ms', 'desc')
      .limit(limit + 1)
      .execute()
    const items = rows.slice(0, limit).map(toCheck)
    return { items, next: rows.length > limit ? items[limit - 1].created_at : null }
  }
}
