/**
 * Maintenance windows as plain functions over the store (docs/decisions.md#monitoring-depth):
 * create, read, change and delete a user's windows, and answer the question runs ask: is this
 * monitor inside a window now? A window may only name its owner's monitors. Knows nothing of HTTP:
 * refusals are DomainErrors (shared/domain-error.ts), `invalid` naming the field, or `not_found`.
 *
 * Runs ask often (every run of every monitor), so a user's windows are kept here for a few
 * seconds: a window changed through this process is seen at once, one changed through another
 * instance (PostgreSQL) within CACHE_MS.
 */
import {
  maintenanceProblem,
  type MaintenanceCreate,
  type MaintenancePatch,
  type MaintenanceWindow,
} from '../../contract/monitoring.js'
import type { MaintenanceRecord, MaintenanceStore } from '../../store/maintenance.js'
import type { MonitorDefinitionStore } from '../../store/monitors.js'
import { nextId } from '../ids.js'
import { currentOrNext, openAt } from './schedule.js'
import { DomainError } from '../../shared/index.js'

const CACHE_MS = 5_000
const CACHE_USERS = 10_000

const NOT_FOUND = 'No maintenance window with this id for this API key.'
/** What an invalid window's refusal is about: the API words its 400 with it and the field. */
const SUBJECT = 'maintenance window'

/** A window as the public may read it on a status page: its next (or current) opening. */
export interface MaintenanceOpening {
  name: string
  starts_at: string
  ends_at: string
  monitor_ids: string[] | 'all'
}

export function maintenanceView(w: MaintenanceRecord, now: number): MaintenanceWindow {
  const next = currentOrNext(w, now)
  const iso = (ms: number) => new Date(ms).toISOString()
  return {
    id: w.id,
    name: w.name,
    monitor_ids: w.monitor_ids,
    starts_at: w.starts_at,
    ends_at: w.ends_at,
    weekly: w.weekly,
    active: next !== undefined && next.start <= now,
    next_starts_at: next && Number.isFinite(next.start) ? iso(next.start) : null,
    next_ends_at: next && Number.isFinite(next.end) ? iso(next.end) : null,
    created_at: w.created_at,
    updated_at: w.updated_at,
  }
}

const covers = (w: MaintenanceRecord, monitorId: string) =>
  w.monitor_ids === 'all' || w.monitor_ids.includes(monitorId)

export class MaintenanceService {
  private readonly cache = new Map<string, { at: number; windows: MaintenanceRecord[] }>()
  private readonly created = new Set<(w: MaintenanceRecord) => void>()

  /** Told of each window made (status pages tell their subscribers). */
  onCreated(listener: (w: MaintenanceRecord) => void): void {
    this.created.add(listener)
  }

  constructor(
    private readonly windows: MaintenanceStore,
    private readonly monitors: MonitorDefinitionStore,
    private readonly now: () => number = Date.now,
  ) {}

  private async checkMonitors(userId: string, ids: string[] | 'all'): Promise<string[] | 'all'> {
    if (ids === 'all') return ids
    const unique = [...new Set(ids.map((id) => id.toLowerCase()))]
    for (const id of unique)
      if (!(await this.monitors.getMonitor(userId, id)))
        throw new DomainError('invalid', `no monitor ${id} for this API key`, {
          field: 'monitor_ids',
          subject: SUBJECT,
        })
    return unique
  }

  private checkTimes(w: Pick<MaintenanceRecord, 'starts_at' | 'ends_at' | 'weekly'>): void {
    const p = maintenanceProblem(w)
    if (p) throw new DomainError('invalid', p.message, { field: p.field, subject: SUBJECT })
  }

  async create(userId: string, body: MaintenanceCreate): Promise<MaintenanceRecord> {
    const times = {
      starts_at: body.starts_at ?? null,
      ends_at: body.ends_at ?? null,
      weekly: body.weekly ?? null,
    }
    this.checkTimes(times)
    const now = new Date(this.now()).toISOString()
    const w: MaintenanceRecord = {
      id: nextId(),
      user_id: userId,
      name: body.name,
      monitor_ids: await this.checkMonitors(userId, body.monitor_ids),
      ...times,
      created_at: now,
      updated_at: now,
    }
    await this.windows.createMaintenance(w)
    this.cache.delete(userId)
    for (const l of this.created) l(w)
    return w
  }

