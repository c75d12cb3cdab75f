/**
 * The state machine and event rules of docs/decisions.md#monitors-and-alerts as pure functions: a run's observation and
 * the monitor's memory in, the new state, the new memory and the events out. Alerts fire on
 * changes only; what was already announced is remembered (and persisted with the monitor), so a
 * restart raises nothing new.
 */
import type { SavedCheck } from '../contract/schemas.js'
import { CERT_THRESHOLDS_DAYS, type LastCheck } from '../contract/monitors.js'
import type { MonitorMemory } from '../store/monitors.js'
import {
  isGoodRun,
  judgeAvailability,
  type ActiveState,
  type Judged,
  type Observation,
  type RaisedEvent,
} from './judge.js'
import { judgeRegressions } from './regression.js'

export type { ActiveState, Judged, Observation, RaisedEvent } from './judge.js'
export { isGoodRun } from './judge.js'

export interface Outcome {
  state: ActiveState
  memory: MonitorMemory
  events: RaisedEvent[]
}

export const INITIAL_MEMORY: MonitorMemory = {
  failures: 0,
  cert_sent: [],
  cert_invalid: false,
  below_min_score: false,
  headers: null,
}

/** Reads an observation out of a saved check's signals. */
export function observeCheck(check: LastCheck, signals: SavedCheck['checks']): Observation {
  const https = signals.https_ssl.details ?? {}
  const isHttps = https.scheme !== 'http' && typeof https.daysLeft === 'number'
  const daysLeft = isHttps ? (https.daysLeft as number) : null
  let certInvalid: string | null = null
  if (isHttps) {
    if ((daysLeft ?? 0) < 0) certInvalid = signals.https_ssl.message
    else if (https.authorized === false || https.hostnameMatches === false)
      certInvalid = signals.https_ssl.message
  }
  const present = signals.security_headers.details?.present
  return {
    kind: 'saved',
    check,
    unreachable: signals.reachability.status === 'needs_review',
    ...(signals.reachability.status === 'needs_review' && { unreachableWhy: signals.reachability.message }),
    certDaysLeft: daysLeft,
    certInvalid,
    headersPresent: Array.isArray(present) ? present.map(String) : null,
  }
}

/** Certificate alerts: invalid once per episode; expiring once per threshold per certificate. */
function certificateEvents(
  target: string,
  daysLeft: number | null,
  invalid: string | null,
  memory: MonitorMemory,
  events: RaisedEvent[],
): void {
  if (invalid && !memory.cert_invalid)
    events.push({ event: 'certificate.invalid', message: `Certificate problem on ${target}: ${invalid}` })
  memory.cert_invalid = invalid !== null
  if (daysLeft === null || invalid !== null) return
  if (daysLeft > CERT_THRESHOLDS_DAYS[0]) memory.cert_sent = [] // renewed: arm every threshold again
  const crossed = CERT_THRESHOLDS_DAYS.filter((t) => daysLeft <= t)
  const fresh = crossed.filter((t) => !memory.cert_sent.includes(t))
  if (fresh.length === 0) return
  // one event for the tightest threshold crossed; the wider ones are implied
  events.push({
    event: 'certificate.expiring',
    message: `The certificate of ${target} expires in ${daysLeft} day${daysLeft === 1 ? '' : 's'} (warning at ${Math.min(...fresh)} days)`,
  })
  memory.cert_sent = [...new Set([...memory.cert_sent, ...crossed])].sort((a, b) => b - a)
}

export function evaluate(
  prev: Judged,
  obs: Observation,
  /** When the run happened (reminders are spaced by it). */
  now = Date.now(),
): Outcome {
  const events: RaisedEvent[] = []
  const memory: MonitorMemory = { ...prev.memory, cert_sent: [...prev.memory.cert_sent] }

  // regressions judge good runs only: an outage is down, not a regression, and moves no baseline
  const regressionEvents: RaisedEvent[] = []
  const regressed =
    obs.kind === 'saved' && isGoodRun(obs)
      ? judgeRegressions(prev.target, obs.check, memory, regressionEvents, now)
      : null
  const state = judgeAvailability(prev, obs, memory, events, now, regressed)

  // a tls monitor's handshake (a run that keeps no check) warns of its certificate as a check does
  if (obs.kind === 'answered' && typeof obs.certDaysLeft === 'number')
    certificateEvents(prev.target, obs.certDaysLeft, null, memory, events)
  if (obs.kind === 'saved') {
    certificateEvents(prev.target, obs.certDaysLeft, obs.certInvalid, memory, events)

    const min = prev.alerts.min_score
    const below = min !== null && obs.check.health_score < min
    if (below && !memory.below_min_score)
      events.push({
        event: 'score.below',
        message: `The health score of ${prev.target} fell to ${obs.check.health_score}, below ${min}`,
      })
    memory.below_min_score = below

    if (obs.headersPresent) {
      if (prev.memory.headers) {
        const gone = prev.memory.headers.filter((h) => !obs.headersPresent!.includes(h))
        if (gone.length > 0)
          events.push({
            event: 'headers.regressed',
            message: `${prev.target} no longer sends ${gone.join(', ')}`,
          })
      }
      memory.headers = obs.headersPresent
    }
  }
  events.push(...regressionEvents)
  return { state, memory, events }
}
