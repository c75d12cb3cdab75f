/**
 * PostgreSQL's periodic history prune: a run deletes only its own monitor's buckets past
 * retention, so a monitor that stopped running (paused) kept its expired buckets for ever;
 * `pruneHistory` drops them for every monitor, and a deleted monitor's rows go with it. The
 * definitions of a monitor's assertion sets (runs.ts) outlived the last run that used them.
 */
import pg from 'pg'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { AssertionResult } from '../../../src/contract/monitoring.js'
import type { MonitorRecord } from '../../../src/store/monitors.js'
import type { RunRecord } from '../../../src/store/run-log.js'
import { openPostgresStore, type PostgresStore } from '../../../src/store/postgres/index.js'
import { runAt as saved } from '../contract/history.js'
import { monitor } from '../contract/fixtures.js'
import { describePg, freshDatabase, freshSchema } from './pg.js'

const HOUR = 3_600_000
const DAY = 24 * HOUR

const runAt = (m: MonitorRecord, at: number, over: Partial<RunRecord> = {}): RunRecord =>
  saved(m, at, { rt: 100, health: 90 }, { trigger: 'schedule', state: 'up', ...over })

describePg('postgres history prune', () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>
  let store: PostgresStore
  let client: pg.Client
  let schema: string
  beforeAll(async () => {
    db = await freshDatabase()
    schema = await freshSchema(db.url)
    store = await openPostgresStore({ url: db.url, schema, poolSize: 2 })
    client = new pg.Client({ connectionString: db.url })
    await client.connect()
  })
  afterAll(async () => {
    await client?.end()
    await store?.close()
    await db?.drop()
  })

  const rows = async (id: string) =>
    (
      await client.query<{ granularity: string; n: string }>(
        `SELECT granularity, count(*) AS n FROM "${schema}".monitor_rollups WHERE monitor_id = $1
         GROUP BY granularity ORDER BY granularity`,
        [id],
      )
    ).rows.map((r) => [r.granularity, Number(r.n)])

  it('drops the expired buckets of a monitor that stopped running, keeps the rest, and a delete takes them all', async () => {
    const ms = store.monitors
    const h = { ok: true, counted: true, interval_seconds: 60 }
    const paused = await ms.createMonitor(monitor('alice', null))
    const gone = await ms.createMonitor(monitor('alice', null))
    const running = await ms.createMonitor(monitor('alice', null))
    const now = Date.now()
    // runs 440 and 40 days ago, then the monitor is paused: the second run pruned the first's
    // buckets (a row of 32 days goes once all its days are past 400), but nothing of its own
    // will ever prune the second's expired hour
    for (const m of [paused, gone]) {
      await ms.finishRun(m, runAt(m, now - 440 * DAY), [], h)
      await ms.finishRun(m, runAt(m, now - 40 * DAY), [], h)
    }
    await ms.finishRun(running, runAt(running, now - 2 * HOUR), [], h)
    await ms.updateMonitor({ ...paused, paused: true, paused_reason: 'user', next_run_at: null })
    expect(await rows(paused.id)).toEqual([
      ['day', 1],
      ['hour', 1],
    ])
    expect(await ms.pruneHistory(now)).toBeGreaterThan(0)
    expect(await rows(paused.id)).toEqual([['day', 1]])
    expect(await rows(running.id)).toEqual([
      ['day', 1],
      ['hour', 1],
    ])
    expect(await ms.pruneHistory(now + 400 * DAY)).toBeGreaterThan(0)
    expect(await rows(paused.id)).toEqual([])

    expect(await ms.deleteMonitor('alice', gone.id)).toBe(true)
    expect(await rows(gone.id)).toEqual([])
  })

  it('drops an assertion set once no kept run uses it, keeps the ones runs use, and runs keep their definitions', async () => {
    const smallSchema = await freshSchema(db.url)
    const small = await openPostgresStore({
      url: db.url,
      schema: smallSchema,
      poolSize: 2,
      monitorHistory: 3,
    })
    try {
      const ms = small.monitors
      const m = await ms.createMonitor(monitor('alice', null))
      const only = await ms.createMonitor(monitor('alice', null))
      const result = (target: string): AssertionResult => ({
        source: 'status_code',
        property: null,
        comparison: 'equals',
        target,
        passed: true,
        actual: 200,
      })
      const sets = async (id: string) =>
        Number(
          (
            await client.query<{ n: string }>(
              `SELECT count(*) AS n FROM "${smallSchema}".monitor_assertion_sets WHERE monitor_id = $1`,
              [id],
            )
          ).rows[0].n,
        )
      const h = { ok: true, counted: true, interval_seconds: 60 }
      const t0 = Date.now() - HOUR
      await ms.finishRun(m, runAt(m, t0, { assertions: [result('200')] }), [], h)
      await ms.finishRun(only, runAt(only, t0, { assertions: [result('200')] }), [], h)
      // the assertions change: two runs with the new set, so the old one is still kept
      for (let i = 1; i <= 2; i++)
        await ms.finishRun(m, runAt(m, t0 + i * 60_000, { assertions: [result('204')] }), [], h)
      expect(await sets(m.id)).toBe(2)
      await ms.pruneHistory(Date.now())
      expect(await sets(m.id)).toBe(2)
      // three more: the history keeps 3 runs, none of the old set's
      for (let i = 3; i <= 5; i++)
        await ms.finishRun(m, runAt(m, t0 + i * 60_000, { assertions: [result('204')] }), [], h)
      expect((await ms.listRuns(m.id, { limit: 10 })).items.map((r) => r.assertions?.[0].target)).toEqual([
        '204',
        '204',
        '204',
      ])
      expect(await ms.pruneHistory(Date.now())).toBeGreaterThanOrEqual(1)
      expect(await sets(m.id)).toBe(1)
      expect(await sets(only.id)).toBe(1)
      // the runs kept still read with their definitions, and the old set comes back with its next run
      expect((await ms.listRuns(m.id, { limit: 10 })).items.map((r) => r.assertions?.[0].target)).toEqual([
        '204',
        '204',
        '204',
      ])
      await ms.finishRun(m, runAt(m, t0 + 6 * 60_000, { assertions: [result('200')] }), [], h)
      expect((await ms.listRuns(m.id, { limit: 1 })).items[0].assertions?.[0]).toMatchObject({
        target: '200',
        passed: true,
        actual: 200,
      })
    } finally {
      await small.close()
    }
  })
})
