/**
 * The flags of `maintenance create` and `maintenance update` (one set of names), and their reading
 * into the API's body: a create, or a patch merged with the window as it is.
 */
import { Flags } from '@oclif/core'
import {
  WEEKDAYS,
  type MaintenanceCreate,
  type MaintenancePatch,
  type MaintenanceWindow,
  type Weekday,
  type WeeklySchedule,
} from '../contract/monitoring.js'
import { parseEvery } from '../contract/durations.js'
import { UsageError } from './errors.js'

/** The flags; `update` takes the same names, none required and no default time zone. */
export function maintenanceFlags(mode: 'create' | 'update') {
  const update = mode === 'update'
  return {
    name: Flags.string({
      description: update ? 'A new name.' : 'What the window is for (shown on status pages).',
      required: !update,
    }),
    monitor: Flags.string({
      description: update
        ? 'Replace its monitors with these (repeat, or separate with commas).'
        : 'A monitor it silences (repeat, or separate with commas).',
      multiple: true,
      aliases: ['monitors', 'monitor-id'],
      exclusive: ['all'],
    }),
    all: Flags.boolean({
      description: 'Every monitor of the account, also ones created later.',
      default: false,
    }),
    'starts-at': Flags.string({
      description: update
        ? 'When it opens (one-off), or the first day a weekly window may open; "none" removes a weekly bound.'
        : 'When it opens (one-off), or the first day a weekly window may open.',
    }),
    'ends-at': Flags.string({
      description: update
        ? 'When it closes (one-off), or the end of a weekly recurrence; "none" removes a weekly bound.'
        : 'When it closes (one-off), or the end of a weekly recurrence.',
    }),
    days: Flags.string({
      description: `Weekly: the days it opens on, comma-separated (${WEEKDAYS.join(', ')}).`,
    }),
    at: Flags.string({ description: 'Weekly: local time it opens, HH:MM (24 h).' }),
    duration: Flags.string({ description: 'Weekly: how long it stays open: 90m, 2h, or minutes.' }),
    timezone: Flags.string({
      description: 'Weekly: an IANA time zone such as Europe/Berlin.',
      ...(update ? {} : { default: 'UTC' }),
    }),
    ...(update
      ? {
          'one-off': Flags.boolean({
            description:
              'Make a weekly window a one-off one (give --starts-at and --ends-at unless it has both).',
            default: false,
            exclusive: ['days', 'at', 'duration', 'timezone'],
          }),
        }
      : {}),
  }
}

export interface MaintenanceFlagValues {
  name?: string
  monitor?: string[]
  all: boolean
  'starts-at'?: string
  'ends-at'?: string
  days?: string
  at?: string
  duration?: string
  timezone?: string
  'one-off'?: boolean
}

function monitorIdsOf(f: MaintenanceFlagValues): string[] {
  return (f.monitor ?? [])
    .flatMap((m) => m.split(','))
    .map((m) => m.trim())
    .filter(Boolean)
}

function daysOf(text: string): Weekday[] {
  const days = text.split(',').map((d) => d.trim().toLowerCase().slice(0, 3))
  const unknown = days.find((d) => !(WEEKDAYS as readonly string[]).includes(d))
  if (unknown !== undefined)
    throw new UsageError(`--days: "${unknown}" is not one of ${WEEKDAYS.join(', ')}.`)
  return days as Weekday[]
}

function minutesOf(text: string): number {
  const seconds = /^\d+$/.test(text.trim()) ? Number(text) * 60 : parseEvery(text)
  if (seconds === undefined || seconds % 60 !== 0)
    throw new UsageError(`--duration: "${text}" is not a whole number of minutes (90m, 2h).`)
  return seconds / 60
}

const touchesWeekly = (f: MaintenanceFlagValues) =>
  f.days !== undefined || f.at !== undefined || f.duration !== undefined

export function maintenanceCreateBody(f: MaintenanceFlagValues & { name: string }): MaintenanceCreate {
  const ids = monitorIdsOf(f)
  if (!f.all && ids.length === 0)
    throw new UsageError('Say which monitors: --monitor ID (repeatable) or --all.')
  const body: MaintenanceCreate = { name: f.name, monitor_ids: f.all ? 'all' : ids }
  if (f['starts-at'] !== undefined) body.starts_at = f['starts-at']
  if (f['ends-at'] !== undefined) body.ends_at = f['ends-at']
  if (touchesWeekly(f)) {
    if (f.days === undefined || f.at === undefined || f.duration === undefined)
      throw new UsageError('A weekly window needs --days, --at and --duration (and --timezone).')
    body.weekly = {
      days: daysOf(f.days),
      start: f.at,
      duration_minutes: minutesOf(f.duration),
      timezone: f.timezone ?? 'UTC',
    }
  } else if (body.starts_at === undefined || body.ends_at === undefined) {
    throw new UsageError(
      'Give --starts-at and --ends-at (a one-off window), or --days, --at and --duration (weekly).',
    )
  }
  return body
}

const boundOf = (v: string) => (v.trim().toLowerCase() === 'none' ? null : v)

/**
 * The patch for `maintenance update`: only what the flags change. Weekly flags are merged with the
 * window's own schedule (the API replaces `weekly` whole), so `--at 03:00` alone moves the hour.
 */
export function maintenancePatchBody(f: MaintenanceFlagValues, current: MaintenanceWindow): MaintenancePatch {
  const patch: MaintenancePatch = {}
  if (f.name !== undefined) patch.name = f.name
  const ids = monitorIdsOf(f)
  if (f.all) patch.monitor_ids = 'all'
  else if (ids.length > 0) patch.monitor_ids = ids
  if (f['starts-at'] !== undefined) patch.starts_at = boundOf(f['starts-at'])
  if (f['ends-at'] !== undefined) patch.ends_at = boundOf(f['ends-at'])
  if (f['one-off']) patch.weekly = null
  else if (touchesWeekly(f) || f.timezone !== undefined) {
    const was = current.weekly
    if (!was && (f.days === undefined || f.at === undefined || f.duration === undefined))
      throw new UsageError(
        'This window is one-off: making it weekly needs --days, --at and --duration (and --timezone).',
      )
    const weekly: WeeklySchedule = {
      days: f.days !== undefined ? daysOf(f.days) : was!.days,
      start: f.at ?? was!.start,
      duration_minutes: f.duration !== undefined ? minutesOf(f.duration) : was!.duration_minutes,
      timezone: f.timezone ?? was?.timezone ?? 'UTC',
    }
    patch.weekly = weekly
  }
  if (Object.keys(patch).length === 0)
    throw new UsageError(
      'Nothing to change: give at least one of --name, --monitor/--all, --starts-at, --ends-at, --days, --at, --duration, --timezone, --one-off.',
    )
  return patch
}
