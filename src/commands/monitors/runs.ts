import { ClientCommand } from '../../cli/base-command.js'
import { monitorIdArgs, MONITOR_NOT_FOUND_HINT, pageFlags, pageOf } from '../../cli/flags.js'
import { renderRuns } from '../../cli/render/monitors.js'
import { resolveMonitorId } from '../../cli/short-ids.js'

export default class MonitorsRuns extends ClientCommand<typeof MonitorsRuns> {
  static override summary = 'Show the runs of a monitor, newest first.'
  static override description = `Each run: when it started, saved or failed, the state after it, score, response time, check id or error.

--json prints the API body ({runs, next_cursor}).`

  static override examples = ['<%= config.bin %> monitors runs 0193a5c4-8f2e-7b1a-9c3d-2e4f5a6b7c8d']

  static override notFoundHint = MONITOR_NOT_FOUND_HINT

  static override args = monitorIdArgs

  static override flags = {
    ...pageFlags,
  }

  async run(): Promise<void> {
    const client = await this.client()
    const id = await resolveMonitorId(client, this.args.id)
    const page = await this.spin('Loading runs…', () => client.monitorRuns(id, pageOf(this.flags)))
    this.emit(page, (view) => renderRuns(view, page, id, this.config.bin))
  }
}
