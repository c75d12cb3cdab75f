/**
 * Heartbeat monitors (docs/decisions.md#monitoring-depth): no URL is checked; a job calls the
 * monitor's push URL. A beat is up, `status=down` a failure, and no beat for interval + grace a
 * failure too (the scheduler finds the deadline due, as it finds an http monitor's next run).
 * Beats run no check and cost no credit. The same rules as for http monitors decide the state and
 * its alerts (down_after, recover_after…), and maintenance windows silence them alike; alerts
 * name the monitor by its name.
 *
 * The push token is `hb_` + the monitor id's 32 hex digits + 24 random characters: the id finds
 * the monitor in one read, the whole token's SHA-256 (hashKey, as for API keys) must match the
 * one stored. The token itself is shown once, in the response that created the monitor.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto'
import { hashKey } from '../../contract/api-key.js'
import { GRACE } from '../../contract/monitoring.js'
import type { MonitorDefinitionStore, MonitorRecord } from '../../store/monitors.js'
import { nextId } from '../ids.js'
import { DomainError } from '../../shared/index.js'
import {
  DNS_PING_FIELDS,
  newMonitorFields,
  refuseForeign,
  type KindRunDeps,
  type MonitorKind,
  type RunEnd,
} from './kind.js'

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

/** When a heartbeat monitor is due next: a beat at `at` is awaited interval + grace later. */
const deadlineAfter = (m: Pick<MonitorRecord, 'interval_seconds' | 'grace_seconds'>, at: number) =>
  at + (m.interval_seconds + (m.grace_seconds ?? GRACE.default)) * 1000

/** A run of a heartbeat monitor: what it came to, with no check. */
const ended = (at: number, e: Pick<RunEnd, 'trigger' | 'outcome' | 'obs' | 'dueAt'>): RunEnd => ({
  ...e,
  startedAt: at,
  last: null,
  responseMs: null,
})

export const heartbeat: MonitorKind = {
  type: 'heartbeat',
  paid: false,

  create(body, n) {
    const id = nextId(n.now)
    const token = newPushToken(id)
    const interval = n.input.interval(body.interval_seconds)
    const monitor: MonitorRecord = {
      ...newMonitorFields(id, body, n),
      type: 'heartbeat',
      url: '',
      name: body.name ?? 'heartbeat',
      interval_seconds: interval,
      pagespeed: 'estimate',
      next_run_at: 0,
      alerts: n.input.alertRules(body.alerts),
      channels: n.input.channels(body.channels ?? [], [], n.secrets),
      assertions: [],
      grace_seconds: body.grace_seconds ?? GRACE.default,
      push_hash: hashKey(token),
    }
    monitor.next_run_at = deadlineAfter(monitor, n.now)
    return { monitor, shownOnce: token }
  },

  patch(_prev, next, patch) {
    if (patch.url !== undefined)
      throw new DomainError('invalid', 'A heartbeat monitor has no url: its job calls its push URL (url).')
    refuseForeign(patch, 'heartbeat', ['host', 'port', 'timeout_seconds', 'starttls', ...DNS_PING_FIELDS])
    if (patch.grace_seconds !== undefined) next.grace_seconds = patch.grace_seconds
  },

  reschedule(prev, next, patch, now) {
    // a new interval, grace or a resume awaits the next beat from now
    if (!next.paused && (next.next_run_at !== prev.next_run_at || patch.grace_seconds !== undefined))
      next.next_run_at = deadlineAfter(next, now)
  },

  async run(m, trigger, d, { dueAt, version }) {
    if (trigger === 'manual')
      return {
        kind: 'failed',
        code: 'invalid_url',
        message: 'A heartbeat monitor runs no check: its job calls its push URL',
        monitor: m,
      }
    // its deadline passed without a beat: no check, no credit
    const late = m.interval_seconds + (m.grace_seconds ?? GRACE.default)
    const error = { code: 'heartbeat_missed', message: `no beat for ${late} s (interval + grace)` }
    const end = ended(d.now(), {
      trigger: 'schedule',
      outcome: 'failed',
      obs: { kind: 'failed', error },
      dueAt,
    })
    const monitor = await d.record(m, end, version)
    return { kind: 'failed', code: 'check_failed', message: 'no beat in time', monitor }
  },

  // while silent, one failed run per interval; after a beat (or a push of a failure), the next deadline
  nextRunAt: (current, end, now) =>
    end.trigger === 'schedule' ? now + current.interval_seconds * 1000 : deadlineAfter(current, now),

  target: (m) => m.name,

  view: (m) => ({ url: null, grace_seconds: m.grace_seconds ?? 0 }),
}

export type BeatStatus = 'up' | 'down'

/** The push route's door: the monitor a token names, and its beats recorded. */
export class Heartbeats {
  constructor(
    private readonly d: Pick<KindRunDeps, 'record' | 'now'> & {
      monitors: Pick<MonitorDefinitionStore, 'getMonitorById'>
    },
  ) {}

  /**
   * The heartbeat monitor whose push token this is: the id in the token finds it, the whole
   * token's hash must match the stored one. Undefined for any other token.
   */
  async monitorOfToken(token: string): Promise<MonitorRecord | undefined> {
    const id = monitorIdOfToken(token)
    const m = id === null ? undefined : await this.d.monitors.getMonitorById(id)
    const ours = m?.type === heartbeat.type && m.push_hash
    return ours && sameHash(hashKey(token), ours) ? m : undefined
  }

  /** Records a push on the monitor its token named (`monitorOfToken`): the monitor after the beat. */
  async beat(m: MonitorRecord, status: BeatStatus, msg?: string): Promise<MonitorRecord> {
    if (m.paused) return m
    const message = msg?.trim() || 'the job reported a failure'
    const end = ended(
      this.d.now(),
      status === 'up'
        ? { trigger: 'heartbeat', outcome: 'beat', obs: { kind: 'answered', seen: 'a beat arrived' } }
        : {
            trigger: 'heartbeat',
            outcome: 'failed',
            obs: { kind: 'failed', error: { code: 'heartbeat_down', message } },
          },
    )
    return (await this.d.record(m, end)) ?? m
  }
}
