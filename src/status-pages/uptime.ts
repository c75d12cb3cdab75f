/**
 * What a status page needs from monitoring history (docs/decisions.md#monitoring-depth: rollups, incidents,
 * maintenance windows), as one small port. The monitoring-depth code owns that history; serve
 * binds this port to it, so status pages, badges and the dashboard read the same rollups and no
 * second copy of history is kept.
 */
import type { MonitorRecord } from '../store/monitors.js'

export interface UptimeWindows {
  '24h': number | null
  '7d': number | null
  '30d': number | null
}

export interface IncidentSpan {
  started_at: string
  /** null: still down. */
  ended_at: string | null
}

export interface MaintenanceSpan {
  name: string
  starts_at: string
  ends_at: string
  /** The monitors it covers; 'all' for every monitor of the owner. */
  monitor_ids: string[] | 'all'
}

/**
 * Read for a whole page at once (50 monitors: one read each, not 50), each answer by monitor id;
 * a monitor the history knows nothing of may be absent.
 */
export interface UptimePort {
  /** Percent up over the last 24 h, 7 d and 30 d. */
  windows(monitors: MonitorRecord[]): Promise<Map<string, UptimeWindows>>
  /**
   * The percent up of each of `count` UTC days, the first starting at `fromMs` (a day's start),
   * oldest first; null: no run counted that day.
   */
  days(monitors: MonitorRecord[], fromMs: number, count: number): Promise<Map<string, (number | null)[]>>
  /** Down periods that overlap [sinceMs, now], newest first. */
  incidents(monitors: MonitorRecord[], sinceMs: number): Promise<Map<string, IncidentSpan[]>>
  /** The owner's maintenance on now or coming, soonest first (recurring ones: the next occurrence). */
  maintenance(userId: string, nowMs: number): Promise<MaintenanceSpan[]>
}

const DAY_MS = 86_400_000
/** Day number → 'YYYY-MM-DD': a page of 50 monitors × 90 days asks for the same few days 4,500 times. */
const dayNames = new Map<number, string>()

/** The UTC day of an epoch ms. */
export function dayOf(ms: number): string {
  const n = Math.floor(ms / DAY_MS)
  let name = dayNames.get(n)
  if (name === undefined) {
    name = new Date(n * DAY_MS).toISOString().slice(0, 10)
    if (dayNames.size >= 2048) dayNames.clear()
    dayNames.set(n, name)
  }
  return name
}

/** Every UTC day from `from` to `to`, inclusive. */
export function daysBetween(from: string, to: string): string[] {
  const out: string[] = []
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += DAY_MS)
    out.push(dayOf(t))
  return out
}

/** A port that knows no history: every figure null, no incident, no maintenance. */
export const NO_HISTORY: UptimePort = {
  windows: async () => new Map(),
  days: async () => new Map(),
  incidents: async () => new Map(),
  maintenance: async () => [],
}
