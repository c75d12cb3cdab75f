/**
 * Locations in the storage contract (src/store/rules/location.ts): a run carries the location it
 * ran at (`local` when it names none), its buckets are kept per location and the reads that name
 * none answer for the monitor as a whole (every location summed, as uptime, status pages, badges
 * and metrics read them), and an incident carries the location of the run that opened it.
 */
import { expect, it } from 'vitest'
import type { MonitorDefinitionStore } from '../../../src/store/monitors.js'
import type { HistoryStore, RunHistory } from '../../../src/store/history.js'
import type { NewRun, RunLogStore } from '../../../src/store/run-log.js'
import type { Store } from '../../../src/store/types.js'
import type { ContractContext } from './index.js'
import { monitor } from './fixtures.js'
import { runAt } from './history.js'

const HOUR = 3_600_000
const DAY = 24 * HOUR
/** 10:00 UTC two days ago. */
const base = Math.floor(Date.now() / DAY) * DAY - 2 * DAY + 10 * HOUR

const mon = (s: Store): MonitorDefinitionStore & RunLogStore & HistoryStore => s.monitors
const h = (ok: boolean, over: Partial<RunHistory> = {}): RunHistory => ({
  ok,
  counted: true,
  interval_seconds: 60,
  ...over,
})

export function locationsContract(t: ContractContext): void {
  it('gives a run its location back, local when it was written without one', async () => {
    let store = await t.open()
    const ms = mon(store)
    const m = await ms.createMonitor(monitor('alice', null))
    const { location: _l, ...plain } = runAt(m, base, { rt: 100, health: 90 })
    const before: NewRun = plain
    await ms.finishRun(m, before, [], h(true))
    const eu = { ...runAt(m, base + 60_000, null), location: 'eu-1' }
    await ms.finishRun(m, eu, [], h(false))
    const expected = [eu, { ...before, location: 'local' }]
    const read = async (s: Store) =>
      (await mon(s).listRuns(m.id, { limit: 10 })).items.map((r) => [r.id, r.location])
    expect(await read(store)).toEqual(expected.map((r) => [r.id, r.location]))
    store = await t.reopen(store)
    expect(await read(store)).toEqual(expected.map((r) => [r.id, r.location]))
  })

  it('keeps buckets per location and sums them where a read names none; an incident carries its location', async () => {
    let store = await t.open()
    let ms = mon(store)
    const m = await ms.createMonitor(monitor('alice', null))
    const at = (min: number) => base + min * 60_000
    await ms.finishRun(m, runAt(m, at(1), { rt: 100, health: 90 }), [], h(true))
    await ms.finishRun(m, runAt(m, at(2), { rt: 300, health: 70 }), [], h(true))
    await ms.finishRun(
      m,
      { ...runAt(m, at(3), null), location: 'eu-1' },
      [],
      h(false, { incident: { open: 'refused' } }),
    )
    await ms.finishRun(m, { ...runAt(m, at(4), { rt: 200, health: 80 }), location: 'eu-1' }, [], h(true))
    // a day later, from eu-1 only
    await ms.finishRun(m, { ...runAt(m, at(24 * 60), null), location: 'eu-1' }, [], h(false))

    const check = async () => {
      const whole = await ms.rollups(m.id, 'hour', base - DAY, Date.now())
      expect(
        whole.map((b) => [b.start, b.runs, b.failed_runs, b.saved_runs, b.response_ms_sum, b.health_sum]),
      ).toEqual([
        [base, 4, 1, 3, 600, 240],
        [base + DAY, 1, 1, 0, 0, 0],
      ])
      expect(whole[0].downtime_seconds).toBe(60)
      const local = await ms.rollups(m.id, 'hour', base - DAY, Date.now(), 'local')
      expect(local.map((b) => [b.start, b.runs, b.failed_runs])).toEqual([[base, 2, 0]])
      const eu = await ms.rollups(m.id, 'day', base - DAY, Date.now(), 'eu-1')
      expect(eu.map((b) => [b.runs, b.failed_runs])).toEqual([
        [2, 1],
        [1, 1],
      ])
      expect(await ms.rollups(m.id, 'day', base - DAY, Date.now(), 'nowhere')).toEqual([])
      const days = await ms.rollupsOf([m.id], 'day', base - DAY, Date.now())
      expect(days.get(m.id)!.map((b) => [b.runs, b.failed_runs])).toEqual([
        [4, 1],
        [1, 1],
      ])
      const counts = await ms.rollupCountsOf([m.id], 'day', base - 10 * HOUR, 2)
      expect([...counts.get(m.id)!.runs]).toEqual([4, 1])
      expect([...counts.get(m.id)!.failed_runs]).toEqual([1, 1])
      const totals = await ms.rollupTotals([m.id], [base - HOUR, base + 12 * HOUR])
      expect(totals.get(m.id)).toEqual([
        { runs: 5, failed_runs: 2 },
        { runs: 1, failed_runs: 1 },
      ])
      const incidents = await ms.incidents(m.id, 0)
      expect(incidents.map((i) => [i.location, i.cause, i.ended_at])).toEqual([['eu-1', 'refused', null]])
      expect((await ms.incidentsOf([m.id], 0)).get(m.id)).toEqual(incidents)
    }
    await check()
    store = await t.reopen(store)
    ms = mon(store)
    await check()
  })
}
