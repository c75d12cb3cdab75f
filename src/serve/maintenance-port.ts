/**
 * The dashboard's door to maintenance windows (its DashboardMaintenance port) over the maintenance
 * service: the form's wall-clock times read in the chosen IANA time zone, then the contract's
 * schema and the service's rules, as the API checks them; another user's window is as unknown as a
 * missing one.
 */
import { isTimeZone, MaintenanceCreate, type MaintenancePatch } from '../contract/monitoring.js'
import {
  MaintenanceRejected,
  type DashboardMaintenance,
  type MaintenanceInput,
} from '../dashboard/maintenance-port.js'
import { isUuid } from '../monitors/ids.js'
import { DomainError } from '../shared/domain-error.js'
import { maintenanceView, wallToInstant, type MaintenanceService } from '../monitors/maintenance/index.js'

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::\d{2})?$/

/** A datetime-local value read in the zone, as ISO 8601 UTC; a field name in the error. */
function instantOf(local: string, tz: string, field: string): string {
  const m = LOCAL.exec(local.trim())
  if (!m) throw new MaintenanceRejected(`${field}: give a date and time`)
  const wall = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5])
  return new Date(wallToInstant(wall, tz)).toISOString().replace('.000Z', 'Z')
}

/** The form as the API's create body. */
function bodyOf(input: MaintenanceInput): unknown {
  const base = { name: input.name, monitor_ids: input.monitor_ids }
  if (input.kind === 'weekly')
    return {
      ...base,
      weekly: {
        days: input.days,
        start: input.start,
        duration_minutes: input.duration_minutes,
        timezone: input.timezone,
      },
    }
  if (!isTimeZone(input.timezone))
    throw new MaintenanceRejected(
      'timezone: Unknown time zone: use an IANA name such as Europe/Berlin or UTC',
    )
  return {
    ...base,
    starts_at: instantOf(input.starts_local, input.timezone, 'starts_at'),
    ends_at: instantOf(input.ends_local, input.timezone, 'ends_at'),
  }
}

/** The form checked as a whole window would be, then the error naming its field. */
function parsedOf(input: MaintenanceInput): MaintenanceCreate {
  const parsed = MaintenanceCreate.safeParse(bodyOf(input))
  if (parsed.success) return parsed.data
  const issue = parsed.error.issues[0]
  throw new MaintenanceRejected(`${issue.path.map(String).join('.') || 'window'}: ${issue.message}`)
}

async function rejecting<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (err) {
    if (err instanceof DomainError && err.kind !== 'not_found')
      throw new MaintenanceRejected(err.field ? `${err.field}: ${err.message}` : err.message)
    throw err
  }
}

export function dashboardMaintenance(
  service: MaintenanceService,
  now: () => number = Date.now,
): DashboardMaintenance {
  const mine = async (userId: string, id: string) => {
    if (!isUuid(id)) return undefined
    try {
      return await service.get(userId, id)
    } catch (err) {
      if (err instanceof DomainError && err.kind === 'not_found') return undefined
      throw err
    }
  }
  return {
    async list(userId) {
      const t = now()
      return (await service.list(userId)).map((w) => maintenanceView(w, t))
    },
    async get(userId, id) {
      const w = await mine(userId, id)
      return w && maintenanceView(w, now())
    },
    async create(userId, input) {
      const body = parsedOf(input)
      return maintenanceView(await rejecting(() => service.create(userId, body)), now())
    },
    async update(userId, id, input) {
      const prev = await mine(userId, id)
      if (!prev) return undefined
      const body = parsedOf(input)
      // a one-off window's times, or a weekly schedule (a one-off turned weekly drops its times)
      const patch: MaintenancePatch = body.weekly
        ? { name: body.name, monitor_ids: body.monitor_ids, weekly: body.weekly }
        : { name: body.name, monitor_ids: body.monitor_ids, starts_at: body.starts_at, ends_at: body.ends_at }
      if (body.weekly && !prev.weekly) Object.assign(patch, { starts_at: null, ends_at: null })
      if (!body.weekly) patch.weekly = null
      try {
        return maintenanceView(await rejecting(() => service.update(userId, prev.id, patch)), now())
      } catch (err) {
        if (err instanceof DomainError && err.kind === 'not_found') return undefined // deleted meanwhile
        throw err
      }
    },
    async remove(userId, id) {
      if (!(await mine(userId, id))) return false
      await service.remove(userId, id)
      return true
    },
  }
}
