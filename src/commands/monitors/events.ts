import { ClientCommand } from '../../cli/base-command.js'
import { monitorIdArgs, MONITOR_NOT_FOUND_HINT, pageFlags, pageOf } from '../../cli/flags.js'
import { renderEvents } from '../../cli/render/monitors.js'
import { resolveMonitorId } from '../../cli/short-ids.js'

export default class MonitorsEvents extends ClientCommand<typeof MonitorsEvents> {
  static override summary = 'Show the alerts a monitor raised, with their deliveries.'
  static override description = `Each event: when, which (monitor.down, certificate.expiring…), the message, and per channel whether it was delivered and after how many attempts.

--json prints the API body ({events, next_cursor}).`

  static override examples = ['<%= config.bin %> monitors events 0193a5c4-8f2e-7b1a-9c3d-2e4f5a6b7c8d']

  static override notFoundHint = MONITOR_NOT_FOUND_HINT

  static override args = monitorIdArgs

  static override flags = {
    ...pageFlags,
  }

  async run(): Promise<void> {
    const client = await this.client()
    const id = await resolveMonitorId(client, this.args.id)
    const page = await this.spin('Loading events…', () => client.monitorEvents(id, pageOf(this.flags)))
    this.emit(page, (view) => renderEvents(view, page, id, this.config.bin))
  }
}
