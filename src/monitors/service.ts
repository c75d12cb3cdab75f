/**
 * Monitors as plain functions over the store: create, change, run (scheduled or on demand),
 * pause for credits and resume, and hand each raised event to its channels. Routes and the
 * scheduler call this; it knows nothing of HTTP.
 */
import type { CheckCapacity } from '../capacity/index.js'
import type { CheckReport } from '../checks/index.js'
import type { LabRunner } from '../checks/lab-outcome.js'
import { INTERVAL, type LastCheck, type MonitorCreate, type MonitorPatch } from '../contract/monitors.js'
import type { AssertionResult, UptimeQuery, UptimeReport, UptimeWindows } from '../contract/monitoring.js'
import { RunRefused, runForUser, type RunDeps, type RunHow } from '../runs/index.js'
import type { MonitorRecord } from '../store/monitors.js'
import type { MonitorStore } from '../store/types.js'
import type { RunRecord } from '../store/run-log.js'
import type { CheckRecord, Store } from '../store/types.js'
import type { SecretBox } from '../shared/secret-box.js'
import { AlertDispatcher, eventRecords } from './alerts/index.js'
import { judgeAssertions } from './assert-run.js'
import type { Deliverer } from './channels/deliver.js'
import { nextId } from './ids.js'
import { defaultName, isHostName } from './names.js'
import { MonitorInput, MonitorInputError, refTaken } from './input.js'
import { nextRunAfter } from './interval.js'
import { evaluate, INITIAL_MEMORY, isGoodRun, observeCheck, type Observation } from './rules.js'
import { runHistory, uptimeReport, uptimeWindows } from './uptime/index.js'
import { MaintenanceService } from './maintenance/index.js'
import { deadlineAfter, Heartbeats, isHeartbeat } from './heartbeat.js'

export { MonitorInputError } from './input.js'

export interface MonitorServiceOptions {
  store: Store
  monitors: MonitorStore
  deliverer: Deliverer
  secrets: SecretBox
  allowPrivateTargets: boolean
  checkTimeoutMs: number
  /** The lab browser, for monitors with pagespeed "lab" (docs/decisions.md#performance-lab-and-estimate). */
  lab?: LabRunner
  /** The server's caps on checks in flight, shared with API runs. */
  capacity: CheckCapacity
  /** serve --min-interval (default 60). */
  minInterval?: number
  now?: () => number
  /** Replaces the engine (tests of the scheduler at scale). */
  check?: (url: string) => Promise<CheckReport>
  log?: (line: string) => void
  /** Check durations and outcomes for /metrics. */
  metrics?: RunDeps['metrics']
}

export type RunOutcome =
  | {
      kind: 'saved'
      /** The saved check, its report and the credits left: the route maps them to the wire. */
      check: CheckRecord
      report: CheckReport
      remaining: number
      monitor: MonitorRecord | undefined
    }
  | {
      kind: 'failed'
      code: 'check_failed' | 'invalid_url'
      message: string
      monitor: MonitorRecord | undefined
    }
  | { kind: 'no_credits' }

/** What a run saw, to apply to its monitor (`finish`). */
interface RunEnd {
  trigger: 'schedule' | 'manual'
  startedAt: number
  obs: Observation
  last: LastCheck | null
  responseMs: number | null
  assertions?: AssertionResult[]
  /** Scheduled runs: when the run was due. */
  dueAt?: number
}

/** The certificate's end of validity from the https_ssl signal's details, as ISO; null when none. */
function certificateExpiry(details: Record<string, unknown> | undefined): string | null {
  const v = details?.validTo
  const t = typeof v === 'string' ? Date.parse(v) : NaN
  return Number.isFinite(t) ? new Date(t).toISOString() : null
}

export class MonitorService {
  readonly minInterval: number
  private readonly now: () => number
  readonly alerts: AlertDispatcher // public: onRaised hears of every event (status pages)
  private readonly pausing = new Map<string, Promise<void>>()
  private readonly runDeps: RunDeps
  private readonly input: MonitorInput
  /** Maintenance windows (maintenance/): runs inside one raise no alert and count for no uptime. */
  readonly maintenance: MaintenanceService
  /** Heartbeat monitors (heartbeat.ts): beats, missed deadlines. */
  readonly heartbeats: Heartbeats
  /** Called when a monitor's next run moved earlier (the scheduler re-arms its timer). */
  onScheduleChange: () => void = () => {}