  async get(userId: string, id: string): Promise<MaintenanceRecord> {
    const w = await this.windows.getMaintenance(userId, id.toLowerCase())
    if (!w) throw new DomainError('not_found', NOT_FOUND)
    return w
  }

  list(userId: string): Promise<MaintenanceRecord[]> {
    return this.windows.listMaintenance(userId)
  }

  async update(userId: string, id: string, patch: MaintenancePatch): Promise<MaintenanceRecord> {
    const prev = await this.get(userId, id)
    const next: MaintenanceRecord = { ...prev, updated_at: new Date(this.now()).toISOString() }
    if (patch.name !== undefined) next.name = patch.name
    if (patch.starts_at !== undefined) next.starts_at = patch.starts_at
    if (patch.ends_at !== undefined) next.ends_at = patch.ends_at
    if (patch.weekly !== undefined) next.weekly = patch.weekly
    this.checkTimes(next)
    if (patch.monitor_ids !== undefined)
      next.monitor_ids = await this.checkMonitors(userId, patch.monitor_ids)
    const saved = await this.windows.updateMaintenance(next)
    this.cache.delete(userId)
    if (!saved) throw new DomainError('not_found', NOT_FOUND)
    return saved
  }

  async remove(userId: string, id: string): Promise<void> {
    const gone = await this.windows.deleteMaintenance(userId, id.toLowerCase())
    this.cache.delete(userId)
    if (!gone) throw new DomainError('not_found', NOT_FOUND)
  }

  /** The user's windows, read at most once per CACHE_MS (runs ask for every monitor). */
  private async recent(userId: string): Promise<MaintenanceRecord[]> {
    const now = this.now()
    const hit = this.cache.get(userId)
    if (hit && now - hit.at < CACHE_MS) return hit.windows
    const windows = await this.windows.listMaintenance(userId)
    if (this.cache.size >= CACHE_USERS) this.cache.clear()
    this.cache.set(userId, { at: now, windows })
    return windows
  }

  /** Whether a window of the owner covers the monitor at `at` (default now). */
  async covers(monitor: { id: string; user_id: string }, at = this.now()): Promise<boolean> {
    const windows = await this.recent(monitor.user_id)
    return windows.some((w) => covers(w, monitor.id) && openAt(w, at) !== undefined)
  }

  /** Of a user's monitors, those inside a window now (the monitor views' `maintenance` state). */
  async covering(userId: string, monitorIds: string[]): Promise<Set<string>> {
    const now = this.now()
    const open = (await this.recent(userId)).filter((w) => openAt(w, now) !== undefined)
    return new Set(monitorIds.filter((id) => open.some((w) => covers(w, id))))
  }

  /** Of some monitors (of one user or several), those inside a window now. */
  async of(monitors: { id: string; user_id: string }[]): Promise<Set<string>> {
    const out = new Set<string>()
    for (const userId of new Set(monitors.map((m) => m.user_id))) {
      const ids = monitors.filter((m) => m.user_id === userId).map((m) => m.id)
      for (const id of await this.covering(userId, ids)) out.add(id)
    }
    return out
  }

  /** The owner's windows open now or still to come, each by its current or next opening, soonest first. */
  async upcoming(userId: string, now = this.now()): Promise<MaintenanceOpening[]> {
    const out: MaintenanceOpening[] = []
    for (const w of await this.list(userId)) {
      const o = currentOrNext(w, now)
      if (!o || !Number.isFinite(o.start) || !Number.isFinite(o.end)) continue
      out.push({
        name: w.name,
        starts_at: new Date(o.start).toISOString(),
        ends_at: new Date(o.end).toISOString(),
        monitor_ids: w.monitor_ids,
      })
    }
    return out.sort((a, b) => (a.starts_at < b.starts_at ? -1 : 1))
  }
}
