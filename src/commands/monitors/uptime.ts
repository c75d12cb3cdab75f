import { Flags } from '@oclif/core'
import { ClientCommand } from '../../cli/base-command.js'
import { UsageError } from '../../cli/errors.js'
import { monitorIdArgs, MONITOR_NOT_FOUND_HINT } from '../../cli/flags.js'
import { renderUptime } from '../../cli/render/uptime.js'
import { resolveMonitorId } from '../../cli/short-ids.js'

const UNIT_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000 }

/** An ISO time, a day (YYYY-MM-DD, UTC), `now`, or a span ago such as 7d, 24h, 90m; undefined when none fits. */
export function parseWhen(text: string, now = Date.now()): string | undefined {
  const t = text.trim()
  if (t === 'now') return new Date(now).toISOString()
  const ago = /^(\d{1,6})([mhd])$/.exec(t)
  if (ago) return new Date(now - Number(ago[1]) * UNIT_MS[ago[2]]).toISOString()
  if (/^\d{4}-\d{2}-\d{2}$/.test(t)) {
    const ms = Date.parse(`${t}T00:00:00Z`)
    return Number.isFinite(ms) ? new Date(ms).toISOString() : undefined
  }
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(t)) {
    const ms = Date.parse(t)
    return Number.isFinite(ms) ? new Date(ms).toISOString() : undefined
  }
  return undefined
}

export default class MonitorsUptime extends ClientCommand<typeof MonitorsUptime> {
  static override summary = 'Show the uptime of a monitor over a window.'
  static override description = `Uptime, runs, failed runs, downtime and response times over the window (default: the last 30 days), then one row per day (or hour with --granularity hour, within the last 31 days). Windows up to 400 days. Runs inside a maintenance window do not count. Free: costs no credits.

--from and --to take an ISO time (2026-11-01T00:00:00Z), a day (2026-11-01, UTC), now, or a span ago (7d, 24h, 90m). --json prints the API body ({from, to, uptime_percent, runs, failed_runs, downtime_seconds, response_time_ms, buckets}).`

  static override examples = [
    '<%= config.bin %> monitors uptime 0193a5c4-8f2e-7b1a-9c3d-2e4f5a6b7c8d',
    '<%= config.bin %> monitors uptime 0193a5c4-8f2e-7b1a-9c3d-2e4f5a6b7c8d --from 7d',
    '<%= config.bin %> monitors uptime 0193a5c4-8f2e-7b1a-9c3d-2e4f5a6b7c8d --from 24h --granularity hour',
    '<%= config.bin %> monitors uptime 0193a5c4-8f2e-7b1a-9c3d-2e4f5a6b7c8d --from 2026-01-01 --to 2026-04-01 --json',
  ]

  static override notFoundHint = MONITOR_NOT_FOUND_HINT

  static override args = monitorIdArgs

  static override flags = {
    from: Flags.string({ description: 'Start of the window (default: 30 days before --to).' }),
    to: Flags.string({ description: 'End of the window (default: now).' }),
    granularity: Flags.string({
      description: 'Bucket size: day, or hour within the last 31 days.',
      options: ['day', 'hour'],
    }),
  }

  async run(): Promise<void> {
    const when = (flag: 'from' | 'to') => {
      const v = this.flags[flag]
      if (v === undefined) return undefined
      const iso = parseWhen(v)
      if (iso === undefined)
        throw new UsageError(
          `--${flag} ${JSON.stringify(v)} is not a time: write 2026-11-01T00:00:00Z, 2026-11-01, now, or a span ago such as 7d, 24h or 90m.`,
        )
      return iso
    }
    const query = {
      from: when('from'),
      to: when('to'),
      granularity: this.flags.granularity as 'day' | 'hour' | undefined,
    }
    const client = await this.client()
    const id = await resolveMonitorId(client, this.args.id)
    const report = await this.spin('Loading uptime…', () => client.monitorUptime(id, query))
    this.emit(report, (view) => renderUptime(view, report))
  }
}
