/**
 * The monitor concern of the embedded store: everything lives in memory and is made durable in
 * `<dataDir>/monitors/`:
 *
 *   snapshot.json   {version, monitors, runs, events}: the state when the journal was last folded
 *   history.bin     the rollups and incidents at that fold, in their compact form (history.ts)
 *   journal.jsonl   every change since, one JSON line each, written with group commit
 *
 * Why not one lowdb document rewritten per change: at 10,000 monitors a minute that is ~170
 * writes a second of a multi-megabyte document. A journal line per change, with concurrent lines
 * sharing one fsync (journal.ts), keeps the cost per run a few hundred bytes and a fraction of an
 * fsync; the journal is folded into a new snapshot when it passes `compactBytes`. Entries are
 * idempotent (puts by id), so replaying a line already in the snapshot is harmless.
 *
 * History is bounded: each monitor keeps its newest `historyLimit` runs and events (the saved
 * checks themselves stay in the checks store), so memory and the snapshot grow with the number
 * of monitors, not with time. Rollups and incidents are applied with their run's journal line,
 * so they commit with it and replay with it (history.ts ignores a run it already counted).
 */
import { join } from 'node:path'
import type { Delivery } from '../../contract/monitors.js'
import { DuplicateRefError } from '../errors.js'
import { CreatesInFlight } from './monitor-cap.js'
import { ensureDir, writeFileDurably } from './durable-file.js'
import type { Claim } from '../schedule.js'
import type { EventRecord, NewRun, RunRecord } from '../run-log.js'
import type {
  IncidentRecord,
  LocatedBucket,
  RollupBucket,
  RollupGranularity,
  RollupTotals,
  RunHistory,
} from '../history.js'
import type { CreateMonitorOptions, MonitorListQuery, MonitorRecord, Page, PageOptions } from '../monitors.js'
import type { MonitorStore } from '../types.js'
import { LowdbHistory } from './history.js'
import type { ChannelSealer } from '../channels.js'
import { sealStoredChannels } from './channels.js'
import { DeliveryLeases } from './delivery-leases.js'
import { savedRunMs } from '../rules/buckets.js'
import { located } from '../rules/location.js'
import { DueHeap } from '../../shared/index.js'
import { Journal, readJournal, type WriteFn } from './journal.js'
import { JsonLines, readSnapshot, snapshotPieces } from './snapshot-file.js'
import { flatten, indexed, lowerBound, monitorPage, pageOf } from './paging.js'
import { RunRing, SharedStrings } from './run-ring.js'

export const DEFAULT_HISTORY_LIMIT = 100
export const DEFAULT_COMPACT_BYTES = 64 * 1024 * 1024

export interface LowdbMonitorStoreOptions {
  historyLimit?: number
  compactBytes?: number
  /** Load-time warnings (a torn journal tail cut off); default: a line on stderr. */
  warn?: (line: string) => void
  /** Replaces the journal's file write (tests inject short writes and a full disk). */
  journalWrite?: WriteFn
  /** Seals channels stored in clear by an older version (channels.ts); without it they refuse to load. */
  sealChannels?: ChannelSealer
}

type Entry =
  | { t: 'm'; m: MonitorRecord }
  | { t: 'd'; id: string }
  // `r` without a location: written before locations, a run at `local`
  | { t: 'r'; m: MonitorRecord; r: NewRun; e: EventRecord[]; h?: RunHistory }
  | { t: 'e'; m: MonitorRecord; e: EventRecord[] }
  | { t: 'dl'; mid: string; eid: string; d: Delivery }

interface Snapshot {
  version: 1
  monitors: MonitorRecord[]
  runs: RunRecord[]
  events: EventRecord[]
}

const refKey = (userId: string, ref: string) => `${userId} ${ref}`

/** The JSON text of every run of `rings`, in order (written from the packed columns). */
function* runLines(rings: Iterable<RunRing>): Generator<string> {
  for (const ring of rings) for (let i = 0; i < ring.length; i++) yield ring.jsonAt(i)
}

