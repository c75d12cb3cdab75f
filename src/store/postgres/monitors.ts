/**
 * Monitors on PostgreSQL (the monitors, monitor_runs and monitor_events tables). Several
 * instances share the schedule: `claimDue` takes due rows with `FOR UPDATE SKIP LOCKED` and marks
 * them with a lease (claimed_until_ms) in the same statement, so each due run goes to exactly one
 * instance; a run held by an instance that died is taken over once its lease has passed. Leased
 * rows rather than a job queue (pg-boss, graphile-worker): a monitor is already a row with its
 * next run time, so one indexed UPDATE is the whole queue, with no second copy of the schedule
 * to keep in step.
 */
import { sql, type CompiledQuery, type Kysely } from 'kysely'
import pg from 'pg'
import type { Delivery } from '../../contract/monitors.js'
import type { Claim } from '../schedule.js'
import type { EventRecord, NewRun, RunRecord } from '../run-log.js'
import { located } from '../rules/location.js'
import type {
  IncidentRecord,
  RollupBucket,
  RollupCounts,
  RollupGranularity,
  RollupTotals,
  RunHistory,
} from '../history.js'
import type { CreateMonitorOptions, MonitorListQuery, MonitorRecord, Page, PageOptions } from '../monitors.js'
import type { MonitorStore } from '../types.js'
import { DuplicateRefError, MonitorLimitError } from '../errors.js'
import { keptFrom } from '../rules/buckets.js'
import {
  historySql,
  pruneHistory,
  readCountsOf,
  readIncidents,
  readIncidentsOf,
  readRollups,
  readRollupsOf,
  readTotals,
} from './history.js'
import { readResponseTimes, readRuns, runInsertSql } from './runs.js'
import { inline, KeyedBatcher, type Each } from './batch.js'
import type { Database } from './schema.js'
import type { ChannelSealer } from '../channels.js'
import { withSealedChannels } from './channels.js'
import { claimDeliveries, releaseDeliveries, updateDelivery } from './delivery-queue.js'
import { isUuid } from '../../shared/index.js'

/** A claim outlives the longest check (120 s) by a minute before another instance may take it. */
export const DEFAULT_CLAIM_LEASE_MS = 180_000
/** Raw runs (and events) kept per monitor; older runs live on in the rollups. */
export const DEFAULT_PG_HISTORY_LIMIT = 1000

interface MonitorRow {
  id: string
  user_id: string
  next_run_ms: string | null
  record: MonitorRecord
  /** The row version (xmin), where asked for. */
  version?: string
}

function toMonitor(r: MonitorRow, seal: ChannelSealer | undefined): MonitorRecord {
  return {
    ...withSealedChannels(r.record, seal),
    id: r.id,
    user_id: r.user_id,
    next_run_at: r.next_run_ms === null ? null : Number(r.next_run_ms),
  }
}

/** A write refused by the unique index of refs (migration 0007) as the store's own error. */
function refClash(err: unknown, m: MonitorRecord): unknown {
  const e = err as { code?: string; constraint?: string }
  return e?.code === '23505' && e.constraint === 'monitors_user_ref' && m.ref
    ? new DuplicateRefError(m.ref)
    : err
}

const ms = (v: number | null) => (v === null ? null : String(Math.trunc(v)))

/** An event with a delivery still to make (the `pending` column). */
const pendingOf = (e: EventRecord) => e.deliveries.some((d) => d.status === 'pending')

export interface PgMonitorsOptions {
  /** The driver's pool under the Kysely instance: with it, finishRun group-commits (finishMany). */
  pool?: pg.Pool
  claimLeaseMs?: number
  /** Runs and events kept per monitor (default 1,000: docs/decisions.md#monitoring-depth). */
  historyLimit?: number
  now?: () => number
  /** Seals channels a record holds in clear (channels.ts). */
  sealChannels?: ChannelSealer
}

export class PgMonitors implements MonitorStore {
  private readonly leaseMs: number
  private readonly historyLimit: number
  private readonly now: () => number
  private readonly pool: pg.Pool | undefined
  private readonly toMonitor: (r: MonitorRow) => MonitorRecord
  private readonly finishing = new KeyedBatcher<null, CompiledQuery<{ n: string }>, boolean>((_, items) =>
    this.finishMany(items),
  )

