/**
 * What a monitor type owns (docs/architecture.md#a-new-monitor-type): its settings and their
 * validation, how a run is made, whether a run costs a credit, how alerts name its target, when it
 * is due next and its own fields on the wire. Every kind finishes its runs through the one run
 * recorder (record-run.ts), so the state machine, events, rollups and incidents are the same for
 * all. The registry (index.ts) is the one place that tells types apart.
 */
import type {
  LastCheck,
  Monitor,
  MonitorCreate,
  MonitorPatch,
  MonitorRun,
  MonitorType,
} from '../../contract/monitors.js'
import type { AssertionResult } from '../../contract/monitoring.js'
import type { RunDeps, RunHow } from '../../runs/index.js'
import type { MonitorRecord } from '../../store/monitors.js'
import type { RunRecord } from '../../store/run-log.js'
import type { CheckRecord } from '../../store/types.js'
import type { CheckReport } from '../../checks/index.js'
import type { MonitorInput } from '../input.js'
import { INITIAL_MEMORY, type Observation } from '../rules.js'
import { normalizeTags } from '../../contract/tags.js'
import { DomainError } from '../../shared/index.js'

/** What a run saw, for the recorder to apply to its monitor. */
export interface RunEnd {
  trigger: RunRecord['trigger']
  /** What the run record says it came to (saved, failed, beat). */
  outcome: RunRecord['outcome']
  startedAt: number
  obs: Observation
  /** The check it saved, if any. */
  last: LastCheck | null
  responseMs: number | null
  assertions?: AssertionResult[]
  /** Scheduled runs: when the run was due. */
  dueAt?: number
  /** The run's id, when its kind words the run itself (a run that keeps no check); else one is made. */
  id?: string
  /** What a run that keeps no check found (tls: days_left, issuer, protocol). */
  details?: Record<string, unknown>
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
  | {
      kind: 'probed'
      /** The run as recorded (a type that keeps no check: tcp, tls). */
      run: MonitorRun
      /** Credits left when it was charged; null when it failed (nothing charged). */
      remaining: number | null
      monitor: MonitorRecord | undefined
    }
  | { kind: 'no_credits' }

/** What a kind is handed to make and record its runs. */
export interface KindRunDeps {
  runs: RunDeps
  /** The one run recorder (record-run.ts). */
  record: (m: MonitorRecord, end: RunEnd, version?: string) => Promise<MonitorRecord | undefined>
  /** A scheduled run found its user out of credits: the claim goes back and the user's paid monitors pause. */
  outOfCredits: (m: MonitorRecord) => Promise<void>
  now: () => number
}

/** A new monitor being made: the shared fields are filled in by `newRecord`. */
export interface NewMonitor {
  userId: string
  now: number
  input: MonitorInput
  /** channel id → secret of new webhook channels, shown once. */
  secrets: Map<string, string>
}

export interface MonitorKind {
  readonly type: MonitorType
  /** Its runs cost a credit: out of credits, its monitors pause (credit-pause.ts); else they keep watching. */
  readonly paid: boolean
  /** A new monitor of this kind from its create body, validated (DomainError `invalid`); `shownOnce` is a push token to show once. */
  create(body: MonitorCreate, n: NewMonitor): { monitor: MonitorRecord; shownOnce?: string }
  /**
   * A change of the kind's own fields, validated and applied to `next` (a copy of `prev`), before
   * the shared fields are. `reschedule` then settles `next_run_at` once they are.
   */
  patch(prev: MonitorRecord, next: MonitorRecord, patch: MonitorPatch, input: MonitorInput, now: number): void
  reschedule(prev: MonitorRecord, next: MonitorRecord, patch: MonitorPatch, now: number): void
  /** One run: scheduled (`dueAt`) or on demand; ends through `d.record`. */
  run(
    m: MonitorRecord,
    trigger: 'schedule' | 'manual',
    d: KindRunDeps,
    at: { dueAt?: number; how?: RunHow; version?: string },
  ): Promise<RunOutcome>
  /** When a monitor is due next after a run recorded at `now`. */
  nextRunAt(current: MonitorRecord, end: RunEnd, now: number): number | null
  /** How alerts and messages name what it watches. */
  target(m: MonitorRecord): string
  /** Its own fields on the wire (those left out are null). */
  view(m: MonitorRecord): Partial<KindFields>
}

/** The fields of the wire's monitor that belong to one type or another (null for the rest). */
export type KindFields = Pick<
  Monitor,
  | 'url'
  | 'grace_seconds'
  | 'host'
  | 'port'
  | 'timeout_seconds'
  | 'starttls'
  | 'record_type'
  | 'resolver'
  | 'count'
>

/** The fields every new monitor starts with, whatever its kind. */
export function newMonitorFields(id: string, body: Pick<MonitorCreate, 'ref' | 'tags'>, n: NewMonitor) {
  const iso = new Date(n.now).toISOString()
  return {
    id,
    user_id: n.userId,
    ref: body.ref ?? null,
    tags: normalizeTags(body.tags ?? []),
    paused: false,
    paused_reason: null,
    state: 'pending' as const,
    last_check: null,
    created_at: iso,
    updated_at: iso,
    memory: INITIAL_MEMORY,
  }
}

/** The fields of dns and ping monitors, which the other types refuse in a change. */
export const DNS_PING_FIELDS: (keyof MonitorPatch)[] = ['record_type', 'resolver', 'count']

/** A change of a field the monitor's type does not have is refused, naming the field. */
export function refuseForeign(patch: MonitorPatch, type: MonitorType, fields: (keyof MonitorPatch)[]): void {
  const foreign = fields.find((f) => patch[f] !== undefined && patch[f] !== null)
  if (foreign) throw new DomainError('invalid', `A ${type} monitor has no ${foreign} (${foreign}).`)
}