  constructor(private readonly o: MonitorServiceOptions) {
    this.minInterval = o.minInterval ?? INTERVAL.min
    this.alerts = new AlertDispatcher({ monitors: o.monitors, deliverer: o.deliverer, log: o.log })
    this.now = o.now ?? Date.now
    this.maintenance = new MaintenanceService(o.store.maintenance, o.monitors, this.now)
    this.heartbeats = new Heartbeats({
      monitors: o.monitors,
      maintenance: this.maintenance,
      dispatch: (m, events) => this.alerts.dispatch(m, events),
      now: this.now,
    })
    this.input = new MonitorInput({
      allowPrivateTargets: o.allowPrivateTargets,
      minInterval: this.minInterval,
      secrets: o.secrets,
      now: this.now,
    })
    this.runDeps = {
      store: o.store,
      capacity: o.capacity,
      allowPrivateTargets: o.allowPrivateTargets,
      checkTimeoutMs: o.checkTimeoutMs,
      lab: o.lab,
      check: o.check,
      log: o.log,
      metrics: o.metrics,
    }
  }

  get monitors(): MonitorStore {
    return this.o.monitors
  }

  // ---- CRUD ----

  async create(
    userId: string,
    body: MonitorCreate,
  ): Promise<{ monitor: MonitorRecord; secrets: Map<string, string>; pushToken?: string }> {
    if (body.type === 'heartbeat') return this.createHeartbeat(userId, body)
    if (body.url === undefined) throw new MonitorInputError('An http monitor needs a url (url).')
    const url = this.input.target(body.url)
    const interval = this.input.interval(body.interval_seconds)
    const pagespeed = this.input.pagespeed(body.pagespeed ?? 'estimate', interval)
    const secrets = new Map<string, string>()
    const now = this.now()
    const channels = this.input.channels(body.channels ?? [], [], secrets)
    const id = nextId(now)
    const m: MonitorRecord = {
      id,
      user_id: userId,
      ref: body.ref ?? null,
      url,
      name: body.name ?? defaultName(url),
      interval_seconds: interval,
      pagespeed,
      paused: false,
      paused_reason: null,
      state: 'pending',
      last_check: null,
      // the first run right away, so the user sees a state at once
      next_run_at: now,
      created_at: new Date(now).toISOString(),
      updated_at: new Date(now).toISOString(),
      alerts: this.input.alertRules(body.alerts),
      channels,
      memory: INITIAL_MEMORY,
      assertions: body.assertions ?? [],
    }
    await this.o.monitors.createMonitor(m).catch(refTaken)
    this.onScheduleChange()
    return { monitor: m, secrets }
  }

  /** A heartbeat monitor (heartbeat.ts), with its push token to show once. */
  private async createHeartbeat(userId: string, body: MonitorCreate) {
    const secrets = new Map<string, string>()
    const { monitor, token } = this.heartbeats.record(userId, body, this.input, secrets)
    await this.o.monitors.createMonitor(monitor).catch(refTaken)
    this.onScheduleChange()
    return { monitor, secrets, pushToken: token }
  }

  async get(userId: string, id: string): Promise<MonitorRecord> {
    const m = await this.o.monitors.getMonitor(userId, id.toLowerCase())
    if (!m) throw new MonitorInputError('No monitor with this id for this API key.', true)
    return m
  }

