/**
 * The rules every monitor type that watches a host shares (tcp, tls, and those after them:
 * docs/architecture.md#a-run-of-a-type-that-keeps-no-check): the host past the SSRF guard at
 * create and change, `timeout_seconds`, assertions only from the sources its face lists, and one
 * way to make and record a run. A run keeps no health check: it is paid as one (a credit held,
 * charged with `{ reached: true }` when the probe succeeded, given back when it failed), judged by
 * the monitor's assertions on what the probe saw, and recorded through the one run recorder with
 * `outcome` `ok` or `failed`, no check id, no health score, and the probe's findings as `details`.
 * A name that resolves to a blocked address at run time fails the run (`blocked_target`): the
 * engine's guarded lookup refuses it before anything connects.
 */
import { CheckError } from '../../checks/index.js'
import type { MonitorCreate, MonitorRun, MonitorType } from '../../contract/monitors.js'
import { misfitAssertion, type Assertion } from '../../contract/monitoring.js'
import { MONITOR_TYPE_FACES } from '../../contract/monitor-types/index.js'
import { TIMEOUT_SECONDS } from '../../contract/monitor-target.js'
import { probeForUser, RunRefused, type RunHow } from '../../runs/index.js'
import type { MonitorRecord } from '../../store/monitors.js'
import { DomainError } from '../../shared/index.js'
import { judgeProbe } from '../assert-run.js'
import type { AssertionSubject } from '../../assertions/index.js'
import { nextId } from '../ids.js'
import { INITIAL_MEMORY, type Observation } from '../rules.js'
import { newMonitorFields, type KindRunDeps, type NewMonitor, type RunEnd, type RunOutcome } from './kind.js'

/** What a probe came to, in the words a run records. */
export type ProbeEnd =
  | {
      ok: true
      /** The figure `response_time` assertions judge and the run records, ms. */
      responseMs: number
      /** What the run shows under `details`. */
      details: Record<string, unknown>
      /** How the event that brings it back up words what it saw ("the port opened"). */
      seen: string
      /** A tls handshake: the certificate's days left (certificate_days, certificate.expiring). */
      certDaysLeft?: number
      /** What else its assertions judge (dns: the answers; ping: the packet loss). */
      subject?: Partial<AssertionSubject>
    }
  | {
      ok: false
      error: { code: string; message: string }
      details?: Record<string, unknown>
    }

/** What a probe is told: the monitor's own settings and the server's guard. */
export interface ProbeContext {
  allowPrivateTargets: boolean
  timeoutMs: number
  extraCA?: string | string[]
}

/** The probe's CheckError as a failed run: a blocked address is `blocked_target`, the rest `check_failed`. */
export function failedProbe(err: unknown, log?: (line: string) => void): ProbeEnd {
  if (!(err instanceof CheckError)) throw err
  if (err.detail && log) log(`info -: ${err.code} detail: ${err.detail.split('\n')[0]}`)
  const code = err.code === 'invalid_url' ? 'blocked_target' : 'check_failed'
  return { ok: false, error: { code, message: err.message } }
}

/** The assertions of a change, refused (naming the field) when one does not fit the type. */
export function fittingAssertions(type: MonitorType, list: Assertion[]): Assertion[] {
  const misfit = misfitAssertion(type, MONITOR_TYPE_FACES[type].assertions, list)
  if (misfit) throw new DomainError('invalid', `${misfit.message} (assertions[${misfit.index}].source)`)
  return list
}

export const timeoutOf = (m: Pick<MonitorRecord, 'timeout_seconds'>) =>
  (m.timeout_seconds ?? TIMEOUT_SECONDS.default) * 1000

/** A change of the target (host, port…): its history of alerts starts over, and it runs at once. */
export function retarget(next: MonitorRecord, now: number): void {
  Object.assign(next, { state: 'pending', memory: INITIAL_MEMORY, last_check: null })
  if (!next.paused) next.next_run_at = now
}

/**
 * One run of a monitor that keeps no check: paid, probed in a slot, judged and recorded (see the
 * head of this file). On demand, a run that found no credit is `no_credits` and nothing is
 * recorded; a scheduled one also pauses the user's paid monitors (`d.outOfCredits`).
 */
export async function runProbe(
  m: MonitorRecord,
  trigger: 'schedule' | 'manual',
  d: KindRunDeps,
  at: { dueAt?: number; how?: RunHow; version?: string },
  probe: (c: ProbeContext) => Promise<ProbeEnd>,
): Promise<RunOutcome> {
  const startedAt = d.now()
  const { allowPrivateTargets, extraCA } = d.runs
  const c: ProbeContext = { allowPrivateTargets, timeoutMs: timeoutOf(m), extraCA }
  let paid
  try {
    paid = await probeForUser(
      d.runs,
      m.user_id,
      at.how ?? {},
      () => probe(c),
      (p) => p.ok,
    )
  } catch (err) {
    if (err instanceof RunRefused && err.code === 'insufficient_credits') {
      if (trigger === 'schedule') await d.outOfCredits(m)
      return { kind: 'no_credits' }
    }
    throw err
  }
  const p = paid.result
  const verdict = judgeProbe(
    m.assertions,
    p.ok ? { response_time_ms: p.responseMs, certificate_days: p.certDaysLeft ?? null, ...p.subject } : null,
  )
  const obs: Observation = p.ok
    ? {
        kind: 'answered',
        seen: p.seen,
        assertionFailed: verdict?.failed ?? null,
        certDaysLeft: p.certDaysLeft,
      }
    : { kind: 'failed', error: p.error }
  const end: RunEnd = {
    id: nextId(d.now()),
    trigger,
    outcome: p.ok ? 'ok' : 'failed',
    startedAt,
    dueAt: at.dueAt,
    obs,
    last: null,
    responseMs: p.ok ? Math.max(0, Math.round(p.responseMs)) : null,
    assertions: verdict?.results,
    details: p.details,
  }
  const monitor = await d.record(m, end, at.version)
  const run: MonitorRun = {
    id: end.id!,
    started_at: new Date(startedAt).toISOString(),
    outcome: end.outcome,
    trigger,
    check_id: null,
    health_score: null,
    response_time_ms: end.responseMs,
    state: monitor ? (monitor.paused ? 'paused' : monitor.state) : m.state,
    error: p.ok ? null : p.error,
    assertions: verdict?.results ?? [],
    details: p.details ?? null,
  }
  return { kind: 'probed', run, remaining: paid.remaining, monitor }
}

/**
 * A new monitor of a host-watching type: the fields every such type fills the same way (no url,
 * the timeout, interval, alerts, channels, assertions); the kind adds its own (port, record type…).
 */
export function hostMonitor(
  body: Extract<MonitorCreate, { host: string }>,
  n: NewMonitor,
  own: Pick<MonitorRecord, 'type' | 'host' | 'name'>,
): MonitorRecord {
  return {
    ...newMonitorFields(nextId(n.now), body, n),
    url: '',
    timeout_seconds: body.timeout_seconds ?? TIMEOUT_SECONDS.default,
    interval_seconds: n.input.interval(body.interval_seconds),
    pagespeed: 'estimate',
    next_run_at: n.now,
    alerts: n.input.alertRules(body.alerts),
    channels: n.input.channels(body.channels ?? [], [], n.secrets),
    assertions: body.assertions ?? [],
    ...own,
  }
}
