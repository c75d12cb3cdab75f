/**
 * When a maintenance window is open (docs/decisions.md#monitoring-depth): one-off windows between
 * their two instants, weekly ones at a local time of day in an IANA time zone, so "Saturday 02:00
 * Europe/Berlin" stays 02:00 on the wall clock across daylight-saving changes. Time-zone math is
 * Intl's (no dependency). A local time that does not exist (the hour skipped in spring) opens when
 * the clocks have jumped, as if the clock had not (02:30 → 03:30); a local time that happens twice
 * (autumn) opens the first time. Durations are real minutes. Pure.
 */
import { WEEKDAYS, type WeeklySchedule } from '../../contract/monitoring.js'

const MIN_MS = 60_000
const DAY_MS = 86_400_000
const HALF_DAY_MS = DAY_MS / 2

/** The part of a window this module needs (a stored record fits). */
export interface WindowTimes {
  starts_at: string | null
  ends_at: string | null
  weekly: WeeklySchedule | null
}

/** One opening of a window: [start, end) in epoch ms. */
export interface Opening {
  start: number
  end: number
}

const formatters = new Map<string, Intl.DateTimeFormat>()

function formatter(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz)
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    })
    if (formatters.size >= 500) formatters.clear()
    formatters.set(tz, f)
  }
  return f
}

/** Zones that are UTC at every instant: no formatting needed (Intl's formatToParts is slow). */
const UTC_ZONES = new Set(['UTC', 'Etc/UTC', 'Etc/GMT', 'GMT'])

/** The zone's offset from UTC at an instant, in ms (local wall time = instant + offset). */
export function zoneOffset(ms: number, tz: string): number {
  if (UTC_ZONES.has(tz)) return 0
  const parts: Record<string, number> = {}
  for (const p of formatter(tz).formatToParts(new Date(ms)))
    if (p.type !== 'literal') parts[p.type] = Number(p.value)
  const wall = Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour % 24, parts.minute, parts.second)
  return wall - Math.floor(ms / 1000) * 1000
}

/** wallToInstant's answers: a page's weekly windows ask for the same few days at every build. */
const instants = new Map<string, number>()

/** The instant a wall-clock time (given as if it were UTC ms) happens in the zone. */
export function wallToInstant(wall: number, tz: string): number {
  const key = `${tz} ${wall}`
  let t = instants.get(key)
  if (t === undefined) {
    t = instantOf(wall, tz)
    if (instants.size >= 4096) instants.clear()
    instants.set(key, t)
  }
  return t
}

function instantOf(wall: number, tz: string): number {
  const before = zoneOffset(wall - HALF_DAY_MS, tz)
  const after = zoneOffset(wall + HALF_DAY_MS, tz)
  const valid = [wall - before, wall - after].filter((t) => zoneOffset(t, tz) === wall - t)
  // twice (autumn): the first; never (spring's skipped hour): as if the clock had not jumped yet
  return valid.length > 0 ? Math.min(...valid) : wall - before
}

/** Midnight of the zone's calendar day at an instant, as wall time (UTC ms of that date). */
function localDay(ms: number, tz: string): number {
  return Math.floor((ms + zoneOffset(ms, tz)) / DAY_MS) * DAY_MS
}

const bound = (iso: string | null, fallback: number) => (iso === null ? fallback : Date.parse(iso))

/** The openings of a window that overlap [fromMs, toMs), oldest first. */
export function openings(w: WindowTimes, fromMs: number, toMs: number): Opening[] {
  const lo = bound(w.starts_at, -Infinity)
  const hi = bound(w.ends_at, Infinity)
  if (!w.weekly) return lo < toMs && hi > fromMs ? [{ start: lo, end: hi }] : []
  const { days, start, duration_minutes, timezone } = w.weekly
  const length = duration_minutes * MIN_MS
  const startMin = Number(start.slice(0, 2)) * 60 + Number(start.slice(3, 5))
  const out: Opening[] = []
  const first = localDay(Math.max(fromMs, lo) - length - DAY_MS, timezone)
  const last = localDay(Math.min(toMs, hi), timezone) + DAY_MS
  for (let day = first; day <= last; day += DAY_MS) {
    const weekday = WEEKDAYS[(new Date(day).getUTCDay() + 6) % 7]
    if (!days.includes(weekday)) continue
    const s = wallToInstant(day + startMin * MIN_MS, timezone)
    // the recurrence's bounds: openings that start within them
    if (s < lo || s >= hi) continue
    if (s < toMs && s + length > fromMs) out.push({ start: s, end: s + length })
  }
  return out
}

/** The opening covering `now`, or undefined. */
export function openAt(w: WindowTimes, now: number): Opening | undefined {
  return openings(w, now, now + 1)[0]
}

/** The opening covering `now`, else the next one; undefined when the window never opens again. */
export function currentOrNext(w: WindowTimes, now: number): Opening | undefined {
  if (!w.weekly) return openings(w, now, Infinity)[0]
  const from = Math.max(now, bound(w.starts_at, now))
  // every weekday recurs within 8 days of any instant
  return openings(w, from === now ? now : from, from + 8 * DAY_MS).find((o) => o.end > now)
}