export class LowdbMonitorStore implements MonitorStore {
  private readonly monitors = new Map<string, MonitorRecord>()
  /** Monitor ids per user, ascending (ids are time-ordered). */
  private readonly byUser = new Map<string, string[]>()
  private readonly creating = new CreatesInFlight() // the monitor cap's creates in flight
  /** `<user id> <ref>` → monitor id: refs are unique per user. */
  private readonly byRef = new Map<string, string>()
  /** Strings the packed runs and incidents share (run-ring.ts). */
  private readonly strings = new SharedStrings()
  /** The newest runs of each monitor, packed (run-ring.ts). */
  private readonly runs = new Map<string, RunRing>()
  private readonly events = new Map<string, EventRecord[]>()
  private readonly history = new LowdbHistory(this.strings)
  private readonly deliveryLeases = new DeliveryLeases()
  private readonly heap = new DueHeap()
  private readonly claimed = new Set<string>()
  private journal!: Journal
  private compacting: Promise<void> | undefined
  private closed = false
  readonly historyLimit: number
  private readonly compactBytes: number
  private readonly dir: string

  constructor(
    dataDir: string,
    private readonly opts: LowdbMonitorStoreOptions = {},
  ) {
    this.dir = join(dataDir, 'monitors')
    this.historyLimit = opts.historyLimit ?? DEFAULT_HISTORY_LIMIT
    this.compactBytes = opts.compactBytes ?? DEFAULT_COMPACT_BYTES
  }

  /** fsyncs and lines of the journal (benchmarks report fsyncs per saved run). */
  get journalStats() {
    return this.journal.stats
  }

  /** Reads the snapshot and replays the journal (the data dir is locked by the store). */
  async load(): Promise<void> {
    await ensureDir(this.dir)
    try {
      await this.history.load(join(this.dir, 'history.bin'))
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
        throw new Error(`Corrupt ${join(this.dir, 'history.bin')}: ${(err as Error).message}`)
    }
    try {
      await readSnapshot(join(this.dir, 'snapshot.json'), (section, item) => {
        if (section === 'monitors') this.putMonitor(item as MonitorRecord)
        else if (section === 'runs') this.addRun(item as NewRun)
        else if (section === 'events') this.addEvents([item as EventRecord])
      })
    } catch (err) {
      throw new Error(`Corrupt ${join(this.dir, 'snapshot.json')}: ${(err as Error).message}`)
    }
    const file = join(this.dir, 'journal.jsonl')
    const { entries, validBytes, warnings } = await readJournal<Entry>(file)
    const warn = this.opts.warn ?? ((line: string) => process.stderr.write(`${line}\n`))
    for (const w of warnings) warn(`warning: monitor journal: ${w}`)
    for (const e of entries) this.apply(e)
    this.journal = await Journal.open(file, validBytes, this.opts.journalWrite)
    // channels stored in clear are sealed, and the files holding them folded away at once
    if (sealStoredChannels(this.monitors, this.opts.sealChannels, this.dir) > 0) await this.compact()
    for (const m of this.monitors.values())
      if (m.next_run_at !== null) this.heap.push({ due: m.next_run_at, id: m.id })
  }

  // ---- memory ----

  private apply(e: Entry): void {
    switch (e.t) {
      case 'm':
        this.putMonitor(e.m)
        break
      case 'd':
        this.dropMonitor(e.id)
        break
      case 'r': {
        if (!this.monitors.has(e.m.id)) break
        this.putMonitor(e.m)
        const r = this.addRun(e.r)
        if (e.h) this.history.add(r, e.h)
        this.addEvents(e.e)
        break
      }
      case 'e':
        if (!this.monitors.has(e.m.id)) break
        this.putMonitor(e.m)
        this.addEvents(e.e)
        break
      case 'dl':
        this.setDelivery(e.mid, e.eid, e.d)
        break
    }
  }

