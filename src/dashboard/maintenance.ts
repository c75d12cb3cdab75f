/**
 * The maintenance form read as the API's body: its wall-clock times read in the chosen IANA time
 * zone, then the contract's schema (the first problem naming its field). The maintenance service
 * (the API's) checks the rest and refuses with a DomainError naming the field.
 */
import {
  isTimeZone,
  MaintenanceCreate,
  type MaintenancePatch,
  type MaintenanceWindow,
} from '../contract/monitoring.js'
import { wallToInstant } from '../monitors/maintenance/index.js'
import { DomainError, validInput } from '../shared/index.js'

/** The create form as sent: times are wall-clock times in `timezone` (the form's datetime-local). */
export interface MaintenanceInput {
  name: string
  /** 'all', or the ids ticked. */
  monitor_ids: string[] | 'all'
  kind: 'once' | 'weekly'
  timezone: string
  /** One-off: YYYY-MM-DDTHH:MM in `timezone`. */
  starts_local: string
  ends_local: string
  /** Weekly: mon … sun, HH:MM, minutes. */
  days: string[]
  start: string
  duration_minutes: number
}

const SUBJECT = 'window'
const refused = (field: string, message: string) =>
  new DomainError('invalid', message, { field, subject: SUBJECT })

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::\d{2})?$/

/** A datetime-local value read in the zone, as ISO 8601 UTC. */
function instantOf(local: string, tz: string, field: string): string {
  const m = LOCAL.exec(local.trim())
  if (!m) throw refused(field, 'give a date and time')
  const wall = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5])
  return new Date(wallToInstant(wall, tz)).toISOString().replace('.000Z', 'Z')
}

/** The form as the API's create body, checked as a whole window would be. */
export function maintenanceBody(input: MaintenanceInput): MaintenanceCreate {
  if (input.monitor_ids !== 'all' && input.monitor_ids.length === 0)
    throw refused('monitor_ids', 'tick at least one monitor, or choose all monitors')
  const base = { name: input.name, monitor_ids: input.monitor_ids }
  if (input.kind === 'weekly') {
    const { days, start, duration_minutes, timezone } = input
    return validInput(
      MaintenanceCreate,
      { ...base, weekly: { days, start, duration_minutes, timezone } },
      SUBJECT,
    )
  }
  if (!isTimeZone(input.timezone))
    throw refused('timezone', 'Unknown time zone: use an IANA name such as Europe/Berlin or UTC')
  const body = {
    ...base,
    starts_at: instantOf(input.starts_local, input.timezone, 'starts_at'),
    ends_at: instantOf(input.ends_local, input.timezone, 'ends_at'),
  }
  return validInput(MaintenanceCreate, body, SUBJECT)
}

/**
 * The form's window as a patch of `prev`: a one-off window's times, or a weekly schedule (a
 * one-off turned weekly drops its times).
 */
export function maintenancePatch(prev: MaintenanceWindow | { weekly: unknown }, body: MaintenanceCreate) {
  const patch: MaintenancePatch = body.weekly
    ? { name: body.name, monitor_ids: body.monitor_ids, weekly: body.weekly }
    : { name: body.name, monitor_ids: body.monitor_ids, starts_at: body.starts_at, ends_at: body.ends_at }
  if (body.weekly && !prev.weekly) Object.assign(patch, { starts_at: null, ends_at: null })
  if (!body.weekly) patch.weekly = null
  return patch
}