  async update(
    userId: string,
    id: string,
    patch: MonitorPatch,
  ): Promise<{ monitor: MonitorRecord; secrets: Map<string, string> }> {
    const prev = await this.get(userId, id)
    if (isHeartbeat(prev) ? patch.url !== undefined : patch.grace_seconds !== undefined)
      throw new MonitorInputError(
        isHeartbeat(prev)
          ? 'A heartbeat monitor has no url: its job calls its push URL (url).'
          : 'grace_seconds is for heartbeat monitors (grace_seconds).',
      )
    const now = this.now()
    const next: MonitorRecord = { ...prev, updated_at: new Date(now).toISOString() }
    const secrets = new Map<string, string>()
    if (patch.url !== undefined) {
      const url = this.input.target(patch.url)
      if (url !== prev.url) {
        // another site: its history of alerts starts over
        Object.assign(next, { url, state: 'pending', memory: INITIAL_MEMORY, last_check: null })
        if (!next.paused) next.next_run_at = now
      }
    }
    if (patch.interval_seconds !== undefined) {
      next.interval_seconds = this.input.interval(patch.interval_seconds)
      if (next.next_run_at !== null)
        next.next_run_at = Math.min(next.next_run_at, now + next.interval_seconds * 1000)
    }
    if (patch.pagespeed !== undefined || patch.interval_seconds !== undefined)
      next.pagespeed = this.input.pagespeed(
        patch.pagespeed ?? prev.pagespeed ?? 'estimate',
        next.interval_seconds,
      )
    if (patch.name !== undefined) next.name = patch.name
    // a name that is the old URL's host follows a new URL (the public label relies on it: names.ts)
    if (next.url !== prev.url && isHostName(next.name, prev.url)) next.name = defaultName(next.url)
    if (patch.assertions !== undefined) next.assertions = patch.assertions
    if (patch.ref !== undefined) next.ref = patch.ref
    if (patch.alerts !== undefined) next.alerts = this.input.alertRules(patch.alerts, prev.alerts)
    if (patch.channels !== undefined)
      next.channels = this.input.channels(patch.channels, prev.channels, secrets)
    if (patch.paused === true && !prev.paused)
      Object.assign(next, { paused: true, paused_reason: 'user', next_run_at: null })
    if (patch.paused === false && prev.paused)
      Object.assign(next, { paused: false, paused_reason: null, next_run_at: now })
    if (isHeartbeat(next)) {
      // a new interval, grace or a resume awaits the next beat from now
      if (patch.grace_seconds !== undefined) next.grace_seconds = patch.grace_seconds
      if (!next.paused && (next.next_run_at !== prev.next_run_at || patch.grace_seconds !== undefined))
        next.next_run_at = deadlineAfter(next, now)
    }
    const saved = await this.o.monitors.updateMonitor(next).catch(refTaken)
    if (!saved) throw new MonitorInputError('No monitor with this id for this API key.', true)
    this.onScheduleChange()
    return { monitor: saved, secrets }
  }

  async remove(userId: string, id: string): Promise<void> {
    if (!(await this.o.monitors.deleteMonitor(userId, id.toLowerCase())))
      throw new MonitorInputError('No monitor with this id for this API key.', true)
  }

  // ---- runs ----