  private putMonitor(m: MonitorRecord): void {
    const prev = this.monitors.get(m.id)
    this.monitors.set(m.id, m)
    if (prev?.ref && prev.ref !== m.ref) this.byRef.delete(refKey(prev.user_id, prev.ref))
    if (m.ref) this.byRef.set(refKey(m.user_id, m.ref), m.id)
    if (!prev) {
      let ids = this.byUser.get(m.user_id)
      if (!ids) this.byUser.set(m.user_id, (ids = []))
      const i = lowerBound(ids, m.id)
      if (ids[i] !== m.id) ids.splice(i, 0, m.id)
    }
  }

  private dropMonitor(id: string): void {
    const m = this.monitors.get(id)
    if (!m) return
    this.monitors.delete(id)
    if (m.ref) this.byRef.delete(refKey(m.user_id, m.ref))
    this.runs.get(id)?.release()
    this.runs.delete(id)
    this.events.delete(id)
    this.history.drop(id)
    this.claimed.delete(id)
    const ids = this.byUser.get(m.user_id)
    if (ids) {
      const i = lowerBound(ids, id)
      if (ids[i] === id) ids.splice(i, 1)
      if (ids.length === 0) this.byUser.delete(m.user_id)
    }
  }

  /** Adds a run to its ring (one stored before locations as at `local`); returns it so. */
  private addRun(run: NewRun): RunRecord {
    const r = run.location === undefined ? located(run) : (run as RunRecord)
    let ring = this.runs.get(r.monitor_id)
    if (!ring)
      this.runs.set(r.monitor_id, (ring = new RunRing(r.monitor_id, this.historyLimit, this.strings)))
    ring.push(r) // a replayed run (an id not newer than the newest) is ignored
    return r
  }

  private addEvents(es: EventRecord[]): void {
    for (const ev of es) {
      let list = this.events.get(ev.monitor_id)
      if (!list) this.events.set(ev.monitor_id, (list = []))
      if (list.length > 0 && list[list.length - 1].id >= ev.id) continue
      list.push(ev)
      if (list.length > this.historyLimit) list.splice(0, list.length - this.historyLimit)
    }
  }

  private setDelivery(mid: string, eid: string, d: Delivery): void {
    const list = this.events.get(mid)
    const ev = list?.find((x) => x.id === eid)
    if (!ev) return
    ev.deliveries = ev.deliveries.map((x) => (x.channel_id === d.channel_id ? d : x))
  }

  private schedule(m: MonitorRecord): void {
    if (m.next_run_at !== null && !this.claimed.has(m.id)) this.heap.push({ due: m.next_run_at, id: m.id })
  }

  // ---- durability ----

  private async write(e: Entry): Promise<void> {
    if (this.closed) throw new Error('The store is closed.')
    // memory changes only once the line is durable: a failed append leaves it as the disk says
    await this.journal.append(e, () => this.apply(e))
    if (this.journal.size > this.compactBytes && !this.compacting)
      this.compacting = this.compact().finally(() => (this.compacting = undefined))
  }

  /** Folds the journal into a new snapshot (journal.ts explains why this is safe). */
  async compact(): Promise<void> {
    await this.journal.compact(async () => {
      // either order is safe: a replayed run is counted once (history.ts); both are written a
      // piece at a time (the journal holds writes back meanwhile, so memory stays as it was)
      await writeFileDurably(join(this.dir, 'history.bin'), this.history.chunks())
      const sections = {
        monitors: this.monitors.values(),
        runs: new JsonLines(runLines(this.runs.values())),
        events: flatten(this.events.values()),
      } satisfies Record<keyof Omit<Snapshot, 'version'>, Iterable<unknown> | JsonLines>
      await writeFileDurably(join(this.dir, 'snapshot.json'), snapshotPieces(1, sections))
    })
  }

  // ---- MonitorStore ----

  /** Checked and applied with no await between: one writer, so two clashing writes cannot both pass. */
  private assertRefFree(m: MonitorRecord): void {
    if (!m.ref) return
    const holder = this.byRef.get(refKey(m.user_id, m.ref))
    if (holder !== undefined && holder !== m.id) throw new DuplicateRefError(m.ref)
  }