  constructor(
    private readonly db: Kysely<Database>,
    o: PgMonitorsOptions = {},
  ) {
    this.pool = o.pool
    this.leaseMs = o.claimLeaseMs ?? DEFAULT_CLAIM_LEASE_MS
    this.historyLimit = o.historyLimit ?? DEFAULT_PG_HISTORY_LIMIT
    this.now = o.now ?? Date.now
    this.toMonitor = (r) => toMonitor(r, o.sealChannels)
  }

  async createMonitor(m: MonitorRecord, opts: CreateMonitorOptions = {}): Promise<MonitorRecord> {
    const insert = (db: Kysely<Database>) =>
      sql`
      INSERT INTO monitors (id, user_id, next_run_ms, paused, paused_reason, record)
      VALUES (${m.id}, ${m.user_id}, ${ms(m.next_run_at)}, ${m.paused}, ${m.paused_reason}, ${JSON.stringify(m)})`
        .execute(db)
        .catch((err: unknown) => {
          throw refClash(err, m)
        })
    const max = opts.maxPerUser
    if (max === undefined) {
      await insert(this.db)
      return m
    }
    // One user's capped creates queue on a lock held to commit, and each counts in a statement
    // after taking it, so it sees every create before it (one statement would count on a
    // snapshot taken before the lock): racing creates, on any instance, cannot pass the cap.
    await this.db.transaction().execute(async (trx) => {
      await sql`SELECT pg_advisory_xact_lock(hashtext(${`sitehealth:monitors:${m.user_id}`}))`.execute(trx)
      if ((await this.countIn(trx, m.user_id)) >= max) throw new MonitorLimitError(max)
      await insert(trx)
    })
    return m
  }

  countMonitors(userId: string): Promise<number> {
    return this.countIn(this.db, userId)
  }

  /** Counted on the monitors_by_user index. */
  private async countIn(db: Kysely<Database>, userId: string): Promise<number> {
    const { rows } = await sql<{ n: string }>`
      SELECT count(*) AS n FROM monitors WHERE user_id = ${userId}`.execute(db)
    return Number(rows[0].n)
  }

  async getMonitor(userId: string, id: string): Promise<MonitorRecord | undefined> {
    if (!isUuid(id)) return undefined
    const { rows } = await sql<MonitorRow>`
      SELECT id, user_id, next_run_ms, record FROM monitors WHERE id = ${id} AND user_id = ${userId}`.execute(
      this.db,
    )
    return rows[0] && this.toMonitor(rows[0])
  }

  async getMonitorById(id: string): Promise<MonitorRecord | undefined> {
    if (!isUuid(id)) return undefined
    const { rows } = await sql<MonitorRow>`
      SELECT id, user_id, next_run_ms, record FROM monitors WHERE id = ${id}`.execute(this.db)
    return rows[0] && this.toMonitor(rows[0])
  }

  async getMonitorsById(ids: string[]): Promise<MonitorRecord[]> {
    const wanted = ids.filter((id) => isUuid(id))
    if (wanted.length === 0) return []
    const { rows } = await sql<MonitorRow>`
      SELECT id, user_id, next_run_ms, record FROM monitors WHERE id = ANY(${wanted}::uuid[])`.execute(
      this.db,
    )
    const byId = new Map(rows.map((r) => [r.id, this.toMonitor(r)]))
    return wanted.flatMap((id) => byId.get(id.toLowerCase()) ?? [])
  }

  async listMonitors(userId: string, opts: MonitorListQuery): Promise<Page<MonitorRecord>> {
    const before = opts.before && isUuid(opts.before) ? opts.before : null
    // every wanted tag matches one of the monitor's: equal, or a bare name matching `name:<value>`
    // (contract/tags.ts `tagMatches`)
    const tags = opts.tags ?? []
    const { rows } = await sql<MonitorRow>`
      SELECT id, user_id, next_run_ms, record FROM monitors
      WHERE user_id = ${userId} AND (${before}::uuid IS NULL OR id < ${before}::uuid)
        AND NOT EXISTS (
          SELECT 1 FROM unnest(${tags}::text[]) AS w(tag)
          WHERE NOT EXISTS (
            SELECT 1 FROM json_array_elements_text(COALESCE(record->'tags', '[]'::json)) AS t(tag)
            WHERE t.tag = w.tag OR (strpos(w.tag, ':') = 0 AND split_part(t.tag, ':', 1) = w.tag)))
      ORDER BY id DESC LIMIT ${opts.limit + 1}`.execute(this.db)
    const items = rows.slice(0, opts.limit).map(this.toMonitor)
    return { items, next: rows.length > opts.limit ? items[items.length - 1].id : null }
  }

