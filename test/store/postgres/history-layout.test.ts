/**
 * Monitor history's table layout on PostgreSQL (migration 0011, issue 23: ≤ 300 KB a 60 s monitor
 * after a year): a run is one lean row, a day of hourly buckets one row, and history written by
 * the layout before 0011 reads back the same after it.
 */
import { Migrator } from 'kysely'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { nextId } from '../../../src/monitors/ids.js'
import type { IncidentRecord, RollupBucket } from '../../../src/store/history.js'
import type { MonitorRecord } from '../../../src/store/monitors.js'
import type { RunRecord } from '../../../src/store/run-log.js'
import { connect } from '../../../src/store/postgres/connect.js'
import { MIGRATION_LOCK_TABLE, MIGRATION_TABLE } from '../../../src/store/postgres/migrate.js'
import { MIGRATIONS } from '../../../src/store/postgres/migrations/index.js'
import { openPostgresStore } from '../../../src/store/postgres/index.js'
import { runAt as contractRun } from '../contract/history.js'
import { monitor } from '../contract/fixtures.js'
import { describePg, freshDatabase, freshSchema, query } from './pg.js'

const HOUR = 3_600_000
const DAY = 24 * HOUR
const MIN = 60_000

const judged = (passed: boolean, rt: number): NonNullable<RunRecord['assertions']> => [
  {
    source: 'status_code',
    property: null,
    comparison: 'equals',
    target: '200',
    passed,
    actual: passed ? 200 : null,
  },
  { source: 'text_body', property: null, comparison: 'contains', target: 'ok', passed, actual: passed },
  {
    source: 'response_time',
    property: null,
    comparison: 'less_than',
    target: '5000',
    passed: true,
    actual: rt,
  },
]

function runAt(m: MonitorRecord, at: number, ok: boolean): RunRecord {
  const rt = 40 + ((at / MIN) % 97) * 3
  return contractRun(m, at, ok ? { rt, health: 80 + ((at / MIN) % 21) } : null, {
    trigger: 'schedule',
    check_id: ok ? nextId(at) : null,
    state: ok ? 'up' : 'down',
    error: ok ? null : { code: 'check_failed', message: 'connect ECONNREFUSED 127.0.0.1:8080' },
    assertions: judged(ok, rt),
  })
}

