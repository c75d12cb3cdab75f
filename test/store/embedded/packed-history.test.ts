/**
 * The embedded store's raw runs and incidents in their packed in-memory form
 * (src/store/embedded/run-ring.ts, incident-list.ts; issue 23: 10,000 monitors × 100 runs in ≤ 1 GB):
 * every field comes back as it went in (keys in the same order), the ring keeps the newest `cap`,
 * records that do not fit the packed form are kept as they came, shared strings are let go with
 * their runs, a snapshot.json of records loads as before, and the heap a run or an incident takes
 * stays a fraction of its JSON text (as plain objects it was more than the text itself).
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import v8 from 'node:v8'
import vm from 'node:vm'
import { afterEach, describe, expect, it } from 'vitest'
import { nextId } from '../../../src/monitors/ids.js'
import { LowdbHistory } from '../../../src/store/embedded/history.js'
import { LowdbMonitorStore } from '../../../src/store/embedded/monitors.js'
import { RollupRing } from '../../../src/store/embedded/rollup-ring.js'
import { contribution } from '../../../src/store/rules/buckets.js'
import { isoMs, RunRing, SharedStrings } from '../../../src/store/embedded/run-ring.js'
import type { MonitorRecord } from '../../../src/store/monitors.js'
import type { RunRecord } from '../../../src/store/run-log.js'
import { monitor } from '../contract/fixtures.js'
import { removeDir, tempDir } from '../helpers.js'

v8.setFlagsFromString('--expose-gc')
const gc = vm.runInNewContext('gc') as () => void
/** Heap and array buffers in use after a full collection. */
function used(): number {
  gc()
  gc()
  const m = process.memoryUsage()
  return m.heapUsed + m.arrayBuffers
}

const dirs: string[] = []
afterEach(async () => {
  for (const d of dirs.splice(0)) await removeDir(d)
})

const MIN = 60_000
const T0 = Date.parse('2026-11-01T00:00:00.000Z')

/** A run as the service records it, `k` minutes after T0, in every variant of its fields. */
function run(monitorId: string, k: number): RunRecord {
  const at = T0 + k * MIN + (k % 1000)
  const down = k % 7 === 3
  const r: RunRecord = {
    id: nextId(at),
    monitor_id: monitorId,
    location: 'local',
    started_at: new Date(at).toISOString(),
    outcome: down ? 'failed' : 'saved',
    trigger: k % 11 === 0 ? 'manual' : 'schedule',
    check_id: down ? null : nextId(at),
    health_score: down ? null : 60 + (k % 41),
    response_time_ms: down ? null : 40 + ((k * 37) % 900),
    state: down ? 'down' : 'up',
    error: down ? { code: 'check_failed', message: `connect ECONNREFUSED 10.0.0.${k % 250}:443` } : null,
  }
  if (k % 5 !== 4)
    r.assertions = [
      {
        source: 'status_code',
        property: null,
        comparison: 'equals',
        target: 200,
        passed: !down,
        actual: down ? null : 200,
      },
      {
        source: 'json_body',
        property: '$.status',
        comparison: 'equals',
        target: 'ok',
        passed: k % 3 === 0,
        actual: k % 3 === 0 ? 'ok' : `degraded ${k}`,
      },
      {
        source: 'response_time',
        property: null,
        comparison: 'less_than',
        target: 500,
        passed: true,
        actual: 40.5 + k,
      },
      {
        source: 'text_body',
        property: null,
        comparison: 'contains',
        target: 'hello',
        passed: false,
        actual: false,
      },
    ]
  return r
}