  async userMonitors(userId: string): Promise<MonitorRecord[]> {
    const { rows } = await sql<MonitorRow>`
      SELECT id, user_id, next_run_ms, record FROM monitors WHERE user_id = ${userId} ORDER BY id`.execute(
      this.db,
    )
    return rows.map(this.toMonitor)
  }

  private async put(db: Kysely<Database>, m: MonitorRecord, endClaim: boolean): Promise<boolean> {
    const r = await sql`
      UPDATE monitors SET next_run_ms = ${ms(m.next_run_at)}, paused = ${m.paused},
        paused_reason = ${m.paused_reason}, record = ${JSON.stringify(m)},
        claimed_until_ms = CASE WHEN ${endClaim} THEN NULL ELSE claimed_until_ms END
      WHERE id = ${m.id} AND user_id = ${m.user_id}`.execute(db)
    return Number(r.numAffectedRows ?? 0) > 0
  }

  async updateMonitor(m: MonitorRecord): Promise<MonitorRecord | undefined> {
    try {
      return (await this.put(this.db, m, false)) ? m : undefined
    } catch (err) {
      throw refClash(err, m)
    }
  }

  async deleteMonitor(userId: string, id: string): Promise<boolean> {
    if (!isUuid(id)) return false
    const r = await sql`DELETE FROM monitors WHERE id = ${id} AND user_id = ${userId}`.execute(this.db)
    return Number(r.numAffectedRows ?? 0) > 0
  }

  async claimDue(now: number, max: number, leaseMs = this.leaseMs, aheadMs = 0): Promise<Claim[]> {
    if (max <= 0) return []
    const { rows } = await sql<MonitorRow>`
      UPDATE monitors m SET claimed_until_ms = ${String(now + Math.max(0, aheadMs) + leaseMs)}
      FROM (
        SELECT id FROM monitors
        WHERE next_run_ms <= ${String(now + Math.max(0, aheadMs))} AND NOT paused
          AND (claimed_until_ms IS NULL OR claimed_until_ms < ${String(now)})
        ORDER BY next_run_ms
        LIMIT ${max}
        FOR UPDATE SKIP LOCKED
      ) due
      WHERE m.id = due.id
      RETURNING m.id, m.user_id, m.next_run_ms, m.record, m.xmin::text AS version`.execute(this.db)
    return rows.map((r) => ({
      monitor: this.toMonitor(r),
      due_at: Number(r.next_run_ms),
      version: r.version,
    }))
  }

  async nextDueAt(): Promise<number | null> {
    const now = String(this.now())
    const { rows } = await sql<{ next: string | null }>`
      SELECT min(next_run_ms) AS next FROM monitors
      WHERE next_run_ms IS NOT NULL AND NOT paused
        AND (claimed_until_ms IS NULL OR claimed_until_ms < ${now})`.execute(this.db)
    const next = rows[0]?.next
    return next === null || next === undefined ? null : Number(next)
  }

  async releaseClaim(monitorId: string): Promise<void> {
    await sql`UPDATE monitors SET claimed_until_ms = NULL WHERE id = ${monitorId}`.execute(this.db)
  }

  private async insertEvents(db: Kysely<Database>, events: EventRecord[]): Promise<void> {
    for (const e of events)
      await sql`
        INSERT INTO monitor_events (id, monitor_id, pending, record)
        VALUES (${e.id}, ${e.monitor_id}, ${pendingOf(e)}, ${JSON.stringify(e)})
        ON CONFLICT (id) DO NOTHING`.execute(db)
  }

  /** Keeps the newest `historyLimit` rows of a monitor in a history table. */
  private async prune(db: Kysely<Database>, table: 'monitor_events', monitorId: string) {
    await sql`
      DELETE FROM ${sql.table(table)} WHERE monitor_id = ${monitorId} AND id < (
        SELECT id FROM ${sql.table(table)} WHERE monitor_id = ${monitorId}
        ORDER BY id DESC OFFSET ${this.historyLimit - 1} LIMIT 1)`.execute(db)
  }