describePg('postgres history layout', () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>
  beforeAll(async () => {
    db = await freshDatabase()
  })
  afterAll(async () => {
    await db?.drop()
  })

  it('stores a run with three assertion results in one row of ~140 bytes, and a day of hourly buckets in one row', async () => {
    const schema = await freshSchema(db.url)
    const store = await openPostgresStore({ url: db.url, schema, poolSize: 2 })
    try {
      const ms = store.monitors
      const m = await ms.createMonitor(monitor('alice', null))
      const day = Math.floor(Date.now() / DAY) * DAY - DAY
      for (let i = 0; i < 24; i++)
        await ms.finishRun(m, runAt(m, day + i * HOUR + MIN, i !== 5), [], {
          ok: i !== 5,
          counted: true,
          interval_seconds: 60,
        })
      const sizes = await query<{ n: number; max: number; min: number }>(
        db.url,
        `SELECT count(*)::int AS n, max(pg_column_size(r.*))::int AS max, min(pg_column_size(r.*))::int AS min FROM "${schema}".monitor_runs r`,
      )
      expect(sizes[0].n).toBe(24)
      // a saved run ~125 bytes, the failed one (its error too) ~170; a json record was ~700;
      // 0014 adds ~10 (the kind in three smallint columns, the location's name)
      expect(sizes[0].min).toBeLessThanOrEqual(140)
      expect(sizes[0].max).toBeLessThanOrEqual(190)
      // the runs' one index: (monitor_id, id)
      const indexes = await query<{ n: number }>(
        db.url,
        `SELECT count(*)::int AS n FROM pg_indexes WHERE schemaname = $1 AND tablename = 'monitor_runs'`,
        [schema],
      )
      expect(indexes[0].n).toBe(1)
      const rollups = await query<{ granularity: string; n: number }>(
        db.url,
        `SELECT granularity, count(*)::int AS n FROM "${schema}".monitor_rollups GROUP BY granularity ORDER BY granularity`,
      )
      expect(rollups).toEqual([
        { granularity: 'day', n: 1 },
        { granularity: 'hour', n: 1 },
      ])
      const hours = await ms.rollups(m.id, 'hour', day, day + DAY)
      expect(hours.map((b) => [b.runs, b.failed_runs])).toEqual(
        Array.from({ length: 24 }, (_, i) => [1, i === 5 ? 1 : 0]),
      )
    } finally {
      await store.close()
    }
  })

  it('rewrites a packed rollup row in place run after run: the table grows far less than at fillfactor 100', async () => {
    // The baseline runs beside ours: a second store whose monitor_rollups is put back at
    // fillfactor 100 (the layout before 0012), given the same runs in turn. PostgreSQL prunes a
    // page's old row versions only once no session on the whole server may still see them, so a
    // transaction left open in another database stops the pruning (measured: ours 130-200 pages
    // beside 200 with one held open in the postgres database) and other test files do that now
    // and then (CI has seen 23 pages where a quiet server gives 1). An attempt whose figures say
    // pruning was held back is made again, up to five times.
    const attempt = async (): Promise<{ ours: number; baseline: number }> => {
      const stores = await Promise.all(
        [80, 100].map(async (fillfactor) => {
          const schema = await freshSchema(db.url)
          const store = await openPostgresStore({ url: db.url, schema, poolSize: 2 })
          if (fillfactor !== 80)
            await query(db.url, `ALTER TABLE "${schema}".monitor_rollups SET (fillfactor = ${fillfactor})`)
          return { schema, store, m: await store.monitors.createMonitor(monitor('alice', null)) }
        }),
      )
      try {
        const day = Math.floor(Date.now() / DAY) * DAY - DAY
        // 600 runs a minute apart: two rows (the day's hours, the block's days) rewritten each run
        for (let i = 0; i < 600; i++)
          for (const { store, m } of stores)
            await store.monitors.finishRun(m, runAt(m, day + i * MIN, true), [], {
              ok: true,
              counted: true,
              interval_seconds: 60,
            })
        const { store, m } = stores[0]
        expect((await store.monitors.rollups(m.id, 'day', day, day + DAY))[0].runs).toBe(600)
        const [ours, baseline] = await Promise.all(
          stores.map(
            async ({ schema }) =>
              (
                await query<{ pages: number }>(
                  db.url,
                  `SELECT (pg_relation_size('"${schema}".monitor_rollups') / 8192)::int AS pages`,
                )
              )[0].pages,
          ),
        )
        return { ours, baseline }
      } finally {
        await Promise.all(stores.map(({ store }) => store.close()))
      }
    }
    // quiet: ours 1 page, the baseline ~200 (a third of its updates leave their page)
    const inPlace = ({ ours, baseline }: { ours: number; baseline: number }) =>
      ours <= 4 || ours * 3 <= baseline
    const tries: { ours: number; baseline: number }[] = []
    while (tries.length < 5 && !tries.some(inPlace)) tries.push(await attempt())
    // The baseline no longer shows the growth on every server: since 0014 a row is 8 bytes longer
    // (its location), and at fillfactor 100 this workload's pages may now be left with room enough
    // to prune (measured: 2 pages where it was ~200). The bound on ours holds either way.
    expect(tries.some(inPlace), tries.map((t) => `${t.ours} pages beside ${t.baseline}`).join('; ')).toBe(
      true,
    )
  })

  it('converts runs, rollups and incidents written before 0011, and goes on adding to them', async () => {
    const schema = await freshSchema(db.url)
    // the schema as 0010 left it
    const c = connect({ url: db.url, schema, poolSize: 1 })
    const before = Object.fromEntries(Object.entries(MIGRATIONS).filter(([name]) => name < '0011'))
    const { error } = await new Migrator({
      db: c.db,
      provider: { getMigrations: () => Promise.resolve(before) },
      migrationTableName: MIGRATION_TABLE,
      migrationLockTableName: MIGRATION_LOCK_TABLE,
      migrationTableSchema: schema,
    }).migrateToLatest()
    await c.db.destroy()
    expect(error).toBeUndefined()

    const m = monitor('alice', null)
    const other = monitor('bob', null)
    for (const x of [m, other])
      await query(
        db.url,
        `INSERT INTO "${schema}".monitors (id, user_id, next_run_ms, paused, paused_reason, record)
         VALUES ($1, $2, NULL, false, NULL, $3)`,
        [x.id, x.user_id, JSON.stringify(x)],
      )
    const t0 = Math.floor(Date.now() / HOUR) * HOUR - 3 * HOUR
    const list: RunRecord[] = [
      runAt(m, t0, true),
      runAt(m, t0 + MIN, false),
      { ...runAt(m, t0 + 2 * MIN, true), assertions: [], trigger: 'manual', state: 'maintenance' },
      { ...runAt(m, t0 + 3 * MIN, true), assertions: undefined, outcome: 'beat', trigger: 'heartbeat' },
      // the monitor's assertions changed
      {
        ...runAt(m, t0 + 4 * MIN, false),
        state: 'degraded',
        error: { code: 'assertion_failed', message: 'json "status" ≠ ok\nline 2' },
        assertions: [
          {
            source: 'json_body',
            property: '$.status',
            comparison: 'equals',
            target: 'ok',
            passed: false,
            actual: 'dégradé "x"',
          },
        ],
      },
      { ...runAt(other, t0, true), assertions: undefined },
    ]
    const runs = list.map((r) => {
      if (r.assertions === undefined) delete r.assertions
      return r
    })
    for (const r of runs)
      await query(
        db.url,
        `INSERT INTO "${schema}".monitor_runs (id, monitor_id, record) VALUES ($1, $2, $3)`,
        [r.id, r.monitor_id, JSON.stringify(r)],
      )
    const bucket = (g: 'hour' | 'day', start: number, runs: number, failed: number): RollupBucket => ({
      granularity: g,
      start,
      runs,
      failed_runs: failed,
      excluded_runs: 1,
      saved_runs: runs - failed,
      response_ms_sum: 123.0 * (runs - failed),
      health_sum: 90 * (runs - failed),
      downtime_seconds: 60 * failed,
    })
    const today = Math.floor(Date.now() / DAY) * DAY
    const buckets = [
      bucket('hour', t0, 4, 2),
      bucket('hour', t0 - 26 * HOUR, 60, 0),
      bucket('hour', t0 - 20 * DAY, 55, 5),
      bucket('day', today, 4, 2),
      bucket('day', today - DAY, 1440, 10),
      bucket('day', today - 40 * DAY, 1000, 1),
      bucket('day', today - 300 * DAY, 7, 7),
    ]
    for (const b of buckets)
      await query(
        db.url,
        `INSERT INTO "${schema}".monitor_rollups (monitor_id, granularity, start_ms, runs, failed_runs,
           excluded_runs, saved_runs, response_ms_sum, health_sum, downtime_seconds)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
        [
          m.id,
          b.granularity,
          b.start,
          b.runs,
          b.failed_runs,
          b.excluded_runs,
          b.saved_runs,
          b.response_ms_sum,
          b.health_sum,
          b.downtime_seconds,
        ],
      )
    const incidents: IncidentRecord[] = [
      {
        id: nextId(t0 - 10 * DAY),
        monitor_id: m.id,
        location: 'local',
        started_at: new Date(t0 - 10 * DAY).toISOString(),
        ended_at: new Date(t0 - 10 * DAY + 10 * MIN).toISOString(),
        cause: 'refused',
      },
      {
        id: runs[1].id,
        monitor_id: m.id,
        location: 'local',
        started_at: runs[1].started_at,
        ended_at: null,
        cause: 'down',
      },
    ]
    for (const i of incidents)
      await query(
        db.url,
        `INSERT INTO "${schema}".monitor_incidents (id, monitor_id, started_at, ended_at, cause)
         VALUES ($1, $2, $3, $4, $5)`,
        [i.id, i.monitor_id, i.started_at, i.ended_at, i.cause],
      )

    // 0011 on open
    const store = await openPostgresStore({ url: db.url, schema, poolSize: 2 })
    try {
      const ms = store.monitors
      expect((await ms.listRuns(m.id, { limit: 10 })).items).toEqual(
        runs.filter((r) => r.monitor_id === m.id).reverse(),
      )
      expect((await ms.listRuns(other.id, { limit: 10 })).items).toEqual([runs[5]])
      const page = await ms.listRuns(m.id, { limit: 2 })
      expect((await ms.listRuns(m.id, { limit: 10, before: page.next! })).items.map((r) => r.id)).toEqual(
        [runs[2], runs[1], runs[0]].map((r) => r.id),
      )
      const back = (g: 'hour' | 'day') => buckets.filter((b) => b.granularity === g)
      expect(await ms.rollups(m.id, 'hour', 0, Date.now() + DAY)).toEqual(
        back('hour').sort((a, b) => a.start - b.start),
      )
      expect(await ms.rollups(m.id, 'day', 0, Date.now() + DAY)).toEqual(
        back('day').sort((a, b) => a.start - b.start),
      )
      expect(await ms.incidents(m.id, 0)).toEqual([...incidents].reverse())
      // a run after the conversion adds to its converted bucket and closes the open incident
      await ms.finishRun(m, runAt(m, t0 + 30 * MIN, true), [], {
        ok: true,
        counted: true,
        interval_seconds: 60,
        incident: { close: true },
      })
      const [hour] = await ms.rollups(m.id, 'hour', t0, t0 + HOUR)
      expect([hour.runs, hour.failed_runs, hour.saved_runs]).toEqual([5, 2, 3])
      expect((await ms.incidents(m.id, 0))[0].ended_at).toBe(new Date(t0 + 30 * MIN).toISOString())
      expect((await ms.listRuns(m.id, { limit: 1 })).items[0].assertions).toEqual(
        judged(true, runAt(m, t0 + 30 * MIN, true).response_time_ms!),
      )
    } finally {
      await store.close()
    }
  })
})
