import { ClientCommand } from '../../cli/base-command.js'
import { MAINTENANCE_NOT_FOUND_HINT, maintenanceIdArgs } from '../../cli/flags.js'
import { maintenanceFlags, maintenancePatchBody } from '../../cli/maintenance-flags.js'
import { renderMaintenance } from '../../cli/render/maintenance.js'
import { resolveMaintenanceId } from '../../cli/short-ids.js'

export default class MaintenanceUpdate extends ClientCommand<typeof MaintenanceUpdate> {
  static override summary = 'Change a maintenance window: its name, monitors or schedule.'
  static override description = `Takes the flags of \`maintenance create\`; only those given change. The weekly flags are merged with the window's schedule, so \`--at 03:00\` alone moves the hour and keeps the days; giving --days, --at and --duration makes a one-off window weekly, and --one-off makes a weekly one one-off again. --monitor replaces the window's monitors; "none" as --starts-at or --ends-at removes that bound of a weekly window. The result must still be a valid window (the API checks it, naming the field).

--json prints the API body (the window as changed).`

  static override examples = [
    '<%= config.bin %> maintenance update 0193a5d0-1b2c-7d3e-9f40-5a6b7c8d9e0f --ends-at 2026-12-02T00:00:00Z',
    '<%= config.bin %> maintenance update 0193a5d0-1b2c-7d3e-9f40-5a6b7c8d9e0f --at 03:00 --timezone Europe/Berlin',
  ]

  static override notFoundHint = MAINTENANCE_NOT_FOUND_HINT

  static override args = maintenanceIdArgs

  static override flags = maintenanceFlags('update')

  async run(): Promise<void> {
    const client = await this.client()
    const w = await this.spin('Updating the maintenance window…', async () => {
      const current = await client.getMaintenance(await resolveMaintenanceId(client, this.args.id))
      return client.updateMaintenance(current.id, maintenancePatchBody(this.flags, current))
    })
    this.emit(w, (view) => renderMaintenance(view, w))
  }
}
