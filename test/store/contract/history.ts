/**
 * History in the storage contract (src/store/history.ts; docs/decisions.md#monitoring-depth): a run's history
 * handed to finishRun is rolled up into its UTC hour and day (maintenance runs apart), counted
 * once even when the write is retried, kept past a reopen; incidents open and close with the
 * state; retention by granularity; a deleted monitor takes its history along.
 */
import { expect, it } from 'vitest'
import { nextId } from '../../../src/monitors/ids.js'
import type { MonitorDefinitionStore, MonitorRecord } from '../../../src/store/monitors.js'
import type { HistoryStore, RunHistory } from '../../../src/store/history.js'
import type { RunLogStore, RunRecord } from '../../../src/store/run-log.js'
import type { Store } from '../../../src/store/types.js'
import type { ContractContext } from './index.js'
import { monitor } from './fixtures.js'

const HOUR = 3_600_000
const DAY = 24 * HOUR
/** 10:00 UTC two days ago. */
const base = Math.floor(Date.now() / DAY) * DAY - 2 * DAY + 10 * HOUR

const mon = (s: Store): MonitorDefinitionStore & RunLogStore & HistoryStore => s.monitors

/**
 * A run of `m` started at `at`: saved with its response time and health, or failed; `over` sets
 * any other field (the PostgreSQL layout tests give it assertions and a check id).
 */
export function runAt(
  m: MonitorRecord,
  at: number,
  saved: { rt: number; health: number } | null,
  over: Partial<RunRecord> = {},
): RunRecord {
  return {
    // ids are time-ordered like the runs
    id: nextId(at),
    monitor_id: m.id,
    location: 'local',
    started_at: new Date(at).toISOString(),
    outcome: saved ? 'saved' : 'failed',
    trigger: 'manual',
    check_id: null,
    health_score: saved?.health ?? null,
    response_time_ms: saved?.rt ?? null,
    state: m.state,
    error: saved ? null : { code: 'check_failed', message: 'refused' },
    ...over,
  }
}

const h = (ok: boolean, over: Partial<RunHistory> = {}): RunHistory => ({
  ok,
  counted: true,
  interval_seconds: 60,
  ...over,
})