  async createMonitor(m: MonitorRecord, opts: CreateMonitorOptions = {}): Promise<MonitorRecord> {
    if (this.monitors.has(m.id)) throw new Error(`A monitor with id ${m.id} already exists`)
    this.assertRefFree(m)
    const release = this.creating.reserve(m.user_id, this.byUser.get(m.user_id)?.length ?? 0, opts.maxPerUser)
    await this.write({ t: 'm', m }).finally(release)
    this.schedule(m)
    return m
  }

  async countMonitors(userId: string): Promise<number> {
    return this.byUser.get(userId)?.length ?? 0
  }

  async getMonitor(userId: string, id: string): Promise<MonitorRecord | undefined> {
    const m = this.monitors.get(id)
    return m && m.user_id === userId ? m : undefined
  }

  async getMonitorById(id: string): Promise<MonitorRecord | undefined> {
    return this.monitors.get(id)
  }

  async getMonitorsById(ids: string[]): Promise<MonitorRecord[]> {
    return ids.flatMap((id) => this.monitors.get(id) ?? [])
  }

  async listMonitors(userId: string, opts: MonitorListQuery): Promise<Page<MonitorRecord>> {
    // from the cursor by a binary search in the user's sorted ids, then by tags (paging.ts)
    return monitorPage(this.byUser.get(userId) ?? [], (id) => this.monitors.get(id)!, opts)
  }

  async userMonitors(userId: string): Promise<MonitorRecord[]> {
    return (this.byUser.get(userId) ?? []).map((id) => this.monitors.get(id)!)
  }

  async updateMonitor(m: MonitorRecord): Promise<MonitorRecord | undefined> {
    const prev = this.monitors.get(m.id)
    if (!prev || prev.user_id !== m.user_id) return undefined
    this.assertRefFree(m)
    await this.write({ t: 'm', m })
    if (m.next_run_at !== prev.next_run_at) this.schedule(m)
    return m
  }

  async deleteMonitor(userId: string, id: string): Promise<boolean> {
    const m = this.monitors.get(id)
    if (!m || m.user_id !== userId) return false
    await this.write({ t: 'd', id })
    return true
  }

  async claimDue(now: number, max: number): Promise<Claim[]> {
    const out: Claim[] = []
    while (out.length < max) {
      const top = this.heap.peek()
      if (!top || top.due > now) break
      this.heap.pop()
      const m = this.monitors.get(top.id)
      if (!m || m.next_run_at !== top.due || this.claimed.has(m.id) || m.paused) continue
      this.claimed.add(m.id)
      out.push({ monitor: m, due_at: top.due })
    }
    return out
  }

  async nextDueAt(): Promise<number | null> {
    for (;;) {
      const top = this.heap.peek()
      if (!top) return null
      const m = this.monitors.get(top.id)
      if (m && m.next_run_at === top.due && !this.claimed.has(m.id) && !m.paused) return top.due
      this.heap.pop()
    }
  }

  async releaseClaim(monitorId: string): Promise<void> {
    if (!this.claimed.delete(monitorId)) return
    const m = this.monitors.get(monitorId)
    if (m) this.schedule(m)
  }

  async finishRun(
    m: MonitorRecord,
    run: NewRun,
    events: EventRecord[],
    history?: RunHistory,
  ): Promise<MonitorRecord | undefined> {
    // a run on demand does not hold the scheduler's claim
    const ends = run.trigger === 'schedule'
    if (!this.monitors.has(m.id)) {
      if (ends) this.claimed.delete(m.id)
      return undefined
    }
    // a failed write keeps the claim: the scheduler holds it until the next slot, then releases it
    await this.write({ t: 'r', m, r: located(run), e: events, ...(history ? { h: history } : {}) })
    if (ends) this.claimed.delete(m.id)
    const now = this.monitors.get(m.id)
    if (now) this.schedule(now)
    return now
  }

