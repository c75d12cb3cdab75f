/**
 * Migration 0014 on a populated database (src/store/postgres/migrations/0014-run-location.ts): a
 * schema as the migrations before it left it, holding runs of every outcome, trigger and state in
 * the packed `kind` (outcome + 4 × trigger + 16 × state), their details and assertion sets,
 * rollup blocks and incidents, upgrades without losing anything: each kind unpacked into its
 * columns, every run, bucket and incident at `local`, and the store goes on adding to them.
 */
import { Migrator } from 'kysely'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { MONITOR_STATES } from '../../../src/contract/monitors.js'
import { nextId } from '../../../src/monitors/ids.js'
import type { IncidentRecord, RollupBucket } from '../../../src/store/history.js'
import type { MonitorRecord } from '../../../src/store/monitors.js'
import type { RunRecord } from '../../../src/store/run-log.js'
import { connect } from '../../../src/store/postgres/connect.js'
import { MIGRATION_LOCK_TABLE, MIGRATION_TABLE } from '../../../src/store/postgres/migrate.js'
import { MIGRATIONS } from '../../../src/store/postgres/migrations/index.js'
import { openPostgresStore } from '../../../src/store/postgres/index.js'
import { definitionsKey } from '../../../src/store/postgres/runs.js'
import { monitor } from '../contract/fixtures.js'
import { describePg, freshDatabase, freshSchema, query } from './pg.js'

const HOUR = 3_600_000
const DAY = 24 * HOUR
const MIN = 60_000
// the lists the packed kind indexed (0011), as they were
const OUTCOMES = ['saved', 'failed', 'beat'] as const
const TRIGGERS = ['schedule', 'manual', 'heartbeat'] as const
const STATES = ['pending', 'up', 'degraded', 'down', 'paused', 'maintenance'] as const

/** Every outcome × trigger × state, each run with another mix of the optional parts. */
function everyKind(m: MonitorRecord, t0: number): RunRecord[] {
  const out: RunRecord[] = []
  for (const outcome of OUTCOMES)
    for (const trigger of TRIGGERS)
      for (const state of STATES) {
        const k = out.length
        const at = t0 + k * MIN
        const r: RunRecord = {
          id: nextId(at),
          monitor_id: m.id,
          location: 'local',
          started_at: new Date(at).toISOString(),
          outcome,
          trigger,
          check_id: k % 4 === 0 ? nextId(at) : k % 4 === 1 ? `chk_${k}` : null,
          health_score: outcome === 'saved' ? 60 + (k % 40) : null,
          response_time_ms: outcome === 'saved' ? 100 + k : null,
          state,
          error: outcome === 'failed' ? { code: 'check_failed', message: `refused ${k}` } : null,
        }
        if (k % 3 === 0)
          r.assertions = [
            {
              source: 'status_code',
              property: null,
              comparison: 'equals',
              target: '200',
              passed: k % 2 === 0,
              actual: 200 + k,
            },
          ]
        else if (k % 3 === 1) r.assertions = []
        out.push(r)
      }
  return out
}

/** A run's row as the code before 0014 wrote it (src/store/postgres/runs.ts at 0011). */
function oldRow(r: RunRecord) {
  const uuid = r.check_id !== null && /^[0-9a-f-]{36}$/.test(r.check_id)
  const d: Record<string, unknown> = {}
  let set: { key: number; text: string } | null = null
  if (r.error) d.e = [r.error.code, r.error.message]
  if (r.check_id !== null && !uuid) d.c = r.check_id
  if (r.assertions?.length === 0) d.a = []
  else if (r.assertions) {
    const text = JSON.stringify(r.assertions.map((a) => [a.source, a.property, a.comparison, a.target]))
    set = { key: definitionsKey(text), text }
    d.a = [set.key, r.assertions[0].passed ? 1 : 0, ...r.assertions.map((a) => a.actual)]
  }
  return {
    values: [
      r.monitor_id,
      r.id,
      String(Date.parse(r.started_at)),
      uuid ? r.check_id : null,
      r.response_time_ms,
      r.health_score,
      OUTCOMES.indexOf(r.outcome as (typeof OUTCOMES)[number]) +
        4 * TRIGGERS.indexOf(r.trigger) +
        16 * STATES.indexOf(r.state),
      Object.keys(d).length > 0 ? JSON.stringify(d) : null,
    ],
    set,
  }
}

