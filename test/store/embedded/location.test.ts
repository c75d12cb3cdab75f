/**
 * Locations on the embedded store (src/store/rules/location.ts): a data dir written before runs
 * knew where they ran (journal lines, snapshot runs and history.bin headers without `location`)
 * loads without loss, every run, bucket and incident at `local`; a monitor's buckets of several
 * locations survive a fold into history.bin.
 */
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { DAILY_RETENTION_DAYS, HOURLY_RETENTION_DAYS } from '../../../src/contract/monitoring.js'
import { LowdbMonitorStore } from '../../../src/store/embedded/monitors.js'
import { WIDE_FIELDS } from '../../../src/store/embedded/rollup-ring.js'
import type { MonitorRecord } from '../../../src/store/monitors.js'
import { monitor, run } from '../contract/fixtures.js'
import { removeDir, tempDir } from '../helpers.js'

const dirs: string[] = []
afterEach(async () => {
  for (const d of dirs.splice(0)) await removeDir(d)
})

async function open(dir: string) {
  const s = new LowdbMonitorStore(dir)
  await s.load()
  return s
}

const LOCATED = '"location":"local",'

/** history.bin with every header's `location` keys taken out: the file as written before locations. */
function withoutLocations(bin: Buffer): Buffer {
  // a monitor's rings after its header: for each slot its bucket (int32), counters (uint32), rt (float64)
  const rings = (HOURLY_RETENTION_DAYS * 24 + DAILY_RETENTION_DAYS) * (4 + 4 * WIDE_FIELDS + 8)
  const out = [bin.subarray(0, 4)]
  for (let at = 4; at < bin.length;) {
    const len = bin.readUInt32LE(at)
    const header = bin
      .subarray(at + 4, at + 4 + len)
      .toString('utf8')
      .replaceAll(LOCATED, '')
    const h = Buffer.from(header)
    const n = Buffer.alloc(4)
    n.writeUInt32LE(h.length)
    out.push(n, h, bin.subarray(at + 4 + len, at + 4 + len + rings))
    at += 4 + len + rings
  }
  return Buffer.concat(out)
}

describe('embedded store locations', () => {
  it('loads a data dir written before locations without loss: runs, buckets and incidents at local', async () => {
    const dir = await tempDir()
    dirs.push(dir)
    const a = await open(dir)
    const m: MonitorRecord = await a.createMonitor(monitor('alice', null))
    const h = (ok: boolean) => ({ ok, counted: true, interval_seconds: 60 })
    for (let i = 0; i < 6; i++) await a.finishRun(m, run(m, i % 3 ? 'saved' : 'failed'), [], h(i % 3 !== 0))
    await a.finishRun(m, run(m), [], { ...h(false), incident: { open: 'down' } })
    await a.compact() // history.bin and snapshot.json
    await a.finishRun(m, run(m, 'saved'), [], { ...h(true), incident: { close: true } }) // the journal
    const before = {
      runs: (await a.listRuns(m.id, { limit: 100 })).items,
      hours: await a.rollups(m.id, 'hour', 0, Date.now() + 1),
      incidents: await a.incidents(m.id, 0),
    }
    await a.close()
    expect(before.runs).toHaveLength(8)
    expect(before.runs.every((r) => r.location === 'local')).toBe(true)
    expect(before.incidents.map((i) => [i.location, i.ended_at !== null])).toEqual([['local', true]])

    // the same files as the version before locations wrote them
    const files = ['journal.jsonl', 'snapshot.json'].map((f) => join(dir, 'monitors', f))
    for (const f of files) await writeFile(f, (await readFile(f, 'utf8')).replaceAll(LOCATED, ''))
    const bin = join(dir, 'monitors', 'history.bin')
    await writeFile(bin, withoutLocations(await readFile(bin)))
    for (const f of [...files, bin]) expect((await readFile(f)).includes('"location"')).toBe(false)

    const b = await open(dir)
    expect((await b.listRuns(m.id, { limit: 100 })).items).toEqual(before.runs)
    expect(await b.rollups(m.id, 'hour', 0, Date.now() + 1)).toEqual(before.hours)
    expect(await b.incidents(m.id, 0)).toEqual(before.incidents)
    // and goes on: a new run adds to the same buckets
    await b.finishRun(m, run(m, 'saved'), [], h(true))
    expect((await b.rollups(m.id, 'hour', 0, Date.now() + 1)).at(-1)!.runs).toBe(
      before.hours.at(-1)!.runs + 1,
    )
    await b.close()
  })

  it('folds the buckets of several locations into history.bin and reads them back, apart and summed', async () => {
    const dir = await tempDir()
    dirs.push(dir)
    const a = await open(dir)
    const m = await a.createMonitor(monitor('alice', null))
    const h = (ok: boolean) => ({ ok, counted: true, interval_seconds: 60 })
    await a.finishRun(m, { ...run(m, 'saved'), location: 'local' }, [], h(true))
    await a.finishRun(m, { ...run(m), location: 'eu-1' }, [], { ...h(false), incident: { open: 'down' } })
    await a.finishRun(m, { ...run(m, 'saved'), location: 'eu-1' }, [], h(true))
    await a.compact()
    await a.close()

    const b = await open(dir)
    const read = async (location?: string) =>
      (await b.rollups(m.id, 'day', 0, Date.now() + 1, location)).map((x) => [x.runs, x.failed_runs])
    expect(await read()).toEqual([[3, 1]])
    expect(await read('local')).toEqual([[1, 0]])
    expect(await read('eu-1')).toEqual([[2, 1]])
    expect((await b.incidents(m.id, 0)).map((i) => i.location)).toEqual(['eu-1'])
    expect((await b.listRuns(m.id, { limit: 10 })).items.map((r) => r.location)).toEqual([
      'eu-1',
      'eu-1',
      'local',
    ])
    await b.close()
  })
})
