/**
 * The statement flow of a scheduled run on PostgreSQL: claims ahead of their due time, a claim's
 * version that spares reading the monitor again at the end of the run, and finishRun's group
 * commit (runs that end together are written in one transaction; one that the server refuses does
 * not fail the others). Also the literals the group commit writes its parameters as.
 */
import pg from 'pg'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { nextId } from '../../../src/monitors/ids.js'
import { inline } from '../../../src/store/postgres/batch.js'
import { openPostgresStore, type PostgresStore } from '../../../src/store/postgres/index.js'
import type { MonitorRecord } from '../../../src/store/monitors.js'
import type { RunRecord } from '../../../src/store/run-log.js'
import { monitor } from '../contract/fixtures.js'
import { describePg, freshDatabase, freshSchema } from './pg.js'

const run = (m: MonitorRecord, trigger: 'schedule' | 'manual' = 'schedule'): RunRecord => ({
  id: nextId(),
  monitor_id: m.id,
  location: 'local',
  started_at: new Date().toISOString(),
  outcome: 'failed',
  trigger,
  check_id: null,
  health_score: null,
  response_time_ms: null,
  state: 'down',
  error: { code: 'check_failed', message: "it's \\ down" },
})

describePg('postgres run flow', () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>
  const stores: PostgresStore[] = []
  beforeAll(async () => {
    db = await freshDatabase()
  })
  afterAll(async () => {
    for (const s of stores) await s.close()
    await db?.drop()
  })
  const open = async () => {
    const s = await openPostgresStore({ url: db.url, schema: await freshSchema(db.url), poolSize: 4 })
    stores.push(s)
    return s
  }

  it('claims runs due within aheadMs, not later ones, and leases by now', async () => {
    const s = await open()
    const now = Date.now()
    const soon = monitor('alice', now + 200)
    const later = monitor('alice', now + 5_000)
    for (const m of [soon, later]) await s.monitors.createMonitor(m)
    expect(await s.monitors.claimDue(now, 10)).toEqual([])
    const claims = await s.monitors.claimDue(now, 10, 60_000, 500)
    expect(claims.map((c) => [c.monitor.id, c.due_at])).toEqual([[soon.id, now + 200]])
    // claimed: not handed out again, ahead or not
    expect(await s.monitors.claimDue(now + 300, 10, 60_000, 500)).toEqual([])
  })

  it("a claim's version: the run is written while the monitor is unchanged, and nothing is written once it changed", async () => {
    const s = await open()
    const now = Date.now()
    const a = monitor('alice', now - 1000)
    const b = monitor('alice', now - 1000)
    for (const m of [a, b]) await s.monitors.createMonitor(m)
    const claims = await s.monitors.claimDue(now, 10)
    const ca = claims.find((c) => c.monitor.id === a.id)!
    const cb = claims.find((c) => c.monitor.id === b.id)!
    expect(ca.version).toMatch(/^\d+$/)
    const next = { ...ca.monitor, state: 'down' as const, next_run_at: now + 60_000 }
    expect(await s.monitors.finishRun(next, run(a), [], undefined, ca.version)).toEqual(next)
    expect((await s.monitors.listRuns(a.id, { limit: 10 })).items).toHaveLength(1)
    // b is renamed while its run is in flight: the run's write, made from the claimed record, is refused
    await s.monitors.updateMonitor({ ...cb.monitor, name: 'renamed' })
    const stale = { ...cb.monitor, state: 'down' as const, next_run_at: now + 60_000 }
    expect(await s.monitors.finishRun(stale, run(b), [], undefined, cb.version)).toBeUndefined()
    expect((await s.monitors.listRuns(b.id, { limit: 10 })).items).toHaveLength(0)
    expect((await s.monitors.getMonitorById(b.id))?.name).toBe('renamed')
    // a stale version also leaves the claim as it was: b is still claimed
    expect(await s.monitors.claimDue(now, 10)).toEqual([])
  })

  it('runs ending together are all written; one the server refuses fails alone', async () => {
    const s = await open()
    const now = Date.now()
    const ms = Array.from({ length: 40 }, (_, i) => monitor('alice', now - 1000, { ref: `m${i}` }))
    for (const m of ms) await s.monitors.createMonitor(m)
    const claims = await s.monitors.claimDue(now, 100)
    expect(claims).toHaveLength(40)
    const results = await Promise.allSettled(
      claims.map((c, i) =>
        s.monitors.finishRun(
          // the 17th takes the ref of another monitor of the user: the unique index refuses it
          { ...c.monitor, ref: i === 17 ? 'm3' : c.monitor.ref, state: 'down', next_run_at: now + 60_000 },
          run(c.monitor),
          [],
          { ok: false, counted: true, interval_seconds: 60, incident: { open: "it's down" } },
          c.version,
        ),
      ),
    )
    expect(results.filter((r) => r.status === 'rejected')).toHaveLength(1)
    expect(results[17].status).toBe('rejected')
    for (const [i, c] of claims.entries()) {
      const runs = (await s.monitors.listRuns(c.monitor.id, { limit: 10 })).items
      expect(runs, `runs of monitor ${i}`).toHaveLength(i === 17 ? 0 : 1)
      if (i !== 17) expect(runs[0].error?.message).toBe("it's \\ down")
    }
    const incidents = await s.monitors.incidentsOf(
      claims.map((c) => c.monitor.id),
      now - 60_000,
    )
    expect(incidents.size).toBe(39)
  })

  it('writes parameters as literals the server reads back as the same values', async () => {
    const c = new pg.Client({ connectionString: db.url })
    await c.connect()
    try {
      const values: unknown[] = [
        "it's",
        'back\\slash and \'quote\' and "double"',
        'ünïcødé ✓',
        '',
        null,
        42,
        -1.5,
        true,
        false,
        ['a', 'b "c"', 'd\\e', "f'g", null],
        [true, false],
        JSON.stringify({ x: "o'k\\", y: [1, 2] }),
      ]
      const sql = values.map((_, i) => `$${i + 1}::text AS v${i}`).join(', ')
      const bound = (await c.query(`SELECT ${sql}`, values)).rows[0]
      const inlined = (await c.query(inline({ sql: `SELECT ${sql}`, parameters: values }))).rows[0]
      expect(inlined).toEqual(bound)
      const arr = inline({
        sql: 'SELECT $1::text[] AS a, $2::json AS j',
        parameters: [values[9], values[11]],
      })
      expect((await c.query(arr)).rows[0]).toEqual({
        a: ['a', 'b "c"', 'd\\e', "f'g", null],
        j: { x: "o'k\\", y: [1, 2] },
      })
    } finally {
      await c.end()
    }
  })
})
