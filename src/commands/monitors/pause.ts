import { ClientCommand } from '../../cli/base-command.js'
import { monitorIdArgs, MONITOR_NOT_FOUND_HINT } from '../../cli/flags.js'
import { renderMonitor } from '../../cli/render/monitors.js'
import { resolveMonitorId } from '../../cli/short-ids.js'

export default class MonitorsPause extends ClientCommand<typeof MonitorsPause> {
  static override summary = 'Pause a monitor: no runs, no alerts, no credits used.'
  static override description = `Pauses the monitor until \`monitors resume\`.

--json prints the API body (the monitor).`

  static override examples = ['<%= config.bin %> monitors pause 0193a5c4-8f2e-7b1a-9c3d-2e4f5a6b7c8d']

  static override notFoundHint = MONITOR_NOT_FOUND_HINT

  static override args = monitorIdArgs

  async run(): Promise<void> {
    const client = await this.client()
    const id = await resolveMonitorId(client, this.args.id)
    const monitor = await this.spin('Pausing…', () => client.updateMonitor(id, { paused: true }))
    this.emit(monitor, (view) => renderMonitor(view, monitor, this.config.bin))
  }
}
