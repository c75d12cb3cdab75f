/**
 * Monitor history on the embedded store (docs/decisions.md#monitoring-depth), which holds it in
 * memory, so in a compact form: per monitor two rings of typed arrays (rollup-ring.ts), 744 hourly
 * slots (31 days) and 400 daily slots, about 17 KB a 60 s monitor however long it runs (41 KB
 * before its counters were narrowed). Adding a run is O(1): the slot of its bucket is found by
 * arithmetic and reset when the newest bucket passes it (retention needs no sweep). Incidents are
 * a short packed list per monitor (incident-list.ts), pruned to 400 days as they close.
 *
 * Adding is idempotent: each monitor remembers the id of the last run it rolled up (ids are
 * time-ordered), so a journal replayed over a newer snapshot counts no run twice.
 *
 * Durability: `chunks` yields everything as binary pieces of about 1 MB, written one at a time
 * beside the snapshot when the journal is folded (history.bin; the journal holds writes back
 * meanwhile, so the pieces are of one moment); `load` reads it back a piece at a time. Neither
 * ever holds the whole file (~65 KB a monitor, 650 MB at 10,000) in one buffer beside the memory
 * it describes. The file keeps the rings' wide form (32-bit counters, the bucket of each slot), so
 * files written before the narrow rings load as they are.
 */
import { open, type FileHandle } from 'node:fs/promises'
import { DAILY_RETENTION_DAYS, HOURLY_RETENTION_DAYS } from '../../contract/monitoring.js'
import { BUCKET_MS, contribution, incidentsKeptFrom, sumBuckets } from '../rules/buckets.js'
import { incidentChange } from '../rules/incidents.js'
import { LOCAL, locatedIncident } from '../rules/location.js'
import type {
  IncidentRecord,
  LocatedBucket,
  RollupBucket,
  RollupCounts,
  RollupGranularity,
  RollupTotals,
  RunHistory,
} from '../history.js'
import type { RunRecord } from '../run-log.js'
import { IncidentList } from './incident-list.js'
import { RollupRing, WIDE_FIELDS, type WideRing } from './rollup-ring.js'
import { SharedStrings } from './run-ring.js'

const HOURS = HOURLY_RETENTION_DAYS * 24
const DAYS = DAILY_RETENTION_DAYS

interface Rings {
  hours: RollupRing
  days: RollupRing
}

interface MonitorHistory {
  /** The id of the last run rolled up (of any location). */
  last: string
  /** The rings of each location the monitor ran at. */
  at: Map<string, Rings>
  incidents: IncidentList
}

/**
 * One location of a monitor in history.bin: a JSON header, then the rings' arrays as they are in
 * memory. The first of a monitor holds its incidents; `location` is absent for `local` (files
 * written before locations hold `local` alone).
 */
interface Header {
  id: string
  last: string
  location?: string
  incidents: (Omit<IncidentRecord, 'location'> & { location?: string })[]
}

const ringsOf = (): Rings => ({ hours: new RollupRing(HOURS, 'hour'), days: new RollupRing(DAYS, 'day') })
const ringOf = (r: Rings, g: RollupGranularity) => (g === 'hour' ? r.hours : r.days)

const MAGIC = 'SHH1'
/** The size of the pieces history.bin is written and read in. */
const CHUNK_BYTES = 1 << 20

/** Reads a file front to back in pieces of CHUNK_BYTES, handing out copies of what it needs. */
class ChunkReader {
  private buf = Buffer.alloc(0)
  private off = 0
  private pos = 0

  constructor(private readonly fh: FileHandle) {}

  /** False once every byte was taken. */
  async more(): Promise<boolean> {
    if (this.off < this.buf.length) return true
    await this.fill(1)
    return this.off < this.buf.length
  }

  /** Makes at least `n` bytes ready (fewer only at the end of the file). */
  private async fill(n: number): Promise<void> {
    const left = this.buf.length - this.off
    if (left >= n) return
    const next = Buffer.allocUnsafe(Math.max(n, CHUNK_BYTES))
    this.buf.copy(next, 0, this.off)
    let end = left
    while (end < next.length) {
      const { bytesRead } = await this.fh.read(next, end, next.length - end, this.pos)
      if (bytesRead === 0) break
      end += bytesRead
      this.pos += bytesRead
    }
    this.buf = next.subarray(0, end)
    this.off = 0
  }

  /** The next `n` bytes, in memory of their own (typed arrays need aligned, owned memory). */
  async take(n: number): Promise<ArrayBuffer> {
    const out = new Uint8Array(n)
    await this.takeInto(out)
    return out.buffer
  }

