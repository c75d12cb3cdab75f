/**
 * Monitors as plain functions over the store, as routes and the scheduler see them: definitions
 * (definitions.ts), runs made by each monitor's kind (kinds/) and ended by the one run recorder
 * (record-run.ts), pausing for credits (credit-pause.ts), uptime, and the alerts each run raises
 * (alerts/). It knows nothing of HTTP.
 */
import type { CheckCapacity } from '../capacity/index.js'
import type { CheckReport, PingAvailability } from '../checks/index.js'
import type { LabRunner } from '../checks/lab-outcome.js'
import { INTERVAL, type ChannelRequest, type MonitorCreate, type MonitorPatch } from '../contract/monitors.js'
import type { UptimeQuery, UptimeReport, UptimeWindows } from '../contract/monitoring.js'
import type { RunDeps, RunHow } from '../runs/index.js'
import type { MonitorRecord } from '../store/monitors.js'
import type { MonitorStore, Store } from '../store/types.js'
import type { SecretBox } from '../shared/index.js'
import { AlertDispatcher } from './alerts/index.js'
import type { Deliverer } from './channels/deliver.js'
import { requestOf } from './channels/records.js'
import { CreditPause } from './credit-pause.js'
import { MonitorDefinitions } from './definitions.js'
import { MonitorInput } from './input.js'
import { Heartbeats, kindOf, type KindRunDeps, type RunOutcome } from './kinds/index.js'
import { MaintenanceService } from './maintenance/index.js'
import { MonitorQuota, type QuotaOptions } from './quota.js'
import { RunRecorder } from './record-run.js'
import { uptimeReport, uptimeWindows } from './uptime/index.js'

export type { RunOutcome } from './kinds/index.js'

export interface MonitorServiceOptions {
  store: Store
  monitors: MonitorStore
  deliverer: Deliverer
  secrets: SecretBox
  allowPrivateTargets: boolean
  /** Whether this server may ping (checks `pingAvailability`, asked once at serve start). */
  ping?: PingAvailability
  checkTimeoutMs: number
  /** The lab browser, for monitors with pagespeed "lab" (docs/decisions.md#performance-lab-and-estimate). */
  lab?: LabRunner
  /** The server's caps on checks in flight, shared with API runs. */
  capacity: CheckCapacity
  /** serve --min-interval (default 60). */
  minInterval?: number
  /** serve --max-monitors-per-account and --monitor-create-rate (quota.ts). */
  quota?: QuotaOptions
  now?: () => number
  /** Replaces the engine (tests of the scheduler at scale). */
  check?: (url: string) => Promise<CheckReport>
  log?: (line: string) => void
  /** Check durations and outcomes for /metrics. */
  metrics?: RunDeps['metrics']
  /** CAs the tls probes trust beside Node's (tests; `serve` takes NODE_EXTRA_CA_CERTS). */
  extraCA?: string | string[]
}

export class MonitorService {
  readonly minInterval: number
  private readonly now: () => number
  /** Raised events to their channels; `alerts.onRaised` hears of every one (status pages). */
  readonly alerts: AlertDispatcher
  private readonly definitions: MonitorDefinitions
  private readonly credits: CreditPause
  private readonly runDeps: KindRunDeps
  /** Maintenance windows (maintenance/): runs inside one raise no alert and count for no uptime. */
  readonly maintenance: MaintenanceService
  /** Heartbeat monitors' pushes (kinds/heartbeat.ts): the monitor a token names, its beats. */
  readonly heartbeats: Heartbeats
  /** Called when a monitor's next run moved earlier (the scheduler re-arms its timer). */
  onScheduleChange: () => void = () => {}