  /**
   * ONE statement (so one round trip and one transaction, the scheduler's hot path): update the
   * monitor (ending a scheduled run's claim), insert the run and its events, and prune both
   * histories to the newest `historyLimit`. The statement's snapshot does not see the rows it
   * inserts, so the prunes keep `historyLimit` minus the new rows of the rows already there.
   * The run's rollups and incident change ride in the same statement (history.ts), keyed on the
   * run's insert, so a retried write counts the run once.
   */
  async finishRun(
    m: MonitorRecord,
    newRun: NewRun,
    events: EventRecord[],
    history?: RunHistory,
    ifVersion?: string,
  ): Promise<MonitorRecord | undefined> {
    const run = located(newRun)
    const endClaim = run.trigger === 'schedule'
    // the claim's row version: any write since (a change, a pause, another run) changed xmin
    const version = ifVersion === undefined ? null : ifVersion
    const keepEvents = Math.max(0, this.historyLimit - events.length)
    const statement = sql<{ n: string }>`
      WITH m AS (
        UPDATE monitors SET next_run_ms = ${ms(m.next_run_at)}, paused = ${m.paused},
          paused_reason = ${m.paused_reason}, record = ${JSON.stringify(m)},
          claimed_until_ms = CASE WHEN ${endClaim} THEN NULL ELSE claimed_until_ms END
        WHERE id = ${m.id} AND user_id = ${m.user_id} AND (${version}::xid IS NULL OR xmin = ${version}::xid)
        RETURNING id
      ),
      ${runInsertSql(m.id, run)}
      ${historySql(m.id, run, history, this.now())}
      e AS (
        INSERT INTO monitor_events (id, monitor_id, pending, record)
        SELECT t.id, m.id, t.pending, t.record
        FROM m, unnest(${events.map((e) => e.id)}::uuid[], ${events.map(pendingOf)}::boolean[],
          ${events.map((e) => JSON.stringify(e))}::json[]) AS t(id, pending, record)
        ON CONFLICT (id) DO NOTHING
      ),
      pr AS (
        DELETE FROM monitor_runs WHERE monitor_id = ${m.id} AND EXISTS (SELECT 1 FROM m) AND id <= (
          SELECT id FROM monitor_runs WHERE monitor_id = ${m.id}
          ORDER BY id DESC OFFSET ${Math.max(0, this.historyLimit - 1)} LIMIT 1)
      ),
      pe AS (
        DELETE FROM monitor_events WHERE ${events.length > 0} AND monitor_id = ${m.id}
          AND EXISTS (SELECT 1 FROM m) AND id NOT IN (
            SELECT id FROM monitor_events WHERE monitor_id = ${m.id} ORDER BY id DESC LIMIT ${keepEvents})
      )
      SELECT count(*) AS n FROM m`
    const saved = this.pool
      ? await this.finishing.submit(null, statement.compile(this.db))
      : await this.finishOne(statement.compile(this.db))
    return saved ? m : undefined
  }

  private async finishOne(s: CompiledQuery<{ n: string }>): Promise<boolean> {
    const { rows } = await this.db.executeQuery(s)
    return Number(rows[0]?.n ?? 0) > 0
  }

  /**
   * Group commit of finishRun: the statements of runs that ended while one was being written go
   * as ONE query of several statements, which the server runs as one transaction (one round trip,
   * one WAL flush). Refused by the server (one statement failed: nothing of it was written), each
   * is written again on its own, so one bad run does not fail the others.
   */
  private async finishMany(statements: CompiledQuery<{ n: string }>[]): Promise<Each<boolean>[]> {
    const each = (s: CompiledQuery<{ n: string }>) =>
      this.finishOne(s).then(
        (ok) => ({ ok }),
        (error: unknown) => ({ error }),
      )
    if (statements.length === 1 || !this.pool) return Promise.all(statements.map(each))
    let text: string
    try {
      text = statements.map((s) => inline(s)).join(';\n')
    } catch {
      // a parameter with no literal form: one statement each, with parameters
      return Promise.all(statements.map(each))
    }
    let results: pg.QueryResult<{ n: string }>[]
    try {
      const out = await this.pool.query<{ n: string }>(text)
      results = Array.isArray(out) ? out : [out]
    } catch (err) {
      if (!(err instanceof pg.DatabaseError)) throw err
      const out: Each<boolean>[] = []
      for (const s of statements) out.push(await each(s))
      return out
    }
    return statements.map((_, i) => ({ ok: Number(results[i]?.rows[0]?.n ?? 0) > 0 }))
  }

  async recordEvents(m: MonitorRecord, events: EventRecord[]): Promise<MonitorRecord | undefined> {
    return this.db.transaction().execute(async (trx) => {
      if (!(await this.put(trx, m, false))) return undefined
      await this.insertEvents(trx, events)
      await this.prune(trx, 'monitor_events', m.id)
      return m
    })
  }

