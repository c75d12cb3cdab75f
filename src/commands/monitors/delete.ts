import { ClientCommand } from '../../cli/base-command.js'
import { monitorIdArgs, MONITOR_NOT_FOUND_HINT } from '../../cli/flags.js'
import { resolveMonitorId } from '../../cli/short-ids.js'

export default class MonitorsDelete extends ClientCommand<typeof MonitorsDelete> {
  static override summary = 'Delete a monitor with its runs and events.'
  static override description = `Deletes the monitor; the checks it saved stay in \`recent\`.

The API answers 204 with no body, so --json prints nothing (exit 0 means deleted).`

  static override examples = ['<%= config.bin %> monitors delete 0193a5c4-8f2e-7b1a-9c3d-2e4f5a6b7c8d']

  static override notFoundHint = MONITOR_NOT_FOUND_HINT

  static override args = monitorIdArgs

  async run(): Promise<void> {
    const client = await this.client()
    const id = await resolveMonitorId(client, this.args.id)
    await this.spin('Deleting…', () => client.deleteMonitor(id))
    if (!this.json) this.terminal.out(`Deleted monitor ${id}.`)
  }
}
