/**
 * Heartbeat monitors (docs/decisions.md#monitoring-depth): no URL is checked; a job calls the
 * monitor's push URL. A beat is up, `status=down` a failure, and no beat for interval + grace a
 * failure too (the scheduler finds the deadline due, as it finds an http monitor's next run).
 * Beats run no check and cost no credit. The same rules as for http monitors decide the state and
 * its alerts (down_after, recover_after…), and maintenance windows silence them alike.
 *
 * The push token is `hb_` + the monitor id's 32 hex digits + 24 random characters: the id finds
 * the monitor in one read, the whole token's SHA-256 (hashKey, as for API keys) must match the
 * one stored. The token itself is shown once, in the response that created the monitor.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto'
import { hashKey } from '../contract/api-key.js'
import { GRACE } from '../contract/monitoring.js'
import type { MonitorCreate } from '../contract/monitors.js'
import type { EventRecord, RunLogStore, RunRecord } from '../store/run-log.js'
import type { MonitorDefinitionStore, MonitorRecord } from '../store/monitors.js'
import type { ScheduleStore } from '../store/schedule.js'
import { eventRecords } from './alerts/index.js'
import { nextId } from './ids.js'
import type { MonitorInput } from './input.js'
import type { MaintenanceService } from './maintenance/index.js'
import { evaluate, INITIAL_MEMORY, type Observation } from './rules.js'
import { runHistory } from './uptime/index.js'

const TOKEN = /^hb_([0-9a-f]{32})[A-Za-z0-9_-]{24}$/

export function newPushToken(monitorId: string): string {
  return `hb_${monitorId.replaceAll('-', '')}${randomBytes(18).toString('base64url')}`
}

/** The monitor id a push token names, or null when it is no push token. */
export function monitorIdOfToken(token: string): string | null {
  const m = TOKEN.exec(token)
  if (!m) return null
  const h = m[1]
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`
}

const sameHash = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a, 'hex'), Buffer.from(b, 'hex'))

export type BeatStatus = 'up' | 'down'

export interface HeartbeatDeps {
  monitors: MonitorDefinitionStore & ScheduleStore & RunLogStore
  maintenance: MaintenanceService
  /** Hands raised events to their channels (the service's alert dispatcher). */
  dispatch: (m: MonitorRecord, events: EventRecord[]) => void
  now: () => number
}

export const isHeartbeat = (m: Pick<MonitorRecord, 'type'>) => m.type === 'heartbeat'

/** When a heartbeat monitor is due next: a beat at `at` is awaited interval + grace later. */
export const deadlineAfter = (m: Pick<MonitorRecord, 'interval_seconds' | 'grace_seconds'>, at: number) =>
  at + (m.interval_seconds + (m.grace_seconds ?? GRACE.default)) * 1000

export class Heartbeats {
  constructor(private readonly d: HeartbeatDeps) {}

  /** A new heartbeat monitor and its push token (to show once). */
  record(
    userId: string,
    body: MonitorCreate,
    input: MonitorInput,
    secrets: Map<string, string>,
  ): { monitor: MonitorRecord; token: string } {
    const now = this.d.now()
    const id = nextId(now)
    const token = newPushToken(id)
    const interval = input.interval(body.interval_seconds)
    const iso = new Date(now).toISOString()
    const monitor: MonitorRecord = {
      id,
      user_id: userId,
      type: 'heartbeat',
      ref: body.ref ?? null,
      url: '',
      name: body.name ?? 'heartbeat',
      interval_seconds: interval,
      pagespeed: 'estimate',
      paused: false,
      paused_reason: null,
      state: 'pending',
      last_check: null,
      next_run_at: 0,
      created_at: iso,
      updated_at: iso,
      alerts: input.alertRules(body.alerts),
      channels: input.channels(body.channels ?? [], [], secrets),
      memory: INITIAL_MEMORY,
      assertions: [],
      grace_seconds: body.grace_seconds ?? GRACE.default,
      push_hash: hashKey(token),
    }
    monitor.next_run_at = deadlineAfter(monitor, now)
    return { monitor, token }
  }

  /**
   * The heartbeat monitor whose push token this is: the id in the token finds it, the whole
   * token's hash must match the stored one. Undefined for any other token.
   */
  async monitorOfToken(token: string): Promise<MonitorRecord | undefined> {
    const id = monitorIdOfToken(token)
    const m = id === null ? undefined : await this.d.monitors.getMonitorById(id)
    return m && isHeartbeat(m) && m.push_hash && sameHash(hashKey(token), m.push_hash) ? m : undefined
  }

  /** Records a push on the monitor its token named (`monitorOfToken`): the monitor after the beat. */
  async beat(m: MonitorRecord, status: BeatStatus, msg?: string): Promise<MonitorRecord> {
    if (m.paused) return m
    const message = msg?.trim() || 'the job reported a failure'
    return (await this.finish(m.id, status === 'up' ? 'beat' : 'down', message)) ?? m
  }

  /** The deadline passed without a beat (a scheduled run of the monitor). */
  missed(m: MonitorRecord, dueAt: number): Promise<MonitorRecord | undefined> {
    const late = m.interval_seconds + (m.grace_seconds ?? GRACE.default)
    return this.finish(m.id, 'missed', `no beat for ${late} s (interval + grace)`, dueAt)
  }

  private async finish(
    id: string,
    kind: 'beat' | 'down' | 'missed',
    message: string,
    dueAt?: number,
  ): Promise<MonitorRecord | undefined> {
    const current = await this.d.monitors.getMonitorById(id)
    if (!current) {
      if (dueAt !== undefined) await this.d.monitors.releaseClaim(id)
      return undefined
    }
    const now = this.d.now()
    const quiet = await this.d.maintenance.covers(current, now)
    const obs: Observation =
      kind === 'beat'
        ? // the rules judge a beat as a run that answered; there is no check and no score
          {
            kind: 'saved',
            check: { id: '', health_score: 100, risk_level: 'low', status: 'ok', created_at: '' },
            unreachable: false,
            certDaysLeft: null,
            certInvalid: null,
            headersPresent: null,
          }
        : {
            kind: 'failed',
            error: { code: kind === 'missed' ? 'heartbeat_missed' : 'heartbeat_down', message },
          }
    const judged = { ...current, url: current.name, alerts: { ...current.alerts, min_score: null } }
    const out = quiet ? { state: current.state, memory: current.memory, events: [] } : evaluate(judged, obs)
    const raised = out.events.map((e) =>
      e.event === 'monitor.up' ? { ...e, message: `${current.name} is up again: a beat arrived` } : e,
    )
    const updated: MonitorRecord = {
      ...current,
      state: out.state,
      memory: out.memory,
      // while silent, one failed run per interval; after a beat, the next deadline
      next_run_at: current.paused
        ? null
        : kind === 'missed'
          ? now + current.interval_seconds * 1000
          : deadlineAfter(current, now),
      updated_at: new Date(now).toISOString(),
    }
    const run: RunRecord = {
      id: nextId(now),
      monitor_id: id,
      started_at: new Date(now).toISOString(),
      outcome: kind === 'beat' ? 'beat' : 'failed',
      trigger: kind === 'missed' ? 'schedule' : 'heartbeat',
      check_id: null,
      health_score: null,
      response_time_ms: null,
      state: current.paused ? 'paused' : quiet ? 'maintenance' : out.state,
      error: obs.kind === 'failed' ? obs.error : null,
    }
    const events = eventRecords(updated, current.paused ? 'paused' : current.state, raised, null, now)
    const cause = raised.find((e) => e.event === 'monitor.down')?.message ?? null
    const history = runHistory(current, out.state, { ok: kind === 'beat', cause }, quiet)
    const saved = await this.d.monitors.finishRun(updated, run, events, history)
    if (saved) this.d.dispatch(saved, events)
    return saved
  }
}
