/**
 * The embedded store's compact history (src/store/embedded/history.ts): folded into history.bin
 * beside the snapshot, read back whole, and never counting a run twice when a journal that was
 * already folded is replayed (a crash between writing the snapshot and emptying the journal).
 */
import { copyFile, stat, truncate, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { nextId } from '../../../src/monitors/ids.js'
import { LowdbMonitorStore } from '../../../src/store/embedded/monitors.js'
import type { MonitorRecord } from '../../../src/store/monitors.js'
import type { RunRecord } from '../../../src/store/run-log.js'
import { monitor } from '../contract/fixtures.js'
import { removeDir, tempDir } from '../helpers.js'

const dirs: string[] = []
afterEach(async () => {
  for (const d of dirs.splice(0)) await removeDir(d)
})

function run(m: MonitorRecord, ok: boolean): RunRecord {
  return {
    id: nextId(),
    monitor_id: m.id,
    location: 'local',
    started_at: new Date().toISOString(),
    outcome: ok ? 'saved' : 'failed',
    trigger: 'schedule',
    check_id: null,
    health_score: ok ? 90 : null,
    response_time_ms: ok ? 120 : null,
    state: 'up',
    error: ok ? null : { code: 'check_failed', message: 'refused' },
  }
}

async function open(dir: string) {
  const s = new LowdbMonitorStore(dir)
  await s.load()
  return s
}

const dayTotals = async (s: LowdbMonitorStore, id: string) =>
  (await s.rollups(id, 'day', 0, Date.now() + 1)).map((b) => [b.runs, b.failed_runs, b.saved_runs])

describe('embedded monitor history', () => {
  it('folds into history.bin, loads back, and counts no run twice when a folded journal is replayed', async () => {
    const dir = await tempDir()
    dirs.push(dir)
    const a = await open(dir)
    const ms = await Promise.all([
      a.createMonitor(monitor('alice', null)),
      a.createMonitor(monitor('bob', null)),
    ])
    const h = (ok: boolean) => ({ ok, counted: true, interval_seconds: 60 })
    for (let i = 0; i < 10; i++)
      for (const m of ms) await a.finishRun(m, run(m, i % 5 !== 0), [], h(i % 5 !== 0))
    await a.finishRun(ms[0], run(ms[0], false), [], { ...h(false), incident: { open: 'down' } })
    // the journal as it was before the fold: a crash after the snapshot, before emptying it
    await copyFile(join(dir, 'monitors', 'journal.jsonl'), join(dir, 'journal.before'))
    await a.compact()
    expect((await stat(join(dir, 'monitors', 'history.bin'))).size).toBeGreaterThan(2 * 40_000)
    await a.finishRun(ms[1], run(ms[1], true), [], h(true)) // after the fold: in the journal only
    const expected = [await dayTotals(a, ms[0].id), await dayTotals(a, ms[1].id)]
    expect(expected).toEqual([[[11, 3, 8]], [[11, 2, 9]]])
    await a.close()

    const b = await open(dir)
    expect([await dayTotals(b, ms[0].id), await dayTotals(b, ms[1].id)]).toEqual(expected)
    expect((await b.incidents(ms[0].id, 0)).map((i) => i.cause)).toEqual(['down'])
    await b.close()

    // the folded journal replayed over the new history: still the same figures
    await copyFile(join(dir, 'journal.before'), join(dir, 'monitors', 'journal.jsonl'))
    const c = await open(dir)
    expect(await dayTotals(c, ms[0].id)).toEqual(expected[0])
    expect((await c.rollupTotals([ms[0].id], [0])).get(ms[0].id)).toEqual([{ runs: 11, failed_runs: 3 }])
    await c.close()
  })

  it('writes history.bin and snapshot.json in pieces past 1 MB that load back whole, and still reads a one-line snapshot', async () => {
    const dir = await tempDir()
    dirs.push(dir)
    const a = await open(dir)
    // 40 monitors: history.bin ~1.6 MB, snapshot.json (40 x 100 runs) past 1 MB: several pieces each
    const ms = await Promise.all(Array.from({ length: 40 }, () => a.createMonitor(monitor('alice', null))))
    const h = (ok: boolean) => ({ ok, counted: true, interval_seconds: 60 })
    for (let i = 0; i < 110; i++)
      await Promise.all(ms.map((m) => a.finishRun(m, run(m, i % 7 !== 0), [], h(i % 7 !== 0))))
    await a.compact()
    const snapFile = join(dir, 'monitors', 'snapshot.json')
    expect((await stat(snapFile)).size).toBeGreaterThan(1 << 20)
    expect((await stat(join(dir, 'monitors', 'history.bin'))).size).toBeGreaterThan(40 * 40_000)
    const before = await Promise.all(
      ms.map(async (m) => [await dayTotals(a, m.id), (await a.listRuns(m.id, { limit: 200 })).items]),
    )
    expect(before[39][0]).toEqual([[110, 16, 94]])
    expect(before[39][1]).toHaveLength(100)
    await a.close()

    const b = await open(dir)
    const after = await Promise.all(
      ms.map(async (m) => [await dayTotals(b, m.id), (await b.listRuns(m.id, { limit: 200 })).items]),
    )
    expect(after).toEqual(before)
    expect((await b.getMonitorById(ms[17].id))?.id).toBe(ms[17].id)
    await b.close()

    // the snapshot of the older form (one JSON line) still loads
    const c0 = await open(dir)
    const whole = {
      version: 1,
      monitors: await Promise.all(ms.map((m) => c0.getMonitorById(m.id))),
      runs: after.flatMap(([, runs]) => [...(runs as RunRecord[])].reverse()),
      events: [],
    }
    await c0.close()
    await writeFile(snapFile, JSON.stringify(whole))
    const c = await open(dir)
    expect((await c.listRuns(ms[5].id, { limit: 200 })).items).toEqual(after[5][1])
    await c.compact() // back to a line per item
    await c.close()

    // cut short: refused, not half loaded
    await truncate(snapFile, Math.floor((await stat(snapFile)).size / 2))
    await expect(open(dir)).rejects.toThrow(/Corrupt .*snapshot.json/)
  })
})
