/**
 * The monitor pages' reads and the forms' changes, straight on the monitor service the API routes
 * call (docs/architecture.md, "One application layer"): the service checks and refuses (a
 * DomainError), the views are the API's, and another user's monitor is as unknown as a missing one.
 * What is the dashboard's own: the forms read as the contract's shapes (checked by its schema, the
 * first problem naming its field, as the API's body parser does) and assertions in the CLI's words.
 */
import { AssertionSyntaxError, describeAssertion, parseAssertion } from '../assertions/index.js'
import { channelRequestOf, channelTarget } from '../contract/channels.js'
import type { UptimeWindows } from '../contract/monitoring.js'
import { ChannelRequest, MonitorPatch, type MonitorType } from '../contract/monitors.js'
import { typeFace, type TypeFormField } from '../contract/monitor-types/index.js'
import { eventView, monitorView, runView, type MonitorService } from '../monitors/index.js'
import { DomainError, validInput } from '../shared/index.js'
import { isUuid } from '../shared/index.js'
import type { MonitorRecord } from '../store/monitors.js'
import type { RunRecord } from '../store/run-log.js'
import type {
  MaintenanceView,
  MonitorEventView,
  MonitorListItem,
  MonitorRunView,
  MonitorView,
} from './views.js'

/** What the edit form sends. */
export interface MonitorEdit {
  name: string
  interval_seconds: number
  down_after: number
  /** null: no minimum. */
  min_score: number | null
  /** One assertion per line, as the CLI writes them. */
  assertions: string[]
  /** Its tags, as typed (split at spaces and commas). */
  tags: string[]
  /** The type's own fields (its face's fields on the edit form) as typed, by field name. */
  own: Record<string, string>
}

/** The user's monitor, or undefined (a malformed id included). */
export async function mine(service: MonitorService, userId: string, id: string) {
  if (!isUuid(id)) return undefined
  try {
    return await service.get(userId, id)
  } catch (err) {
    if (err instanceof DomainError && err.kind === 'not_found') return undefined
    throw err
  }
}

/** The dashboard's view: the API's, with assertions written as the CLI writes them. */
export function viewOf(m: MonitorRecord, uptime?: UptimeWindows, inMaintenance = false): MonitorView {
  const v = monitorView(m, { uptime, inMaintenance })
  return { ...v, assertions: v.assertions.map(describeAssertion) }
}

/** A monitor's view with its uptime and whether a maintenance window covers it now. */
export async function fullView(service: MonitorService, m: MonitorRecord): Promise<MonitorView> {
  const [uptime, quiet] = await Promise.all([service.uptimeWindows([m.id]), service.maintenance.of([m])])
  return viewOf(m, uptime.get(m.id), quiet.has(m.id))
}

/** The user's monitor's view, or undefined for an unknown id and another user's monitor alike. */
export async function viewOne(service: MonitorService, userId: string, id: string) {
  const m = await mine(service, userId, id)
  return m && fullView(service, m)
}

/** Up to `limit` monitors, each with its newest `runs` runs. */
export async function listItems(
  service: MonitorService,
  userId: string,
  limit: number,
  runs = 0,
): Promise<MonitorListItem[]> {
  const { items } = await service.monitors.listMonitors(userId, { limit })
  const [uptime, quiet] = await Promise.all([
    service.uptimeWindows(items.map((m) => m.id)),
    service.maintenance.of(items),
  ])
  return Promise.all(
    items.map(async (m) => ({
      ...viewOf(m, uptime.get(m.id), quiet.has(m.id)),
      recent: runs > 0 ? (await service.monitors.listRuns(m.id, { limit: runs })).items.map(runOf) : [],
    })),
  )
}

/** A monitor's history for its page: runs and events newest first, maintenance windows covering it. */
export async function historyOf(
  service: MonitorService,
  userId: string,
  m: MonitorRecord,
): Promise<{ runs: MonitorRunView[]; events: MonitorEventView[]; maintenance: MaintenanceView[] }> {
  const [runs, events, windows] = await Promise.all([
    service.monitors.listRuns(m.id, { limit: 50 }),
    service.monitors.listEvents(m.id, { limit: 25 }),
    service.maintenance.upcoming(userId),
  ])
  return {
    runs: runs.items.map(runOf),
    events: events.items.map(eventView),
    maintenance: windows
      .filter((w) => w.monitor_ids === 'all' || w.monitor_ids.includes(m.id))
      .map(({ name, starts_at, ends_at }) => ({ name, starts_at, ends_at })),
  }
}

function runOf(r: RunRecord): MonitorRunView {
  const v = runView(r)
  return {
    started_at: v.started_at,
    outcome: v.outcome,
    check_id: v.check_id ?? null,
    health_score: v.health_score ?? null,
    response_time_ms: v.response_time_ms ?? null,
    error: r.error?.message ?? null,
    assertions: v.assertions.map((a) => ({ passed: a.passed })),
  }
}

/**
 * The edit form as a patch: assertions parsed as the CLI parses them, the type's own fields read as
 * its face says, then the contract's schema.
 */
export function editPatch(type: MonitorType, edit: MonitorEdit): MonitorPatch {
  const assertions = edit.assertions.map((line, i) => {
    try {
      return parseAssertion(line)
    } catch (err) {
      if (err instanceof AssertionSyntaxError)
        throw new DomainError('invalid', `Assertion ${i + 1}: ${err.message}`)
      throw err
    }
  })
  return validInput(
    MonitorPatch,
    {
      name: edit.name,
      interval_seconds: edit.interval_seconds,
      ...readFields(
        typeFace(type).form.fields.filter((f) => f.edit),
        edit.own,
      ),
      alerts: { down_after: edit.down_after, min_score: edit.min_score },
      assertions,
      tags: edit.tags,
    },
    'monitor',
  )
}

/**
 * The monitor's channels as a patch, less those removed, plus the one added: unchanged channels
 * are sent as the service reads them back (it keeps their ids and sealed secrets by equality).
 */
export function channelsPatch(
  service: MonitorService,
  m: MonitorRecord,
  change: { remove: string[]; add?: { type: string; target: string } },
): MonitorPatch {
  const kept = service
    .channelRequests(m)
    .filter((c) => !change.remove.includes(c.id))
    .map((c) => c.request)
  if (!change.add) return validInput(MonitorPatch, { channels: kept }, 'monitor')
  const added = validInput(ChannelRequest, channelRequestOf(change.add.type, change.add.target), 'monitor')
  if (kept.some((c) => c.type === added.type && channelTarget(c) === channelTarget(added)))
    throw new DomainError('invalid', 'This monitor already sends its alerts to that channel.')
  return validInput(MonitorPatch, { channels: [...kept, added] }, 'monitor')
}

/** A type's form fields as body fields, each read as its face says; a field not sent is left out. */
export function readFields(fields: TypeFormField[], typed: Record<string, string>): Record<string, unknown> {
  return Object.fromEntries(
    fields
      .filter((f) => typed[f.name] !== undefined)
      .map((f) => [f.into, f.read ? f.read(typed[f.name]) : typed[f.name]] as const)
      .filter(([, value]) => value !== undefined),
  )
}
