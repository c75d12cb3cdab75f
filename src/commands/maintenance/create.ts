import { ClientCommand } from '../../cli/base-command.js'
import { maintenanceCreateBody, maintenanceFlags } from '../../cli/maintenance-flags.js'
import { renderMaintenance } from '../../cli/render/maintenance.js'

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

  static override flags = maintenanceFlags('create')

  async run(): Promise<void> {
    const body = maintenanceCreateBody({ ...this.flags, name: this.flags.name! })
    const client = await this.client()
    const w = await this.spin('Creating the maintenance window…', () => client.createMaintenance(body))
    this.emit(w, (view) => renderMaintenance(view, w))
  }
}
