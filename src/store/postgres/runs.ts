/**
 * A monitor's raw runs on PostgreSQL (migrations 0011, 0014): one lean row a run, only what the run
 * listing answers, in typed columns. A run is ~140 bytes of heap and one entry of the primary key
 * (monitor_id, id), against ~710 bytes and two indexes as a json record (0002).
 *
 *   outcome, trigger, state   smallint codes: their index in RUN_OUTCOMES, RUN_TRIGGERS, RUN_STATES
 *             below, lists that only grow at their end (0011 packed the three in one `kind`,
 *             outcome + 4 × trigger + 16 × state, with room for one more outcome and trigger)
 *   location  the name of the location the run ran at (store/rules/location.ts)
 *   detail    json, null for most runs: {"e": [code, message]} for an error, {"c": id} for a
 *             check id that is not a UUID, {"a": [key, passed bits, actual, actual, …]} for the
 *             assertion results, {"d": {…}} for the findings of a run that keeps no check
 *             (tcp, tls: `details` on the wire)
 *
 * An assertion result repeats its assertion's definition (source, property, comparison, target);
 * a run stores only whether each passed and what it saw, and the definitions are kept once per
 * distinct set in `monitor_assertion_sets` under `key` (52 bits of the md5 of their JSON text):
 * the run keeps the definitions it was judged by even after the monitor's assertions change.
 */
import { createHash } from 'node:crypto'
import { sql, type Kysely, type RawBuilder } from 'kysely'
import type { AssertionResult } from '../../contract/monitoring.js'
import { MONITOR_STATES, RUN_OUTCOMES, type MonitorState } from '../../contract/monitors.js'
import type { Page, PageOptions } from '../monitors.js'
import type { NewRun, RunRecord } from '../run-log.js'
import { located } from '../rules/location.js'
import type { Database } from './schema.js'
import { isUuid } from '../../shared/index.js'

/** The codes of the run columns: a value's index. Append only: stored rows hold these numbers. */
export { RUN_OUTCOMES }
export const RUN_TRIGGERS = ['schedule', 'manual', 'heartbeat'] as const
export const RUN_STATES = [
  'pending',
  'up',
  'degraded',
  'down',
  'paused',
  'maintenance',
] as const satisfies readonly MonitorState[]

// a state the contract gains must be given a code here (at the end) before a run can hold it
for (const state of MONITOR_STATES)
  if (!(RUN_STATES as readonly string[]).includes(state))
    throw new Error(`monitor state ${state} has no code in RUN_STATES (src/store/postgres/runs.ts)`)

/** detail's json (absent keys: nothing of that kind). */
interface Detail {
  e?: [string, string]
  c?: string
  /** [] for an empty list of results; else [key, passed bits, ...actuals]. */
  a?: unknown[]
  /** The run's details (types that keep no check). */
  d?: Record<string, unknown>
}

type Definition = [
  AssertionResult['source'],
  string | null,
  AssertionResult['comparison'],
  string | number | null,
]

/** Keys of definitions recently written (a monitor's set repeats on every run): no md5 a run. */
const keys = new Map<string, number>()

/** The key of a set of definitions: the first 52 bits of the md5 of its JSON text (as SQL computes it). */
export function definitionsKey(text: string): number {
  let key = keys.get(text)
  if (key === undefined) {
    key = parseInt(createHash('md5').update(text).digest('hex').slice(0, 13), 16)
    if (keys.size >= 4096) keys.clear()
    keys.set(text, key)
  }
  return key
}

/** The SQL of `definitionsKey` (the migration's conversion uses it on its own text). */
export const DEFINITIONS_KEY_SQL = (text: string) =>
  `('x' || lpad(left(md5(${text}), 13), 16, '0'))::bit(64)::bigint`

/** The code of `v` in `list`; a value without one is a bug, refused rather than stored as another. */
function code(list: readonly string[], v: string): number {
  const i = list.indexOf(v)
  if (i < 0) throw new Error(`a run's ${JSON.stringify(v)} has no code (src/store/postgres/runs.ts)`)
  return i
}

export interface EncodedRun {
  started_ms: string
  check_id: string | null
  response_time_ms: number | null
  health_score: number | null
  outcome: number
  trigger: number
  state: number
  location: string
  detail: string | null
  /** The assertion definitions' JSON text and key, when the run has results. */
  definitions: { text: string; key: number } | null
}

const whole = (v: number | null) => (v === null ? null : Math.round(v))