  /**
   * One run of a monitor. Scheduled runs (`dueAt` given) move next_run_at on by one interval;
   * runs on demand leave the schedule alone. Out of credits, a scheduled run pauses the user's
   * monitors; a run on demand answers no_credits. With the claim's `version` of `m` (Claim.version)
   * the run ends without reading the monitor again.
   */
  async run(
    m: MonitorRecord,
    trigger: 'schedule' | 'manual',
    dueAt?: number,
    how: RunHow = {},
    version?: string,
  ): Promise<RunOutcome> {
    if (isHeartbeat(m)) {
      if (trigger === 'manual')
        return {
          kind: 'failed',
          code: 'invalid_url',
          message: 'A heartbeat monitor runs no check: its job calls its push URL',
          monitor: m,
        }
      // its deadline passed without a beat: no check, no credit
      const missed = await this.heartbeats.missed(m, dueAt ?? this.now())
      return { kind: 'failed', code: 'check_failed', message: 'no beat in time', monitor: missed }
    }
    const startedAt = this.now()
    let done
    let failure: { code: 'check_failed' | 'invalid_url'; message: string } | undefined
    try {
      // monitors use the estimate unless they ask for the lab (docs/decisions.md#performance-lab-and-estimate)
      done = await runForUser(this.runDeps, m.user_id, m.url, {
        pagespeed: m.pagespeed ?? 'estimate',
        ...how,
      })
    } catch (err) {
      if (err instanceof RunRefused && (err.code === 'check_failed' || err.code === 'invalid_url'))
        failure = { code: err.code, message: err.message }
      else if (err instanceof RunRefused && err.code === 'insufficient_credits') {
        if (trigger === 'schedule') {
          await this.o.monitors.releaseClaim(m.id)
          await this.pauseForCredits(m.user_id)
        }
        return { kind: 'no_credits' }
      } else {
        // the store failed (the check may have reached the site): the scheduler holds the claim
        // until the next slot instead of giving it back, which would run it again at once
        throw err
      }
    }
    let obs: Observation
    let last: LastCheck | null = null
    let responseMs: number | null = null
    let assertions: AssertionResult[] | undefined
    if (done) {
      const { check, report } = done
      last = {
        id: check.id,
        health_score: check.health_score,
        risk_level: check.risk_level,
        status: report.status,
        created_at: check.created_at,
        response_time_ms: Math.max(0, Math.round(report.responseTimeMs)),
        certificate_expires_at: certificateExpiry(check.checks.https_ssl?.details),
      }
      responseMs = Math.max(0, Math.round(report.responseTimeMs))
      const seen = observeCheck(last, check.checks)
      const verdict = judgeAssertions(m.assertions, {
        report,
        last,
        certDays: seen.kind === 'saved' ? seen.certDaysLeft : null,
      })
      obs = verdict && seen.kind === 'saved' ? { ...seen, assertionFailed: verdict.failed } : seen
      assertions = verdict?.results
    } else {
      obs = { kind: 'failed', error: { code: failure!.code, message: failure!.message } }
      assertions = judgeAssertions(m.assertions, null)?.results
    }

    const end: RunEnd = { trigger, startedAt, obs, last, responseMs, assertions, dueAt }
    const monitor = await this.finish(m, end, version)
    if (done)
      return { kind: 'saved', check: done.check, report: done.report, remaining: done.remaining, monitor }
    return { kind: 'failed', ...failure!, monitor }
  }

  /**
   * Applies a run's observation to the monitor as it is NOW (it may have changed meanwhile): to the
   * claimed `m` while the store says its `version` is unchanged, else to the monitor read again.
   */
  private async finish(m: MonitorRecord, end: RunEnd, version?: string): Promise<MonitorRecord | undefined> {
    // changed (or deleted) since the claim: nothing was written; judged as it is now
    const saved = version === undefined ? undefined : await this.finishOn(m, end, version)
    if (saved) return saved
    const current = await this.o.monitors.getMonitorById(m.id)
    if (!current) {
      if (end.trigger === 'schedule') await this.o.monitors.releaseClaim(m.id)
      return undefined
    }
    return this.finishOn(current, end)
  }

  private async finishOn(current: MonitorRecord, end: RunEnd, ifVersion?: string) {
    const { trigger, startedAt, obs, last, responseMs, assertions, dueAt } = end
    const id = current.id
    const now = this.now()
    // inside a maintenance window the run is kept, but judges nothing: no state change, no alert
    const quiet = await this.maintenance.covers(current, startedAt)
    const out = quiet
      ? { state: current.state, memory: current.memory, events: [] }
      : evaluate(current, obs, now)
    let next = current.next_run_at
    if (trigger === 'schedule' && dueAt !== undefined && !current.paused && next === dueAt) {
      // the monitor's next slot after this run STARTED (interval.ts): a late run (a stop, a
      // backlog) stands for the slots it missed instead of being followed by a burst, and
      // monitors created together spread evenly over the interval instead of falling due together
      next = nextRunAfter(current.id, current.interval_seconds, startedAt)
    }
    const updated: MonitorRecord = {
      ...current,
      state: out.state,
      memory: out.memory,
      last_check: last ?? current.last_check,
      next_run_at: current.paused ? null : next,
      updated_at: new Date(now).toISOString(),
    }
    const run: RunRecord = {
      id: nextId(now),
      monitor_id: id,
      started_at: new Date(startedAt).toISOString(),
      outcome: obs.kind,
      trigger,
      check_id: last?.id ?? null,
      health_score: last?.health_score ?? null,
      response_time_ms: responseMs,
      state: current.paused ? 'paused' : quiet ? 'maintenance' : out.state,
      error: obs.kind === 'failed' ? obs.error : null,
      ...(assertions ? { assertions } : {}),
    }
    const events = eventRecords(updated, current.paused ? 'paused' : current.state, out.events, last, now)
    // the incident's cause: the words of the monitor.down it raised
    const cause = out.events.find((e) => e.event === 'monitor.down')?.message ?? null
    const history = runHistory(current, out.state, { ok: isGoodRun(obs), cause }, quiet)
    const saved = await this.o.monitors.finishRun(updated, run, events, history, ifVersion)
    if (saved) this.alerts.dispatch(saved, events)
    return saved
  }