  async listRuns(monitorId: string, opts: PageOptions): Promise<Page<RunRecord>> {
    if (!isUuid(monitorId)) return { items: [], next: null }
    return readRuns(this.db, monitorId, opts)
  }

  async listEvents(monitorId: string, opts: PageOptions): Promise<Page<EventRecord>> {
    return this.page<EventRecord>('monitor_events', monitorId, opts)
  }

  private async page<T extends { id: string }>(
    table: 'monitor_events',
    monitorId: string,
    opts: PageOptions,
  ): Promise<Page<T>> {
    if (!isUuid(monitorId)) return { items: [], next: null }
    const before = opts.before && isUuid(opts.before) ? opts.before : null
    const { rows } = await sql<{ record: T }>`
      SELECT record FROM ${sql.table(table)}
      WHERE monitor_id = ${monitorId} AND (${before}::uuid IS NULL OR id < ${before}::uuid)
      ORDER BY id DESC LIMIT ${opts.limit + 1}`.execute(this.db)
    const items = rows.slice(0, opts.limit).map((r) => r.record)
    return { items, next: rows.length > opts.limit ? items[items.length - 1].id : null }
  }

  async responseTimes(monitorId: string, fromMs: number, toMs: number, max: number): Promise<number[]> {
    if (!isUuid(monitorId) || max <= 0) return []
    return readResponseTimes(this.db, monitorId, fromMs, toMs, max)
  }

  async rollups(
    monitorId: string,
    granularity: RollupGranularity,
    fromMs: number,
    toMs: number,
    location?: string,
  ): Promise<RollupBucket[]> {
    if (!isUuid(monitorId)) return []
    // past retention: gone, even where the monitor stopped running before they were pruned
    const from = Math.max(fromMs, keptFrom(granularity, this.now()))
    return readRollups(this.db, monitorId, granularity, from, toMs, location)
  }

  async rollupsOf(
    monitorIds: string[],
    granularity: RollupGranularity,
    fromMs: number,
    toMs: number,
  ): Promise<Map<string, RollupBucket[]>> {
    const ids = monitorIds.filter((id) => isUuid(id))
    if (ids.length === 0) return new Map()
    const from = Math.max(fromMs, keptFrom(granularity, this.now()))
    return readRollupsOf(this.db, ids, granularity, from, toMs)
  }

  async rollupCountsOf(
    monitorIds: string[],
    granularity: RollupGranularity,
    fromMs: number,
    count: number,
  ): Promise<Map<string, RollupCounts>> {
    const ids = monitorIds.filter((id) => isUuid(id))
    if (ids.length === 0 || count <= 0) return new Map()
    // past retention: gone (as rollupsOf), even where a paused monitor's prune has not run yet
    return readCountsOf(this.db, ids, granularity, fromMs, count, keptFrom(granularity, this.now()))
  }

  async rollupTotals(monitorIds: string[], sinceMs: number[]): Promise<Map<string, RollupTotals[]>> {
    const ids = monitorIds.filter((id) => isUuid(id))
    if (ids.length === 0 || sinceMs.length === 0) return new Map()
    return readTotals(this.db, ids, sinceMs)
  }

  async incidents(monitorId: string, sinceMs: number): Promise<IncidentRecord[]> {
    if (!isUuid(monitorId)) return []
    return readIncidents(this.db, monitorId, sinceMs)
  }

  async pruneHistory(now: number): Promise<number> {
    return pruneHistory(this.db, now)
  }

  async incidentsOf(monitorIds: string[], sinceMs: number): Promise<Map<string, IncidentRecord[]>> {
    const ids = monitorIds.filter((id) => isUuid(id))
    if (ids.length === 0) return new Map()
    return readIncidentsOf(this.db, ids, sinceMs)
  }

  updateDelivery(monitorId: string, eventId: string, delivery: Delivery): Promise<void> {
    return updateDelivery(this.db, monitorId, eventId, delivery)
  }

  claimDeliveries(leaseMs: number, eventIds?: string[]): Promise<EventRecord[]> {
    return claimDeliveries(this.db, leaseMs, eventIds)
  }

  releaseDeliveries(eventIds: string[]): Promise<void> {
    return releaseDeliveries(this.db, eventIds)
  }

  async creditPausedUsers(): Promise<string[]> {
    const { rows } = await sql<{ user_id: string }>`
      SELECT DISTINCT user_id FROM monitors WHERE paused_reason = 'credits'`.execute(this.db)
    return rows.map((r) => r.user_id)
  }

  async close(): Promise<void> {
    // the pool belongs to the store
  }
}