  constructor(private readonly o: MonitorServiceOptions) {
    this.minInterval = o.minInterval ?? INTERVAL.min
    this.now = o.now ?? Date.now
    this.alerts = new AlertDispatcher({ monitors: o.monitors, deliverer: o.deliverer, log: o.log })
    const dispatch = (m: MonitorRecord, events: Parameters<AlertDispatcher['dispatch']>[1]) =>
      this.alerts.dispatch(m, events)
    this.maintenance = new MaintenanceService(o.store.maintenance, o.monitors, this.now)
    const recorder = new RunRecorder({
      monitors: o.monitors,
      maintenance: this.maintenance,
      dispatch,
      now: this.now,
    })
    this.heartbeats = new Heartbeats({ monitors: o.monitors, record: recorder.record, now: this.now })
    this.credits = new CreditPause({ monitors: o.monitors, users: o.store.users, dispatch, now: this.now })
    const input = new MonitorInput({
      allowPrivateTargets: o.allowPrivateTargets,
      ping: o.ping,
      minInterval: this.minInterval,
      secrets: o.secrets,
      now: this.now,
    })
    this.definitions = new MonitorDefinitions({
      monitors: o.monitors,
      input,
      quota: new MonitorQuota(o.quota, o.store.accounts.limiter?.bind(o.store.accounts)),
      now: this.now,
      scheduleChanged: () => this.onScheduleChange(),
    })
    this.runDeps = {
      runs: {
        store: o.store,
        capacity: o.capacity,
        allowPrivateTargets: o.allowPrivateTargets,
        checkTimeoutMs: o.checkTimeoutMs,
        lab: o.lab,
        check: o.check,
        log: o.log,
        metrics: o.metrics,
        extraCA: o.extraCA,
      },
      record: recorder.record,
      outOfCredits: async (m) => {
        await o.monitors.releaseClaim(m.id)
        await this.credits.pause(m.user_id)
      },
      now: this.now,
    }
  }

  get monitors(): MonitorStore {
    return this.o.monitors
  }

  // ---- definitions (definitions.ts) ----

  create(userId: string, body: MonitorCreate) {
    return this.definitions.create(userId, body)
  }

  get(userId: string, id: string): Promise<MonitorRecord> {
    return this.definitions.get(userId, id)
  }

  update(userId: string, id: string, patch: MonitorPatch) {
    return this.definitions.update(userId, id, patch)
  }

  remove(userId: string, id: string): Promise<void> {
    return this.definitions.remove(userId, id)
  }

  /** The requests that make a monitor's channels again, by channel id (a form re-sends the kept ones). */
  channelRequests(m: MonitorRecord): Array<{ id: string; request: ChannelRequest }> {
    return m.channels.map((c) => ({ id: c.id, request: requestOf(c, this.o.secrets) }))
  }

  // ---- runs (kinds/, record-run.ts) ----

  /**
   * One run of a monitor, made by its kind. Scheduled runs (`dueAt` given) move next_run_at on;
   * runs on demand leave the schedule alone. Out of credits, a scheduled run of a paid kind pauses
   * the user's paid monitors; a run on demand answers no_credits. With the claim's `version` of
   * `m` (Claim.version) the run ends without reading the monitor again.
   */
  run(
    m: MonitorRecord,
    trigger: 'schedule' | 'manual',
    dueAt?: number,
    how: RunHow = {},
    version?: string,
  ): Promise<RunOutcome> {
    return kindOf(m).run(m, trigger, this.runDeps, { dueAt, how, version })
  }

  // ---- uptime (uptime/) ----

  /** The uptime windows of monitors, for their views (one read for a page of them). */
  uptimeWindows(monitorIds: string[]): Promise<Map<string, UptimeWindows>> {
    return uptimeWindows(this.o.monitors, monitorIds, this.now())
  }

  /** The user's monitor's uptime report; DomainError `invalid` (naming the field) for a window it cannot answer. */
  async uptime(userId: string, id: string, q: UptimeQuery): Promise<UptimeReport> {
    const m = await this.get(userId, id)
    return uptimeReport(this.o.monitors, m.id, q, this.now())
  }

  // ---- credits (credit-pause.ts) ----

  /** Out of credits: every active paid monitor of the user pauses itself with credits.exhausted. */
  pauseForCredits(userId: string): Promise<void> {
    return this.credits.pause(userId)
  }

  /** Monitors paused for credits resume once their user has credits again. */
  resumeCreditPaused(jitterMs: number): Promise<number> {
    return this.credits.resume(jitterMs)
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