  // ---- uptime (uptime/) ----

  /** The uptime windows of monitors, for their views (one read for a page of them). */
  uptimeWindows(monitorIds: string[]): Promise<Map<string, UptimeWindows>> {
    return uptimeWindows(this.o.monitors, monitorIds, this.now())
  }

  /** The user's monitor's uptime report; UptimeQueryError for a window it cannot answer. */
  async uptime(userId: string, id: string, q: UptimeQuery): Promise<UptimeReport> {
    const m = await this.get(userId, id)
    return uptimeReport(this.o.monitors, m.id, q, this.now())
  }

  // ---- credits ----

  /** Out of credits: every active monitor of the user pauses itself with credits.exhausted. */
  pauseForCredits(userId: string): Promise<void> {
    // runs of one user run out together: one pass per user at a time, so one event per monitor
    let p = this.pausing.get(userId)
    if (!p) {
      p = this.pauseUser(userId).finally(() => this.pausing.delete(userId))
      this.pausing.set(userId, p)
    }
    return p
  }

  private async pauseUser(userId: string): Promise<void> {
    const now = this.now()
    for (const m of await this.o.monitors.userMonitors(userId)) {
      // heartbeats cost no credit: they keep watching
      if (m.paused || isHeartbeat(m)) continue
      const paused: MonitorRecord = {
        ...m,
        paused: true,
        paused_reason: 'credits',
        next_run_at: null,
        updated_at: new Date(now).toISOString(),
      }
      const events = eventRecords(
        paused,
        m.state,
        [
          {
            event: 'credits.exhausted',
            message: `Monitoring of ${m.url} is paused: no credits left. It resumes by itself when credits are granted`,
          },
        ],
        m.last_check,
        now,
      )
      const saved = await this.o.monitors.recordEvents(paused, events)
      if (saved) this.alerts.dispatch(saved, events)
    }
  }

  /** Monitors paused for credits resume once their user has credits again. */
  async resumeCreditPaused(jitterMs: number): Promise<number> {
    let resumed = 0
    for (const userId of await this.o.monitors.creditPausedUsers()) {
      if ((await this.o.store.users.availableCredits(userId)) < 1) continue
      const now = this.now()
      for (const m of await this.o.monitors.userMonitors(userId)) {
        if (!m.paused || m.paused_reason !== 'credits') continue
        await this.o.monitors.updateMonitor({
          ...m,
          paused: false,
          paused_reason: null,
          next_run_at: now + Math.floor(Math.random() * jitterMs),
          updated_at: new Date(now).toISOString(),
        })
        resumed++
      }
    }
    return resumed
  }

  // ---- deliveries (the dispatcher in alerts/) ----

  /**
   * Sends the alerts nobody is sending: those left pending by a stop (at start), and, with a
   * shared database, those whose instance died (its lease expired).
   */
  sweepDeliveries(): Promise<void> {
    return this.alerts.sweep()
  }

  /**
   * Drops history past retention of every monitor, also of those that stopped running (a run
   * prunes only its own monitor's); the runtime calls it every hour.
   */
  pruneHistory(): Promise<number> {
    return this.o.monitors.pruneHistory(this.now())
  }

  /** Waits for deliveries in progress (the deliverer must be closed first to cut retries short). */
  drain(): Promise<void> {
    return this.alerts.drain()
  }
}
