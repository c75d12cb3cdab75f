import { Flags } from '@oclif/core'
import { ClientCommand } from '../../cli/base-command.js'
import { UsageError } from '../../cli/errors.js'
import { renderMaintenance } from '../../cli/render/maintenance.js'
import { WEEKDAYS, type MaintenanceCreate, type Weekday } from '../../contract/monitoring.js'
import { parseEvery } from '../../monitors/interval.js'

export default class MaintenanceCreateCommand extends ClientCommand<typeof MaintenanceCreateCommand> {
  static override summary =
    'Create a maintenance window: runs go on, alerts stay quiet, uptime does not count them.'
  static override description = `A one-off window (--starts-at and --ends-at, ISO 8601) or a weekly one (--days, --at, --duration, --timezone; --starts-at/--ends-at then bound the recurrence). Weekly windows keep their local time across daylight-saving changes.

Inside a window the monitors read "maintenance", raise no alert, and their runs do not count in uptime; public status pages show the window.

--json prints the API body (the window).`

  static override examples = [
    '<%= config.bin %> maintenance create --name Release --all --starts-at 2026-12-01T22:00:00Z --ends-at 2026-12-01T23:00:00Z',
    '<%= config.bin %> maintenance create --name "Saturday backup" --monitor ID --days sat --at 02:00 --duration 90m --timezone Europe/Berlin',
  ]

  static override flags = {
    name: Flags.string({ description: 'What the window is for (shown on status pages).', required: true }),
    monitor: Flags.string({
      description: 'A monitor it silences (repeat, or separate with commas).',
      multiple: true,
      aliases: ['monitors', 'monitor-id'],
      exclusive: ['all'],
    }),
    all: Flags.boolean({
      description: 'Every monitor of the account, also ones created later.',
      default: false,
    }),
    'starts-at': Flags.string({
      description: 'When it opens (one-off), or the first day a weekly window may open.',
    }),
    'ends-at': Flags.string({ description: 'When it closes (one-off), or the end of a weekly recurrence.' }),
    days: Flags.string({
      description: `Weekly: the days it opens on, comma-separated (${WEEKDAYS.join(', ')}).`,
    }),
    at: Flags.string({ description: 'Weekly: local time it opens, HH:MM (24 h).' }),
    duration: Flags.string({ description: 'Weekly: how long it stays open: 90m, 2h, or minutes.' }),
    timezone: Flags.string({
      description: 'Weekly: an IANA time zone such as Europe/Berlin.',
      default: 'UTC',
    }),
  }

  async run(): Promise<void> {
    const f = this.flags
    const ids = (f.monitor ?? [])
      .flatMap((m) => m.split(','))
      .map((m) => m.trim())
      .filter(Boolean)
    if (!f.all && ids.length === 0)
      throw new UsageError('Say which monitors: --monitor ID (repeatable) or --all.')
    const body: MaintenanceCreate = { name: f.name, monitor_ids: f.all ? 'all' : ids }
    if (f['starts-at'] !== undefined) body.starts_at = f['starts-at']
    if (f['ends-at'] !== undefined) body.ends_at = f['ends-at']
    if (f.days !== undefined || f.at !== undefined || f.duration !== undefined) {
      if (f.days === undefined || f.at === undefined || f.duration === undefined)
        throw new UsageError('A weekly window needs --days, --at and --duration (and --timezone).')
      const days = f.days.split(',').map((d) => d.trim().toLowerCase().slice(0, 3))
      const unknown = days.find((d) => !(WEEKDAYS as readonly string[]).includes(d))
      if (unknown !== undefined)
        throw new UsageError(`--days: "${unknown}" is not one of ${WEEKDAYS.join(', ')}.`)
      const duration = /^\d+$/.test(f.duration.trim()) ? Number(f.duration) * 60 : parseEvery(f.duration)
      if (duration === undefined || duration % 60 !== 0)
        throw new UsageError(`--duration: "${f.duration}" is not a whole number of minutes (90m, 2h).`)
      body.weekly = {
        days: days as Weekday[],
        start: f.at,
        duration_minutes: duration / 60,
        timezone: f.timezone,
      }
    } else if (body.starts_at === undefined || body.ends_at === undefined) {
      throw new UsageError(
        'Give --starts-at and --ends-at (a one-off window), or --days, --at and --duration (weekly).',
      )
    }
    const client = await this.client()
    const w = await this.spin('Creating the maintenance window…', () => client.createMaintenance(body))
    this.emit(w, (view) => renderMaintenance(view, w))
  }
}
