import { ClientCommand } from '../../cli/base-command.js'
import { monitorIdArgs, MONITOR_NOT_FOUND_HINT } from '../../cli/flags.js'
import { renderMonitor } from '../../cli/render/monitors.js'
import { resolveMonitorId } from '../../cli/short-ids.js'

export default class MonitorsResume extends ClientCommand<typeof MonitorsResume> {
  static override summary = 'Resume a paused monitor; it runs right away.'
  static override description = `Resumes the monitor (paused by you or for lack of credits); its next run is now.

--json prints the API body (the monitor).`

  static override examples = ['<%= config.bin %> monitors resume 0193a5c4-8f2e-7b1a-9c3d-2e4f5a6b7c8d']

  static override notFoundHint = MONITOR_NOT_FOUND_HINT

  static override args = monitorIdArgs

  async run(): Promise<void> {
    const client = await this.client()
    const id = await resolveMonitorId(client, this.args.id)
    const monitor = await this.spin('Resuming…', () => client.updateMonitor(id, { paused: false }))
    this.emit(monitor, (view) => renderMonitor(view, monitor, this.config.bin))
  }
}