export function encodeRun(run: NewRun): EncodedRun {
  const d: Detail = {}
  if (run.error) d.e = [run.error.code, run.error.message]
  if (run.details) d.d = run.details
  const uuidCheck = run.check_id !== null && isUuid(run.check_id)
  if (run.check_id !== null && !uuidCheck) d.c = run.check_id
  let definitions: EncodedRun['definitions'] = null
  if (run.assertions) {
    if (run.assertions.length === 0) d.a = []
    else {
      const defs: Definition[] = run.assertions.map((a) => [
        a.source,
        a.property ?? null,
        a.comparison,
        a.target ?? null,
      ])
      const text = JSON.stringify(defs)
      definitions = { text, key: definitionsKey(text) }
      let bits = 0
      run.assertions.forEach((a, i) => {
        if (a.passed) bits += 2 ** i
      })
      d.a = [definitions.key, bits, ...run.assertions.map((a) => a.actual)]
    }
  }
  return {
    started_ms: String(Date.parse(run.started_at)),
    check_id: uuidCheck ? run.check_id : null,
    response_time_ms: whole(run.response_time_ms),
    health_score: whole(run.health_score),
    outcome: code(RUN_OUTCOMES, run.outcome),
    trigger: code(RUN_TRIGGERS, run.trigger),
    state: code(RUN_STATES, run.state),
    location: located(run).location,
    detail: d.e || d.c !== undefined || d.a || d.d ? JSON.stringify(d) : null,
    definitions,
  }
}

export interface RunRow {
  id: string
  started_ms: string
  check_id: string | null
  response_time_ms: number | null
  health_score: number | null
  outcome: number
  trigger: number
  state: number
  location: string
  detail: Detail | null
  definitions: Definition[] | null
}

export function decodeRun(monitorId: string, r: RunRow): RunRecord {
  const d = r.detail ?? {}
  const run: RunRecord = {
    id: r.id,
    monitor_id: monitorId,
    location: r.location,
    started_at: new Date(Number(r.started_ms)).toISOString(),
    outcome: RUN_OUTCOMES[r.outcome],
    trigger: RUN_TRIGGERS[r.trigger],
    check_id: r.check_id ?? d.c ?? null,
    health_score: r.health_score,
    response_time_ms: r.response_time_ms,
    state: RUN_STATES[r.state],
    error: d.e ? { code: d.e[0], message: d.e[1] } : null,
  }
  if (d.a && d.a.length === 0) run.assertions = []
  else if (d.a && r.definitions) {
    const bits = Number(d.a[1])
    run.assertions = r.definitions.map(([source, property, comparison, target], i) => ({
      source,
      property,
      comparison,
      target,
      passed: Math.floor(bits / 2 ** i) % 2 === 1,
      actual: (d.a![i + 2] ?? null) as AssertionResult['actual'],
    }))
  }
  if (d.d) run.details = d.d
  return run
}

/**
 * The run's insert as the CTE `r` of finishRun's statement (after its CTE `m`, the monitor's
 * update RETURNING id), RETURNING id only when the run is new; with assertion results, also the
 * CTE that keeps their definitions once (ends with a comma, like the rest).
 */
export function runInsertSql(monitorId: string, run: NewRun): RawBuilder<unknown> {
  const e = encodeRun(run)
  return sql`
      r AS (
        INSERT INTO monitor_runs (monitor_id, id, started_ms, check_id, response_time_ms, health_score, outcome,
          trigger, state, location, detail)
        SELECT m.id, ${run.id}::uuid, ${e.started_ms}::bigint, ${e.check_id}::uuid, ${e.response_time_ms}::int,
          ${e.health_score}::smallint, ${e.outcome}::smallint, ${e.trigger}::smallint, ${e.state}::smallint,
          ${e.location}::text, ${e.detail}::json FROM m
        ON CONFLICT (monitor_id, id) DO NOTHING
        RETURNING id
      ),
      ${
        e.definitions
          ? sql`ra AS (
        INSERT INTO monitor_assertion_sets (monitor_id, key, definitions)
        SELECT ${monitorId}::uuid, ${String(e.definitions.key)}::bigint, ${e.definitions.text}::json FROM r
        ON CONFLICT DO NOTHING
      ),`
          : sql``
      }`
}