describe('packed runs (RunRing)', () => {
  it('gives back every field of every run, keys in the same order, newest `cap` only', () => {
    const shared = new SharedStrings()
    const id = nextId()
    const ring = new RunRing(id, 100, shared)
    const all = Array.from({ length: 250 }, (_, k) => run(id, k))
    for (const r of all) ring.push(r)
    expect(ring.length).toBe(100)
    const kept = [...ring]
    expect(JSON.stringify(kept)).toBe(JSON.stringify(all.slice(150)))
    expect(kept).toEqual(all.slice(150))
    expect(ring.idAt(0)).toBe(all[150].id)
    expect(ring.lastId).toBe(all[249].id)
    // a replayed (not newer) run is ignored
    ring.push({ ...all[200], error: null })
    expect(ring.at(50)).toEqual(all[200])
    expect(ring.length).toBe(100)
  })

  it('keeps a run that does not fit the packed form as it came', () => {
    const shared = new SharedStrings()
    const id = nextId()
    const ring = new RunRing(id, 10, shared)
    const base = run(id, 1)
    const odd: RunRecord[] = [
      { ...base, id: `${base.id.slice(0, -1)}X` }, // not a lowercase UUID
      { ...run(id, 2), started_at: '2026-11-01T00:02:00Z' }, // not toISOString's form
      { ...run(id, 3), check_id: 'c1' },
      { ...run(id, 4), extra: 1 } as RunRecord,
      { ...run(id, 5), health_score: 1.5 },
      { ...run(id, 6), assertions: [{ passed: true, actual: { a: 1 } } as never] },
      { ...run(id, 7), error: { message: 'x', code: 'y' } }, // keys in another order
    ]
    for (const r of odd) ring.push(r)
    expect(JSON.stringify([...ring])).toBe(JSON.stringify(odd))
    const more = Array.from({ length: 20 }, (_, i) => run(id, 10 + i))
    for (const r of more) ring.push(r)
    expect([...ring]).toEqual(more.slice(10))
  })

  it('writes each run’s JSON text from the columns exactly as JSON.stringify writes its record', () => {
    const shared = new SharedStrings()
    const id = nextId()
    const ring = new RunRing(id, 300, shared)
    const base = run(id, 1)
    const all: RunRecord[] = Array.from({ length: 250 }, (_, k) => run(id, k + 2))
    all.push(
      { ...base, id: `${base.id.slice(0, -1)}X`, assertions: undefined }, // odd, kept as it came
      { ...run(id, 300), error: { code: 'x"y', message: 'line\nbreak \u2028 ü \\ "q"' } },
      { ...run(id, 301), health_score: -0, response_time_ms: 1e21 },
      { ...run(id, 302), assertions: [] },
      { ...run(id, 303), assertions: [{ passed: false, actual: 'näh "x"' } as never] },
      { ...run(id, 304), assertions: [{ '1': 'a', source: 'x', passed: true, actual: 2.5 } as never] },
    )
    all.sort((a, b) => (a.id < b.id ? -1 : 1))
    for (const r of all) ring.push(r)
    expect(ring.length).toBe(all.length)
    for (let i = 0; i < ring.length; i++) expect(ring.jsonAt(i)).toBe(JSON.stringify(ring.at(i)))
    expect(Array.from({ length: ring.length }, (_, i) => ring.jsonAt(i))).toEqual(
      all.map((r) => JSON.stringify(r)),
    )
  })

  it('lets go of shared strings with their runs', () => {
    const shared = new SharedStrings()
    const ring = new RunRing(nextId(), 20, shared)
    for (let k = 0; k < 2000; k++) ring.push(run(ring.monitorId, k))
    // twenty runs' strings (each down run its own error message), not two thousand's
    expect(shared.size).toBeLessThan(60)
    ring.release()
    expect(shared.size).toBe(0)
  })

  it('reads only toISOString times as packed', () => {
    for (const s of ['2024-02-29T23:59:59.999Z', '2026-11-26T07:21:51.000Z', '0100-01-01T00:00:00.000Z'])
      expect(isoMs(s)).toBe(Date.parse(s))
    for (const s of [
      '2026-02-29T00:00:00.000Z',
      '2026-11-26T24:00:00.000Z',
      '2026-11-26T07:21:51Z',
      '2026-13-01T00:00:00.000Z',
      '0099-01-01T00:00:00.000Z',
      7,
    ])
      expect(isoMs(s)).toBeNaN()
  })
})

/** 100 runs for each of `n` monitors, as snapshot.json's lines, and the bytes of their JSON text. */
function snapshotText(ms: MonitorRecord[]): { text: string; runBytes: number; runs: RunRecord[] } {
  const runs = ms.flatMap((m) => Array.from({ length: 100 }, (_, k) => run(m.id, k)))
  const lines = runs.map((r) => JSON.stringify(r))
  const text =
    `{"version":1,"monitors":[\n${ms.map((m) => JSON.stringify(m)).join(',\n')}\n],"runs":[\n` +
    `${lines.join(',\n')}\n],"events":[\n]}\n`
  return { text, runBytes: lines.reduce((n, l) => n + l.length, 0), runs }
}

describe('the embedded store holds history compactly', () => {
  it('loads a snapshot of run records (the form on disk, unchanged) and pages them as before', async () => {
    const dir = await tempDir()
    dirs.push(dir)
    const ms = [monitor('alice', null), monitor('alice', null)]
    const { text, runs } = snapshotText(ms)
    await mkdir(join(dir, 'monitors'))
    await writeFile(join(dir, 'monitors', 'snapshot.json'), text)
    // and the older one-line form
    const one = join(dir, 'old')
    await mkdir(join(one, 'monitors'), { recursive: true })
    await writeFile(
      join(one, 'monitors', 'snapshot.json'),
      JSON.stringify({ version: 1, monitors: ms, runs, events: [] }),
    )
    for (const d of [dir, one]) {
      const s = new LowdbMonitorStore(d)
      await s.load()
      const mine = runs.filter((r) => r.monitor_id === ms[1].id)
      const p1 = await s.listRuns(ms[1].id, { limit: 30 })
      expect(p1.items).toEqual(mine.slice(70).reverse())
      const p2 = await s.listRuns(ms[1].id, { limit: 80, before: p1.next! })
      expect(p2.items).toEqual(mine.slice(0, 70).reverse())
      expect(p2.next).toBeNull()
      await s.close()
    }
  })

  it('takes far less heap for a run than its JSON text (as objects it took more)', async () => {
    const dir = await tempDir()
    dirs.push(dir)
    const ms = Array.from({ length: 100 }, () => monitor('alice', null))
    const { text, runBytes } = snapshotText(ms)
    await mkdir(join(dir, 'monitors'))
    await writeFile(join(dir, 'monitors', 'snapshot.json'), text)
    const before = used()
    const s = new LowdbMonitorStore(dir)
    await s.load()
    const ratio = (used() - before) / runBytes
    // measured: 0.31 packed (monitor records included), 1.11 as parsed objects
    expect(ratio).toBeLessThan(0.55)
    expect((await s.listRuns(ms[0].id, { limit: 1 })).items).toHaveLength(1)
    await s.close()
  })

  it('takes far less heap for an incident than its JSON text', () => {
    const h = new LowdbHistory()
    const ids = Array.from({ length: 200 }, () => nextId())
    const keep = { ok: true, counted: true, interval_seconds: 60 }
    for (const id of ids) h.add(run(id, 0), keep) // the rings, so they are not in the figure
    const before = used()
    for (let k = 1; k <= 120; k++)
      for (const id of ids) {
        const cause = `connect ECONNREFUSED 10.0.0.${k % 7}:443`
        h.add(run(id, k * 60), { ...keep, ok: false, incident: { open: cause } })
        h.add(run(id, k * 60 + 10), { ...keep, incident: { close: true } })
      }
    const ratio = (used() - before) / JSON.stringify(ids.map((id) => h.incidents(id, 0))).length
    expect(h.incidents(ids[0], 0)).toHaveLength(120)
    // measured: 0.21 packed, 1.24 as objects
    expect(ratio).toBeLessThan(0.6)
  })
})