describePg('postgres migration 0014 (run location, unpacked kind)', () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>
  beforeAll(async () => {
    db = await freshDatabase()
  })
  afterAll(async () => {
    await db?.drop()
  })

  it('upgrades a populated database: kinds unpacked, everything kept at local, and goes on', async () => {
    expect(STATES).toEqual(MONITOR_STATES) // the states the runs below were written with
    const schema = await freshSchema(db.url)
    const c = connect({ url: db.url, schema, poolSize: 1 })
    const before = Object.fromEntries(Object.entries(MIGRATIONS).filter(([name]) => name < '0014'))
    const { error } = await new Migrator({
      db: c.db,
      provider: { getMigrations: () => Promise.resolve(before) },
      migrationTableName: MIGRATION_TABLE,
      migrationLockTableName: MIGRATION_LOCK_TABLE,
      migrationTableSchema: schema,
    }).migrateToLatest()
    await c.db.destroy()
    expect(error).toBeUndefined()
    const q = <T extends object>(text: string, values?: unknown[]) =>
      query<T & Record<string, unknown>>(db.url, text.replaceAll('$S', `"${schema}"`), values)

    const m = monitor('alice', null)
    const other = monitor('bob', null)
    for (const x of [m, other])
      await q(
        `INSERT INTO $S.monitors (id, user_id, next_run_ms, paused, paused_reason, record)
         VALUES ($1, $2, NULL, false, NULL, $3)`,
        [x.id, x.user_id, JSON.stringify(x)],
      )
    const t0 = Math.floor(Date.now() / DAY) * DAY - DAY + MIN
    const runs = everyKind(m, t0)
    const otherRun = { ...everyKind(other, t0)[7] }
    for (const r of [...runs, otherRun]) {
      const { values, set } = oldRow(r)
      if (set)
        await q(
          `INSERT INTO $S.monitor_assertion_sets (monitor_id, key, definitions) VALUES ($1, $2, $3)
           ON CONFLICT DO NOTHING`,
          [r.monitor_id, String(set.key), set.text],
        )
      await q(
        `INSERT INTO $S.monitor_runs (monitor_id, id, started_ms, check_id, response_time_ms, health_score, kind, detail)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        values,
      )
    }
    // a day of hours (block of yesterday) and a block of days, packed as 0011 keeps them
    const day = Math.floor(t0 / DAY)
    const hourCounts = Array.from({ length: 24 * 4 }, (_, i) => (i % 4 === 0 ? 10 + i : i % 4 === 1 ? 2 : 0))
    const hourSums = Array.from({ length: 24 * 3 }, (_, i) =>
      i % 3 === 0 ? 1000 + i : i % 3 === 1 ? 700 : 120,
    )
    const dayBlock = Math.floor(day / 32)
    const daySlot = day - dayBlock * 32
    const dayCounts = Array.from({ length: 32 * 4 }, (_, i) =>
      Math.floor(i / 4) === daySlot ? [300, 4, 1, 290][i % 4] : 0,
    )
    const daySums = Array.from({ length: 32 * 3 }, (_, i) =>
      Math.floor(i / 3) === daySlot ? [30000, 25000, 240][i % 3] : 0,
    )
    await q(
      `INSERT INTO $S.monitor_rollups (monitor_id, granularity, block, counts, sums)
       VALUES ($1, 'hour', $2, $3, $4), ($1, 'day', $5, $6, $7)`,
      [m.id, day, hourCounts, hourSums, dayBlock, dayCounts, daySums],
    )
    const incidents: IncidentRecord[] = [
      {
        id: runs[3].id,
        monitor_id: m.id,
        location: 'local',
        started_at: runs[3].started_at,
        ended_at: runs[9].started_at,
        cause: 'refused',
      },
      {
        id: runs[20].id,
        monitor_id: m.id,
        location: 'local',
        started_at: runs[20].started_at,
        ended_at: null,
        cause: 'down',
      },
    ]
    for (const i of incidents)
      await q(
        `INSERT INTO $S.monitor_incidents (id, monitor_id, started_at, ended_at, cause) VALUES ($1, $2, $3, $4, $5)`,
        [i.id, i.monitor_id, i.started_at, i.ended_at, i.cause],
      )
    const bucket = (g: 'hour' | 'day', start: number, c: number[], s: number[]): RollupBucket => ({
      granularity: g,
      start,
      runs: c[0],
      failed_runs: c[1],
      excluded_runs: c[2],
      saved_runs: c[3],
      response_ms_sum: s[0],
      health_sum: s[1],
      downtime_seconds: s[2],
    })
    const hours = Array.from({ length: 24 }, (_, i) =>
      bucket(
        'hour',
        day * DAY + i * HOUR,
        hourCounts.slice(i * 4, i * 4 + 4),
        hourSums.slice(i * 3, i * 3 + 3),
      ),
    )
    const days = [bucket('day', day * DAY, [300, 4, 1, 290], [30000, 25000, 240])]

    // 0014 on open
    const store = await openPostgresStore({ url: db.url, schema, poolSize: 2 })
    try {
      const ms = store.monitors
      expect((await ms.listRuns(m.id, { limit: 100 })).items).toEqual([...runs].reverse())
      expect((await ms.listRuns(other.id, { limit: 100 })).items).toEqual([otherRun])
      const columns = await q<{ column_name: string }>(
        `SELECT column_name FROM information_schema.columns WHERE table_schema = $1 AND table_name = 'monitor_runs'
         ORDER BY ordinal_position`,
        [schema],
      )
      expect(columns.map((x) => x.column_name)).toEqual([
        'monitor_id',
        'id',
        'started_ms',
        'check_id',
        'response_time_ms',
        'health_score',
        'outcome',
        'trigger',
        'state',
        'location',
        'detail',
      ])
      // every (outcome, trigger, state) once, each in its own column
      const kinds = await q<{ n: number }>(
        `SELECT count(DISTINCT (outcome, trigger, state))::int AS n FROM $S.monitor_runs WHERE monitor_id = $1`,
        [m.id],
      )
      expect(kinds[0].n).toBe(OUTCOMES.length * TRIGGERS.length * STATES.length)
      expect(await ms.rollups(m.id, 'hour', 0, Date.now() + DAY)).toEqual(hours)
      expect(await ms.rollups(m.id, 'day', 0, Date.now() + DAY)).toEqual(days)
      expect(await ms.incidents(m.id, 0)).toEqual([...incidents].reverse())
      const located = await q<{ t: string; n: number }>(
        `SELECT 'rollups' AS t, count(*)::int AS n FROM $S.monitor_rollups WHERE location = 'local'
         UNION ALL SELECT 'incidents', count(*)::int FROM $S.monitor_incidents WHERE location = 'local'`,
      )
      expect(located).toEqual([
        { t: 'rollups', n: 2 },
        { t: 'incidents', n: 2 },
      ])

      // goes on: a run at local adds to its converted bucket and closes the open incident; one at
      // another location keeps a bucket of its own, and the monitor's reads sum them
      const at = day * DAY + 5 * HOUR + 30 * MIN
      const next = (location: string, min: number): RunRecord => ({
        ...runs[0],
        id: nextId(at + min * MIN),
        location,
        started_at: new Date(at + min * MIN).toISOString(),
        outcome: 'saved',
        trigger: 'schedule',
        state: 'up',
        check_id: null,
        health_score: 90,
        response_time_ms: 50,
        error: null,
      })
      await ms.finishRun(m, next('local', 0), [], {
        ok: true,
        counted: true,
        interval_seconds: 60,
        incident: { close: true },
      })
      await ms.finishRun(m, next('eu-1', 1), [], { ok: true, counted: true, interval_seconds: 60 })
      const [hour] = await ms.rollups(m.id, 'hour', day * DAY + 5 * HOUR, day * DAY + 6 * HOUR)
      expect([hour.runs, hour.saved_runs, hour.response_ms_sum]).toEqual([
        hours[5].runs + 2,
        hours[5].saved_runs + 2,
        hours[5].response_ms_sum + 100,
      ])
      const [eu] = await ms.rollups(m.id, 'hour', day * DAY + 5 * HOUR, day * DAY + 6 * HOUR, 'eu-1')
      expect([eu.runs, eu.saved_runs]).toEqual([1, 1])
      expect((await ms.incidents(m.id, 0))[0].ended_at).toBe(new Date(at).toISOString())
      expect((await ms.listRuns(m.id, { limit: 2 })).items.map((r) => r.location)).toEqual(['eu-1', 'local'])
    } finally {
      await store.close()
    }
  })
})