  /** The next bytes into `into` (memory reused: a load reads 60,000 rings' arrays). */
  async takeInto<T extends Int32Array | Uint32Array | Float64Array | Uint8Array>(into: T): Promise<T> {
    const n = into.byteLength
    await this.fill(n)
    if (this.buf.length - this.off < n) throw new Error('history file is truncated')
    new Uint8Array(into.buffer, into.byteOffset, n).set(this.buf.subarray(this.off, this.off + n))
    this.off += n
    return into
  }
}

export class LowdbHistory {
  private readonly byMonitor = new Map<string, MonitorHistory>()

  /** `strings`: the store's table of shared strings (incidents' causes). */
  constructor(private readonly strings = new SharedStrings()) {}

  private fresh(monitorId: string): MonitorHistory {
    return { last: '', at: new Map(), incidents: new IncidentList(monitorId, this.strings) }
  }

  /** Rolls a run up and opens or closes its incident; a run already rolled up is ignored. */
  add(run: RunRecord, h: RunHistory): void {
    let m = this.byMonitor.get(run.monitor_id)
    if (m && run.id <= m.last) return
    if (!m) {
      m = this.fresh(run.monitor_id)
      this.byMonitor.set(run.monitor_id, m)
    }
    m.last = run.id
    let rings = m.at.get(run.location)
    if (!rings) m.at.set(run.location, (rings = ringsOf()))
    const at = Date.parse(run.started_at)
    const c = contribution(run, h)
    rings.hours.add(at, c)
    rings.days.add(at, c)
    const change = incidentChange(run, h)
    if (change && 'open' in change) {
      if (!m.incidents.hasOpen()) m.incidents.push(change.open)
    } else if (change) {
      m.incidents.close(change.close.ended_at)
      m.incidents.pruneBefore(incidentsKeptFrom(at))
    }
  }

  /** Drops incidents closed before their retention at `now` (of monitors that stopped running too). */
  prune(now: number): number {
    let removed = 0
    for (const m of this.byMonitor.values()) removed += m.incidents.pruneBefore(incidentsKeptFrom(now))
    return removed
  }

  /** Forgets a deleted monitor's history. */
  drop(monitorId: string): void {
    this.byMonitor.get(monitorId)?.incidents.release()
    this.byMonitor.delete(monitorId)
  }

  /** Of every location summed, or of `location` alone. */
  rollups(
    monitorId: string,
    g: RollupGranularity,
    fromMs: number,
    toMs: number,
    location?: string,
  ): RollupBucket[] {
    const m = this.byMonitor.get(monitorId)
    if (!m) return []
    if (location !== undefined) {
      const r = m.at.get(location)
      return r ? ringOf(r, g).range(fromMs, toMs) : []
    }
    return sumBuckets([...m.at.values()].map((r) => ringOf(r, g).range(fromMs, toMs)))
  }

  /** Runs and failed runs of `count` buckets from `fromMs` (a bucket's start), by monitor with history. */
  countsOf(ids: string[], g: RollupGranularity, fromMs: number, count: number): Map<string, RollupCounts> {
    const out = new Map<string, RollupCounts>()
    for (const id of ids) {
      const m = this.byMonitor.get(id)
      if (!m) continue
      const c = { runs: new Uint32Array(count), failed_runs: new Uint32Array(count) }
      for (const r of m.at.values())
        ringOf(r, g).counts(Math.ceil(fromMs / BUCKET_MS[g]), c.runs, c.failed_runs)
      out.set(id, c)
    }
    return out
  }

  /** `fn` of each monitor, by id; a monitor `fn` finds nothing for (undefined or empty) is absent. */
  each<T>(ids: string[], fn: (id: string) => T[] | undefined): Map<string, T[]> {
    const out = new Map<string, T[]>()
    for (const id of ids) {
      const v = this.byMonitor.has(id) ? fn(id) : undefined
      if (v && v.length > 0) out.set(id, v)
    }
    return out
  }

  /**
   * The sums of hourly buckets from each since (whole hours) to the newest. Both rings roll up the
   * same runs, so the whole UTC days of a window are read from the daily ring: about 24 + 30 slots
   * for 30 days instead of the 744 hourly ones (a status page asks this for 50 monitors).
   */
  totals(monitorId: string, sinceMs: number[]): RollupTotals[] | undefined {
    const m = this.byMonitor.get(monitorId)
    if (!m) return undefined
    const perDay = BUCKET_MS.day / BUCKET_MS.hour
    return sinceMs.map((since) => {
      const hour = Math.ceil(since / BUCKET_MS.hour)
      const day = Math.ceil(hour / perDay)
      const t = { runs: 0, failed_runs: 0 }
      for (const { hours, days } of m.at.values()) {
        const [hr, hf] = hours.sum(hour, Math.min(day * perDay, hours.top + 1))
        const [dr, df] = days.sum(day, days.top + 1)
        t.runs += hr + dr
        t.failed_runs += hf + df
      }
      return t
    })
  }