  async recordEvents(m: MonitorRecord, events: EventRecord[]): Promise<MonitorRecord | undefined> {
    if (!this.monitors.has(m.id)) return undefined
    await this.write({ t: 'e', m, e: events })
    this.schedule(m)
    return this.monitors.get(m.id)
  }

  async listRuns(monitorId: string, opts: PageOptions): Promise<Page<RunRecord>> {
    return pageOf(this.runs.get(monitorId) ?? indexed<RunRecord>([]), opts)
  }

  async listEvents(monitorId: string, opts: PageOptions): Promise<Page<EventRecord>> {
    return pageOf(indexed(this.events.get(monitorId) ?? []), opts)
  }

  async responseTimes(monitorId: string, fromMs: number, toMs: number, max: number): Promise<number[]> {
    const ring = this.runs.get(monitorId)
    const out: number[] = []
    for (let i = 0; ring && i < ring.length && out.length < max; i++) {
      const r = ring.at(i)
      const at = Date.parse(r.started_at)
      const ms = at >= fromMs && at < toMs ? savedRunMs(r) : null
      if (ms !== null) out.push(ms)
    }
    return out
  }

  async rollups(
    monitorId: string,
    g: RollupGranularity,
    fromMs: number,
    toMs: number,
    location?: string,
  ): Promise<RollupBucket[]> {
    return this.history.rollups(monitorId, g, fromMs, toMs, location)
  }
  async rollupCountsOf(ids: string[], g: RollupGranularity, fromMs: number, count: number) {
    return this.history.countsOf(ids, g, fromMs, count)
  }
  async rollupsOf(ids: string[], g: RollupGranularity, fromMs: number, toMs: number) {
    return this.history.each(ids, (id) => this.history.rollups(id, g, fromMs, toMs))
  }

  async rollupTotals(monitorIds: string[], sinceMs: number[]): Promise<Map<string, RollupTotals[]>> {
    return this.history.each(monitorIds, (id) => this.history.totals(id, sinceMs))
  }

  async incidents(monitorId: string, sinceMs: number): Promise<IncidentRecord[]> {
    return this.history.incidents(monitorId, sinceMs)
  }
  async pruneHistory(now: number): Promise<number> {
    // buckets need no sweep here (a ring's slots are reused); closed incidents do
    return this.history.prune(now)
  }

  async incidentsOf(ids: string[], sinceMs: number) {
    return this.history.each(ids, (id) => this.history.incidents(id, sinceMs))
  }

  async updateDelivery(monitorId: string, eventId: string, delivery: Delivery): Promise<void> {
    if (!this.monitors.has(monitorId)) return
    await this.write({ t: 'dl', mid: monitorId, eid: eventId, d: delivery })
  }

  async claimDeliveries(leaseMs: number, eventIds?: string[]): Promise<EventRecord[]> {
    return this.deliveryLeases.claim(this.events.values(), leaseMs, eventIds)
  }

  async releaseDeliveries(eventIds: string[]): Promise<void> {
    this.deliveryLeases.release(eventIds)
  }

  /** Every monitor with its runs, events, rollups and incidents, oldest first (`db import`). */
  *all(): Generator<{
    monitor: MonitorRecord
    runs: RunRecord[]
    events: EventRecord[]
    rollups: LocatedBucket[]
    incidents: IncidentRecord[]
  }> {
    for (const ids of this.byUser.values())
      for (const id of ids)
        yield {
          monitor: this.monitors.get(id)!,
          runs: [...(this.runs.get(id) ?? [])],
          events: [...(this.events.get(id) ?? [])],
          ...this.history.export(id),
        }
  }

  /** Every monitor as stored (the /metrics gauges). */
  records(): IterableIterator<MonitorRecord> {
    return this.monitors.values()
  }

  async creditPausedUsers(): Promise<string[]> {
    const users = new Set<string>()
    for (const m of this.monitors.values()) if (m.paused_reason === 'credits') users.add(m.user_id)
    return [...users]
  }

  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    await this.compacting
    await this.journal?.close()
  }
}
