/**
 * Is it working? The availability half of the monitor rules (docs/decisions.md#monitoring-depth):
 * a run's observation and the monitor's memory in, its state out, with the changes announced.
 * Down after `alerts.down_after` failing runs in a row; up again after `alerts.recover_after`
 * good runs in a row (flap control); while down, `monitor.still_down` every
 * `alerts.remind_every_minutes`; degraded only below `alerts.min_score` or while a regression
 * (regression.ts) is open. Pure; it updates the memory it is given.
 */
import type { EventName, LastCheck, MonitorState } from '../contract/monitors.js'
import type { MonitorMemory, StoredAlerts } from '../store/monitors.js'

export type ActiveState = Exclude<MonitorState, 'paused' | 'maintenance'>

/** What one run saw, reduced to what the rules judge. */
export type Observation =
  | { kind: 'failed'; error: { code: string; message: string } }
  /**
   * The target answered and no check was kept (a heartbeat's beat, a port that opened, a TLS
   * handshake): `seen` words it ("a beat arrived"). A run of a type that keeps no check may carry
   * a failed assertion (it counts as a failure for down) and its certificate's days left.
   */
  | { kind: 'answered'; seen: string; assertionFailed?: string | null; certDaysLeft?: number | null }
  | {
      kind: 'saved'
      check: LastCheck
      /** Reachability needs review (e.g. HTTP 500): counts as a failure for down. */
      unreachable: boolean
      /** What reachability found when it needs review (e.g. "… answers 503 Service Unavailable; …"). */
      unreachableWhy?: string
      /** A failed assertion in words (what it saw): counts as a failure for down; null/absent when all held. */
      assertionFailed?: string | null
      /** null for plain http or when no certificate was seen. */
      certDaysLeft: number | null
      certInvalid: string | null
      headersPresent: string[] | null
    }

/**
 * A good run: it answered, reachably, and every assertion held. Anything else is a failing run:
 * it counts towards down here, and regressions (regression.ts, through rules.ts) leave it out of
 * the baseline. The one test of both.
 */
export function isGoodRun(
  obs: Observation,
): obs is
  | Extract<Observation, { kind: 'answered' }>
  | (Extract<Observation, { kind: 'saved' }> & { unreachable: false }) {
  if (obs.kind === 'answered') return !obs.assertionFailed
  return obs.kind === 'saved' && !obs.unreachable && !obs.assertionFailed
}

/** What the rules judge of a monitor besides the run: `target` names it in the events' words. */
export interface Judged {
  state: ActiveState
  memory: MonitorMemory
  alerts: StoredAlerts
  target: string
}

export interface RaisedEvent {
  event: EventName
  message: string
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`

export function judgeAvailability(
  prev: Judged,
  obs: Observation,
  memory: MonitorMemory,
  events: RaisedEvent[],
  now: number,
  /** Why an open regression degrades the monitor (regression.ts), or null. */
  regressed: string | null = null,
): ActiveState {
  if (!isGoodRun(obs)) {
    memory.failures = prev.memory.failures + 1
    memory.successes = 0
    const why =
      obs.kind === 'failed'
        ? obs.error.message
        : obs.kind === 'saved' && obs.unreachable
          ? (obs.unreachableWhy ?? `it answered, but its reachability needs review`)
          : `assertion failed: ${obs.assertionFailed ?? ''}`
    if (prev.state === 'down') {
      const every = prev.alerts.remind_every_minutes ?? null
      const last = prev.memory.down_alerted_at ?? null
      if (every !== null && last !== null && now - last >= every * 60_000) {
        events.push({
          event: 'monitor.still_down',
          message: `${prev.target} is still down (${plural(memory.failures, 'failed run')} in a row): ${why}`,
        })
        memory.down_alerted_at = now
      }
      return 'down'
    }
    if (memory.failures < prev.alerts.down_after) return prev.state // not down yet
    events.push({
      event: 'monitor.down',
      message: `${prev.target} is down (${plural(memory.failures, 'failed run')} in a row): ${why}`,
    })
    memory.down_alerted_at = now
    return 'down'
  }

  // availability first: a site that answers is up; its findings stay on its checks
  memory.failures = 0
  if (obs.kind === 'answered') return answered(prev, obs.seen, memory, events)
  const score = obs.check.health_score
  const min = prev.alerts.min_score
  const below = min !== null && score < min
  const degradedBy = below ? `its health score ${score} is below ${min}` : regressed
  const next: ActiveState = degradedBy ? 'degraded' : 'up'
  if (prev.state === 'down') {
    const needed = prev.alerts.recover_after ?? 1
    memory.successes = (prev.memory.successes ?? 0) + 1
    if (memory.successes < needed) return 'down' // flap control: not up until recover_after good runs
    memory.successes = 0
    memory.down_alerted_at = null
    events.push({
      event: 'monitor.up',
      message:
        (below
          ? `${prev.target} is up again, with a health score of ${score}, below ${min}`
          : degradedBy
            ? `${prev.target} is up again, but degraded: ${degradedBy}`
            : `${prev.target} is up again (health ${score}/100)`) +
        (needed > 1 ? ` after ${plural(needed, 'good run')} in a row` : ''),
    })
  } else if (degradedBy && prev.state !== 'degraded')
    events.push({ event: 'monitor.degraded', message: `${prev.target} is degraded: ${degradedBy}` })
  else if (!degradedBy && prev.state === 'degraded')
    events.push({ event: 'monitor.up', message: `${prev.target} is healthy again (health ${score}/100)` })
  return next
}

/** A good run with no check (a beat): up, or, after a down, up again once enough arrived. */
function answered(prev: Judged, seen: string, memory: MonitorMemory, events: RaisedEvent[]): ActiveState {
  if (prev.state !== 'down') return 'up'
  memory.successes = (prev.memory.successes ?? 0) + 1
  if (memory.successes < (prev.alerts.recover_after ?? 1)) return 'down'
  memory.successes = 0
  memory.down_alerted_at = null
  events.push({ event: 'monitor.up', message: `${prev.target} is up again: ${seen}` })
  return 'up'
}