  incidents(monitorId: string, sinceMs: number): IncidentRecord[] {
    return this.byMonitor.get(monitorId)?.incidents.since(sinceMs).reverse() ?? []
  }

  /** Every bucket and incident of a monitor (copying the store: `db import`). */
  export(monitorId: string): { rollups: LocatedBucket[]; incidents: IncidentRecord[] } {
    const m = this.byMonitor.get(monitorId)
    if (!m) return { rollups: [], incidents: [] }
    const rollups = [...m.at].flatMap(([location, r]) =>
      [...r.hours.range(0, Infinity), ...r.days.range(0, Infinity)].map((b) => ({ ...b, location })),
    )
    return { rollups, incidents: m.incidents.all() }
  }

  /**
   * Everything, in pieces of about CHUNK_BYTES, each made as it is asked for, in one buffer and
   * two rings reused throughout: a ring's wide form made anew for each of 10,000 monitors left
   * 400 MB of buffers to the collector, and a fold's RSS rose by that much. Each piece is a view
   * of that buffer, which the next reuses: write it before asking for the next.
   */
  *chunks(): Generator<Buffer> {
    let buf = Buffer.allocUnsafe(2 * CHUNK_BYTES)
    let pos = 0
    const put = (b: Uint8Array) => {
      if (pos + b.length > buf.length) {
        const next = Buffer.allocUnsafe(Math.max(2 * buf.length, pos + b.length))
        buf.copy(next, 0, 0, pos)
        buf = next
      }
      buf.set(b, pos)
      pos += b.length
    }
    const bytes = (a: Int32Array | Uint32Array | Float64Array) =>
      new Uint8Array(a.buffer, a.byteOffset, a.byteLength)
    const len = Buffer.alloc(4)
    let hours: WideRing | undefined
    let days: WideRing | undefined
    put(Buffer.from(MAGIC))
    for (const [id, m] of this.byMonitor) {
      let first = true
      for (const [location, rings] of m.at) {
        const head: Header = { id, last: m.last, incidents: first ? m.incidents.all() : [] }
        if (location !== LOCAL) head.location = location
        first = false
        const header = Buffer.from(JSON.stringify(head))
        len.writeUInt32LE(header.length)
        put(len)
        put(header)
        hours = rings.hours.wide(hours)
        days = rings.days.wide(days)
        for (const r of [hours, days]) for (const a of [r.idx, r.n, r.rt]) put(bytes(a))
      }
      if (pos >= CHUNK_BYTES) {
        yield buf.subarray(0, pos) // written before the next piece reuses the buffer
        pos = 0
      }
    }
    if (pos > 0) yield buf.subarray(0, pos)
  }

  /** Reads what `chunks` wrote to `file` (replacing what is in memory); ENOENT when it is not there. */
  async load(file: string): Promise<void> {
    const fh = await open(file, 'r')
    try {
      const r = new ChunkReader(fh)
      if (Buffer.from(await r.take(4).catch(() => new ArrayBuffer(0))).toString() !== MAGIC)
        throw new Error('not a history file (bad magic)')
      for (const id of [...this.byMonitor.keys()]) this.drop(id)
      const wide = new Map<number, WideRing>()
      const ring = async (size: number, g: RollupGranularity) => {
        let w = wide.get(size)
        if (!w) {
          w = {
            idx: new Int32Array(size),
            n: new Uint32Array(size * WIDE_FIELDS),
            rt: new Float64Array(size),
          }
          wide.set(size, w)
        }
        for (const a of [w.idx, w.n, w.rt]) await r.takeInto(a)
        return RollupRing.fromWide(size, g, w)
      }
      while (await r.more()) {
        const len = new DataView(await r.take(4)).getUint32(0, true)
        const h = JSON.parse(Buffer.from(await r.take(len)).toString('utf8')) as Header
        const hours = await ring(HOURS, 'hour')
        const days = await ring(DAYS, 'day')
        let m = this.byMonitor.get(h.id)
        if (!m) this.byMonitor.set(h.id, (m = { ...this.fresh(h.id), last: h.last }))
        m.at.set(h.location ?? LOCAL, { hours, days })
        for (const i of h.incidents) m.incidents.push(locatedIncident(i))
      }
    } finally {
      await fh.close()
    }
  }
}