/** Inserts runs of one monitor as they are (db import), in one statement; returns how many were new. */
export async function insertRuns(db: Kysely<Database>, monitorId: string, runs: NewRun[]): Promise<number> {
  if (runs.length === 0) return 0
  const enc = runs.map(encodeRun)
  const sets = new Map(enc.flatMap((e) => (e.definitions ? [[e.definitions.key, e.definitions.text]] : [])))
  if (sets.size > 0)
    await sql`
      INSERT INTO monitor_assertion_sets (monitor_id, key, definitions)
      SELECT ${monitorId}::uuid, t.key, t.definitions
      FROM unnest(${[...sets.keys()].map(String)}::bigint[], ${[...sets.values()]}::json[]) AS t(key, definitions)
      ON CONFLICT DO NOTHING`.execute(db)
  const r = await sql`
    INSERT INTO monitor_runs (monitor_id, id, started_ms, check_id, response_time_ms, health_score, outcome,
      trigger, state, location, detail)
    SELECT ${monitorId}::uuid, t.* FROM unnest(${runs.map((x) => x.id)}::uuid[],
      ${enc.map((e) => e.started_ms)}::bigint[], ${enc.map((e) => e.check_id)}::uuid[],
      ${enc.map((e) => e.response_time_ms)}::int[], ${enc.map((e) => e.health_score)}::smallint[],
      ${enc.map((e) => e.outcome)}::smallint[], ${enc.map((e) => e.trigger)}::smallint[],
      ${enc.map((e) => e.state)}::smallint[], ${enc.map((e) => e.location)}::text[],
      ${enc.map((e) => e.detail)}::json[]) AS t
    ON CONFLICT (monitor_id, id) DO NOTHING`.execute(db)
  return Number(r.numAffectedRows ?? 0)
}

/** A page of a monitor's runs, newest first (ids are time-ordered), each with its definitions. */
export async function readRuns(
  db: Kysely<Database>,
  monitorId: string,
  opts: PageOptions,
): Promise<Page<RunRecord>> {
  const before = opts.before && isUuid(opts.before) ? opts.before : null
  const { rows } = await sql<RunRow>`
    SELECT r.id, r.started_ms, r.check_id, r.response_time_ms, r.health_score, r.outcome, r.trigger, r.state,
      r.location, r.detail, s.definitions
    FROM monitor_runs r
    LEFT JOIN monitor_assertion_sets s
      ON s.monitor_id = r.monitor_id AND s.key = (r.detail -> 'a' ->> 0)::bigint
    WHERE r.monitor_id = ${monitorId} AND (${before}::uuid IS NULL OR r.id < ${before}::uuid)
    ORDER BY r.id DESC LIMIT ${opts.limit + 1}`.execute(db)
  const items = rows.slice(0, opts.limit).map((r) => decodeRun(monitorId, r))
  return { items, next: rows.length > opts.limit ? items[items.length - 1].id : null }
}

const MAINTENANCE = code(RUN_STATES, 'maintenance')

/**
 * `MonitorStore.responseTimes`: the whole-ms times of the runs kept in [fromMs, toMs) that a bucket
 * counts as saved (savedRunMs in store/history.ts: not in maintenance, with a check's time and score).
 */
export async function readResponseTimes(
  db: Kysely<Database>,
  monitorId: string,
  fromMs: number,
  toMs: number,
  max: number,
): Promise<number[]> {
  const { rows } = await sql<{ ms: number }>`
    SELECT greatest(0, response_time_ms) AS ms FROM monitor_runs
    WHERE monitor_id = ${monitorId} AND started_ms >= ${fromMs} AND started_ms < ${toMs}
      AND response_time_ms IS NOT NULL AND health_score IS NOT NULL AND state <> ${MAINTENANCE}
    LIMIT ${max}`.execute(db)
  return rows.map((r) => Number(r.ms))
}

/**
 * Drops the assertion sets no kept run refers to any more (a monitor whose assertions changed:
 * its old set outlives its last run once the run history is pruned to `historyLimit`), of monitors
 * with more than one set (a monitor's only set is its current one). Returns how many went.
 *
 * A run writes its set in the same statement that updates its monitor's row (finishRun), so the
 * sets of a monitor are dropped only while its row is locked here (FOR SHARE, in one
 * transaction): a run in flight is committed first and seen by the DELETE's snapshot, and a run
 * that starts meanwhile waits, then writes its set again. Rows a run holds now are skipped
 * (SKIP LOCKED), never waited on: the next prune takes them.
 */
export async function pruneAssertionSets(db: Kysely<Database>): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const { rows } = await sql<{ id: string }>`
      SELECT id FROM monitors WHERE id IN (
        SELECT monitor_id FROM monitor_assertion_sets GROUP BY monitor_id HAVING count(*) > 1)
      FOR SHARE SKIP LOCKED`.execute(trx)
    if (rows.length === 0) return 0
    const r = await sql`
      DELETE FROM monitor_assertion_sets s
      WHERE s.monitor_id = ANY(${rows.map((x) => x.id)}::uuid[]) AND NOT EXISTS (
        SELECT 1 FROM monitor_runs r
        WHERE r.monitor_id = s.monitor_id AND r.detail IS NOT NULL
          AND (r.detail -> 'a' ->> 0)::bigint = s.key)`.execute(trx)
    return Number(r.numAffectedRows ?? 0)
  })
}
