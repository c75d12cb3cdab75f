/**
 * Monitor intervals: the server's bounds (docs/decisions.md#monitors-and-alerts) and where in its
 * interval a monitor runs (the `--every 5m` notation is contract/durations.ts).
 */
import { createHash } from 'node:crypto'
import { INTERVAL } from '../contract/monitors.js'

/** The reason an interval is refused, or null. `minInterval` is `serve --min-interval`. */
export function intervalProblem(seconds: number, minInterval: number = INTERVAL.min): string | null {
  if (!Number.isSafeInteger(seconds) || seconds < minInterval || seconds > INTERVAL.max)
    return `interval_seconds must be a whole number from ${minInterval} to ${INTERVAL.max} (got ${seconds}).`
  return null
}

/**
 * A monitor's fixed offset within its interval, ms: a hash of its id, so the monitors of a server
 * fall due evenly over the interval however they were created (Prometheus spreads its scrape
 * targets the same way). Without it, ten thousand monitors created in one burst would keep
 * falling due in one burst, every interval, as fast as the server can run them.
 */
export function phaseOf(id: string, intervalMs: number): number {
  const h = createHash('sha256').update(id).digest().readUInt32BE(0)
  return Math.floor((h / 2 ** 32) * intervalMs)
}

/**
 * When a scheduled run that started at `startedAt` is followed: the monitor's next slot (its phase,
 * repeated every interval) more than half an interval after the start. A run on time is followed
 * one interval later; a monitor off its phase (just created, resumed, caught up after a restart)
 * moves onto it, with one gap between half an interval and one and a half; a late run is followed
 * by the next slot, never by a burst of the slots it missed.
 */
export function nextRunAfter(id: string, intervalSeconds: number, startedAt: number): number {
  const interval = intervalSeconds * 1000
  const phase = phaseOf(id, interval)
  const earliest = startedAt + interval / 2
  return phase + (Math.floor((earliest - phase) / interval) + 1) * interval
}