describe('rollup rings (RollupRing)', () => {
  const HOUR = 3_600_000
  const ok = { ok: true, counted: true, interval_seconds: 60 }
  const down = { ok: false, counted: true, interval_seconds: 86_400 }

  it('widens a counter the first time a value does not fit, and reads back what was added', () => {
    const r = new RollupRing(744, 'hour')
    const now = Math.floor(Date.now() / HOUR) * HOUR
    const id = nextId()
    const narrow = r.bytes
    for (let k = 0; k < 300; k++)
      r.add(now, contribution({ ...run(id, k), health_score: 100, response_time_ms: 20_000_000 }, ok))
    r.add(now, contribution(run(id, 3), down)) // a failed run: no response time
    r.add(now - HOUR, contribution(run(id, 2), { ...ok, counted: false }))
    const [b1, b2] = r.range(0, Infinity)
    expect(b1).toMatchObject({ start: now - HOUR, runs: 0, excluded_runs: 1 })
    expect(b2).toMatchObject({ start: now, runs: 301, failed_runs: 1, saved_runs: 300, health_sum: 30_000 })
    expect(b2.downtime_seconds).toBe(86_400)
    expect(b2.response_ms_sum).toBe(300 * 20_000_000) // past 2^32
    expect(r.bytes).toBeGreaterThan(narrow)
    // history.bin's wide form and back
    expect(RollupRing.fromWide(744, 'hour', r.wide()).range(0, Infinity)).toEqual([b1, b2])
  })

  it('resets the slots the newest bucket passes and forgets buckets past the ring', () => {
    const r = new RollupRing(24, 'hour')
    const now = Math.floor(Date.now() / HOUR) * HOUR
    const id = nextId()
    r.add(now - 30 * HOUR, contribution(run(id, 0), ok))
    r.add(now - 29 * HOUR, contribution(run(id, 1), ok))
    r.add(now - 6 * HOUR, contribution(run(id, 2), ok)) // passes the slot of -30 h
    r.add(now - 40 * HOUR, contribution(run(id, 3), ok)) // older than the ring reaches: ignored
    expect(r.range(0, Infinity).map((b) => (now - b.start) / HOUR)).toEqual([29, 6])
    expect(r.sum(0, r.top + 1)).toEqual([2, 0])
    r.add(now, contribution(run(id, 4), ok))
    expect(r.range(0, Infinity).map((b) => (now - b.start) / HOUR)).toEqual([6, 0])
  })

  it('keeps a 60 s monitor’s year of buckets in under half the bytes the wide rings took', () => {
    const hours = new RollupRing(744, 'hour')
    const days = new RollupRing(400, 'day')
    const end = Math.floor(Date.now() / HOUR) * HOUR
    const id = nextId()
    const r = run(id, 0)
    for (let at = end - 365 * 24 * HOUR; at < end; at += 60_000) {
      const h = { ...ok, ok: at % (3 * 24 * HOUR) >= 600_000 }
      r.health_score = 80 + (at % 21)
      r.response_time_ms = 40 + ((at / 60_000) % 97) * 3
      hours.add(at, contribution(r, h))
      days.add(at, contribution(r, h))
    }
    expect(hours.range(0, Infinity)).toHaveLength(743)
    expect(days.range(0, Infinity)).toHaveLength(366)
    expect(days.range(0, Infinity)[100]).toMatchObject({ runs: 1440, saved_runs: 1440 })
    // measured: 15.4 KB (8-bit counts and 16-bit sums by the hour); 41 KB as 32-bit counters
    // with the bucket of each slot
    expect(hours.bytes + days.bytes).toBeLessThan(20_000)
  })
})
