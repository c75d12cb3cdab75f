/**
 * http monitors: the service checks a URL (the check via runs/, one credit a saved check) and
 * judges the check, its certificate, its headers and the monitor's assertions; alerts name the URL.
 */
import type { LastCheck } from '../../contract/monitors.js'
import { RunRefused, runForUser, type RunDone } from '../../runs/index.js'
import type { MonitorRecord } from '../../store/monitors.js'
import { judgeAssertions } from '../assert-run.js'
import { nextId } from '../ids.js'
import { DomainError } from '../../shared/index.js'
import { nextRunAfter } from '../interval.js'
import { defaultName } from '../names.js'
import { INITIAL_MEMORY, observeCheck, type Observation } from '../rules.js'
import { DNS_PING_FIELDS, newMonitorFields, refuseForeign, type MonitorKind, type RunEnd } from './kind.js'

/** The certificate's end of validity from the https_ssl signal's details, as ISO; null when none. */
function certificateExpiry(details: Record<string, unknown> | undefined): string | null {
  const v = details?.validTo
  const t = typeof v === 'string' ? Date.parse(v) : NaN
  return Number.isFinite(t) ? new Date(t).toISOString() : null
}

/** What a saved check shows of its run: the monitor's last check, and the observation the rules judge. */
function observeDone(m: MonitorRecord, { check, report }: Pick<RunDone, 'check' | 'report'>) {
  const responseMs = Math.max(0, Math.round(report.responseTimeMs))
  const last: LastCheck = {
    id: check.id,
    health_score: check.health_score,
    risk_level: check.risk_level,
    status: report.status,
    created_at: check.created_at,
    response_time_ms: responseMs,
    certificate_expires_at: certificateExpiry(check.checks.https_ssl?.details),
  }
  const seen = observeCheck(last, check.checks)
  const certDays = seen.kind === 'saved' ? seen.certDaysLeft : null
  const verdict = judgeAssertions(m.assertions, { report, last, certDays })
  const obs: Observation =
    verdict && seen.kind === 'saved' ? { ...seen, assertionFailed: verdict.failed } : seen
  return { last, responseMs, obs, assertions: verdict?.results }
}

export const http: MonitorKind = {
  type: 'http',
  paid: true,

  create(body, n) {
    if (body.url === undefined) throw new DomainError('invalid', 'An http monitor needs a url (url).')
    const url = n.input.target(body.url)
    const interval = n.input.interval(body.interval_seconds)
    const pagespeed = n.input.pagespeed(body.pagespeed ?? 'estimate', interval)
    const channels = n.input.channels(body.channels ?? [], [], n.secrets)
    const monitor: MonitorRecord = {
      ...newMonitorFields(nextId(n.now), body, n),
      url,
      name: body.name ?? defaultName(url),
      interval_seconds: interval,
      pagespeed,
      // the first run right away, so the user sees a state at once
      next_run_at: n.now,
      alerts: n.input.alertRules(body.alerts),
      channels,
      assertions: body.assertions ?? [],
    }
    return { monitor }
  },

  patch(prev, next, patch, input, now) {
    if (patch.grace_seconds !== undefined)
      throw new DomainError('invalid', 'grace_seconds is for heartbeat monitors (grace_seconds).')
    refuseForeign(patch, 'http', ['host', 'port', 'timeout_seconds', 'starttls', ...DNS_PING_FIELDS])
    if (patch.url === undefined) return
    const url = input.target(patch.url)
    if (url === prev.url) return
    // another site: its history of alerts starts over
    Object.assign(next, { url, state: 'pending', memory: INITIAL_MEMORY, last_check: null })
    if (!next.paused) next.next_run_at = now
  },

  reschedule() {},

  async run(m, trigger, d, { dueAt, how = {}, version }) {
    const startedAt = d.now()
    let done: RunDone | undefined
    let failure: { code: 'check_failed' | 'invalid_url'; message: string } | undefined
    try {
      // monitors use the estimate unless they ask for the lab (docs/decisions.md#performance-lab-and-estimate)
      done = await runForUser(d.runs, m.user_id, m.url, { pagespeed: m.pagespeed ?? 'estimate', ...how })
    } catch (err) {
      if (err instanceof RunRefused && (err.code === 'check_failed' || err.code === 'invalid_url'))
        failure = { code: err.code, message: err.message }
      else if (err instanceof RunRefused && err.code === 'insufficient_credits') {
        if (trigger === 'schedule') await d.outOfCredits(m)
        return { kind: 'no_credits' }
      } else {
        // the store failed (the check may have reached the site): the scheduler holds the claim
        // until the next slot instead of giving it back, which would run it again at once
        throw err
      }
    }
    const base = { trigger, startedAt, dueAt }
    const end: RunEnd = done
      ? { ...base, outcome: 'saved', ...observeDone(m, done) }
      : {
          ...base,
          outcome: 'failed',
          obs: { kind: 'failed', error: failure! },
          last: null,
          responseMs: null,
          assertions: judgeAssertions(m.assertions, null)?.results,
        }
    const monitor = await d.record(m, end, version)
    if (done)
      return { kind: 'saved', check: done.check, report: done.report, remaining: done.remaining, monitor }
    return { kind: 'failed', ...failure!, monitor }
  },

  nextRunAt(current, { trigger, dueAt, startedAt }) {
    // the monitor's next slot after this run STARTED (interval.ts): a late run (a stop, a
    // backlog) stands for the slots it missed instead of being followed by a burst, and
    // monitors created together spread evenly over the interval instead of falling due together
    if (trigger === 'schedule' && dueAt !== undefined && current.next_run_at === dueAt)
      return nextRunAfter(current.id, current.interval_seconds, startedAt)
    return current.next_run_at
  },

  target: (m) => m.url,

  view: (m) => ({ url: m.url, grace_seconds: null }),
}