export function historyContract(t: ContractContext): void {
  it('rolls runs up into hours and days, maintenance apart, once even when the write is retried', async () => {
    let store = await t.open()
    let ms = mon(store)
    const m = await ms.createMonitor(monitor('alice', null))
    const other = await ms.createMonitor(monitor('alice', null))
    const good = runAt(m, base + 5 * 60_000, { rt: 100, health: 90 })
    await ms.finishRun(m, good, [], h(true))
    await ms.finishRun(m, good, [], h(true)) // a retried write: nothing more
    await ms.finishRun(m, runAt(m, base + 20 * 60_000, null), [], h(false))
    await ms.finishRun(m, runAt(m, base + 40 * 60_000, null), [], h(false, { counted: false }))
    await ms.finishRun(m, runAt(m, base + 70 * 60_000, { rt: 300, health: 70 }), [], h(true))
    // a run without history (records older than it) adds nothing
    await ms.finishRun(m, runAt(m, base + 80 * 60_000, null), [])

    const expected = async () => {
      const hours = await ms.rollups(m.id, 'hour', base - DAY, Date.now())
      expect(hours).toEqual([
        {
          granularity: 'hour',
          start: base,
          runs: 2,
          failed_runs: 1,
          excluded_runs: 1,
          saved_runs: 1,
          response_ms_sum: 100,
          health_sum: 90,
          downtime_seconds: 60,
        },
        {
          granularity: 'hour',
          start: base + HOUR,
          runs: 1,
          failed_runs: 0,
          excluded_runs: 0,
          saved_runs: 1,
          response_ms_sum: 300,
          health_sum: 70,
          downtime_seconds: 0,
        },
      ])
      // [from, to) by bucket start
      expect((await ms.rollups(m.id, 'hour', base + 1, base + 2 * HOUR)).map((b) => b.start)).toEqual([
        base + HOUR,
      ])
      expect(await ms.rollups(m.id, 'day', base - DAY, Date.now())).toEqual([
        {
          granularity: 'day',
          start: base - 10 * HOUR,
          runs: 3,
          failed_runs: 1,
          excluded_runs: 1,
          saved_runs: 2,
          response_ms_sum: 400,
          health_sum: 160,
          downtime_seconds: 60,
        },
      ])
      const totals = await ms.rollupTotals([m.id, other.id], [base - DAY, base + 30 * 60_000])
      expect(totals.get(m.id)).toEqual([
        { runs: 3, failed_runs: 1 },
        { runs: 1, failed_runs: 0 },
      ])
      expect(totals.has(other.id)).toBe(false)
      expect(await ms.rollups(other.id, 'day', 0, Date.now())).toEqual([])
    }
    await expected()
    store = await t.reopen(store)
    ms = mon(store)
    await expected()
  })

  it('sums a window from its first whole hour to the newest run, across whole UTC days', async () => {
    const store = await t.open()
    const ms = mon(store)
    const m = await ms.createMonitor(monitor('alice', null))
    const day0 = Math.floor(Date.now() / DAY) * DAY - 9 * DAY
    // one run at 03:10 and a failed one at 20:30 each day, the failed ones only on odd days
    for (let d = 0; d < 9; d++) {
      await ms.finishRun(m, runAt(m, day0 + d * DAY + 3 * HOUR + 10 * 60_000, null), [], h(true))
      await ms.finishRun(m, runAt(m, day0 + d * DAY + 20 * HOUR + 30 * 60_000, null), [], h(d % 2 === 0))
    }
    const since = [
      day0 + 3 * HOUR + 30 * 60_000, // inside day 0's 03:00 hour: that bucket starts before, not counted
      day0 + 4 * HOUR, // after day 0's 03:10 run
      day0 + 21 * HOUR, // after day 0's last run
      day0 + 8 * DAY + 20 * HOUR, // the last run only
      day0 + 9 * DAY, // nothing since
    ]
    expect(await ms.rollupTotals([m.id], since)).toEqual(
      new Map([
        [
          m.id,
          [
            { runs: 17, failed_runs: 4 },
            { runs: 17, failed_runs: 4 },
            { runs: 16, failed_runs: 4 },
            { runs: 1, failed_runs: 0 },
            { runs: 0, failed_runs: 0 },
          ],
        ],
      ]),
    )
  })

  it('keeps hourly buckets 31 days and daily ones 400', async () => {
    const store = await t.open()
    const ms = mon(store)
    const m = await ms.createMonitor(monitor('alice', null))
    const old = Math.floor(Date.now() / DAY) * DAY - 40 * DAY + 12 * HOUR
    await ms.finishRun(m, runAt(m, old, null), [], h(false))
    await ms.finishRun(m, runAt(m, base, null), [], h(false))
    expect((await ms.rollups(m.id, 'hour', 0, Date.now())).map((b) => b.start)).toEqual([base])
    expect((await ms.rollups(m.id, 'day', 0, Date.now())).map((b) => b.start)).toEqual([
      old - 12 * HOUR,
      base - 10 * HOUR,
    ])
  })

  it('opens an incident when the monitor goes down and closes it when it comes back', async () => {
    let store = await t.open()
    let ms = mon(store)
    const m = await ms.createMonitor(monitor('alice', null))
    await ms.finishRun(m, runAt(m, base, null), [], h(false, { incident: { open: 'refused twice' } }))
    // one open incident per monitor: a second open is ignored
    await ms.finishRun(m, runAt(m, base + 60_000, null), [], h(false, { incident: { open: 'again' } }))
    await ms.finishRun(
      m,
      runAt(m, base + 10 * 60_000, { rt: 1, health: 1 }),
      [],
      h(true, { incident: { close: true } }),
    )
    await ms.finishRun(m, runAt(m, base + HOUR, null), [], h(false, { incident: { open: 'timeout' } }))
    store = await t.reopen(store)
    ms = mon(store)
    const all = await ms.incidents(m.id, base - DAY)
    expect(all.map((i) => [i.started_at, i.ended_at, i.cause])).toEqual([
      [new Date(base + HOUR).toISOString(), null, 'timeout'],
      [new Date(base).toISOString(), new Date(base + 10 * 60_000).toISOString(), 'refused twice'],
    ])
    // since: those still open or ended after it
    expect((await ms.incidents(m.id, base + 30 * 60_000)).map((i) => i.cause)).toEqual(['timeout'])
    expect(all[0].monitor_id).toBe(m.id)

    await ms.deleteMonitor('alice', m.id)
    expect(await ms.incidents(m.id, 0)).toEqual([])
    expect(await ms.rollups(m.id, 'day', 0, Date.now())).toEqual([])
  })

  it('prunes, apart from runs, the closed incidents past 400 days of a monitor that stopped running', async () => {
    const store = await t.open()
    const ms = mon(store)
    const m = await ms.createMonitor(monitor('alice', null))
    const running = await ms.createMonitor(monitor('alice', null))
    const old = Date.now() - 402 * DAY
    await ms.finishRun(m, runAt(m, old, null), [], h(false, { incident: { open: 'refused' } }))
    await ms.finishRun(
      m,
      runAt(m, old + DAY, { rt: 5, health: 90 }),
      [],
      h(true, { incident: { close: true } }),
    )
    await ms.finishRun(running, runAt(running, base, null), [], h(false, { incident: { open: 'timeout' } }))
    // m runs no more: nothing of its own prunes the incident that ended 401 days ago
    expect((await ms.incidents(m.id, 0)).map((i) => i.cause)).toEqual(['refused'])
    expect(await ms.pruneHistory(Date.now())).toBeGreaterThanOrEqual(1)
    expect(await ms.incidents(m.id, 0)).toEqual([])
    expect((await ms.incidents(running.id, 0)).map((i) => i.cause)).toEqual(['timeout'])
  })

  it('reads the rollups and incidents of several monitors at once, as each alone', async () => {
    const store = await t.open()
    const ms = mon(store)
    const a = await ms.createMonitor(monitor('alice', null))
    const b = await ms.createMonitor(monitor('bob', null))
    const quiet = await ms.createMonitor(monitor('alice', null))
    // a: three days of runs, one failed, and an incident; b: one day
    for (const d of [3, 2, 1])
      await ms.finishRun(a, runAt(a, base - d * DAY, { rt: 100, health: 90 }), [], h(true))
    await ms.finishRun(a, runAt(a, base - DAY + HOUR, null), [], h(false, { incident: { open: 'refused' } }))
    await ms.finishRun(b, runAt(b, base, { rt: 50, health: 80 }), [], h(true))
    const ids = [a.id, b.id, quiet.id, '0193a5d0-1b2c-7d3e-9f40-5a6b7c8d9e0f', 'not-an-id']
    const from = base - 2 * DAY - 10 * HOUR
    const days = await ms.rollupsOf(ids, 'day', from, Date.now())
    expect([...days.keys()].sort()).toEqual([a.id, b.id].sort())
    expect(days.get(a.id)).toEqual(await ms.rollups(a.id, 'day', from, Date.now()))
    expect(days.get(a.id)!.map((x) => [x.start, x.runs, x.failed_runs])).toEqual([
      [from, 1, 0],
      [from + DAY, 2, 1],
    ])
    expect(days.get(b.id)).toEqual(await ms.rollups(b.id, 'day', from, Date.now()))
    const hours = await ms.rollupsOf([a.id], 'hour', base - DAY, base - DAY + 2 * HOUR)
    expect(hours.get(a.id)!.map((x) => x.start)).toEqual([base - DAY, base - DAY + HOUR])
    const incidents = await ms.incidentsOf(ids, base - 3 * DAY)
    expect([...incidents.keys()]).toEqual([a.id])
    expect(incidents.get(a.id)).toEqual(await ms.incidents(a.id, base - 3 * DAY))
    expect(incidents.get(a.id)!.map((i) => i.cause)).toEqual(['refused'])
    // the lean read of counts: the same runs, a 0 for each day without
    const counts = await ms.rollupCountsOf(ids, 'day', from - DAY, 4)
    expect([...counts.get(a.id)!.runs]).toEqual([1, 1, 2, 0])
    expect([...counts.get(a.id)!.failed_runs]).toEqual([0, 0, 1, 0])
    expect([...counts.get(b.id)!.runs]).toEqual([0, 0, 0, 1])
    expect(counts.has(quiet.id)).toBe(false)
    const hourly = await ms.rollupCountsOf([a.id], 'hour', base - DAY, 2)
    expect([...hourly.get(a.id)!.runs]).toEqual([1, 1])
    expect([...hourly.get(a.id)!.failed_runs]).toEqual([0, 1])
  })
}
