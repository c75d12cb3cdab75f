import { ClientCommand } from '../../cli/base-command.js'
import { MAINTENANCE_NOT_FOUND_HINT, maintenanceIdArgs } from '../../cli/flags.js'
import { renderMaintenance } from '../../cli/render/maintenance.js'
import { resolveMaintenanceId } from '../../cli/short-ids.js'

export default class MaintenanceGet extends ClientCommand<typeof MaintenanceGet> {
  static override summary =
    'Show one maintenance window: when it opens, its monitors, whether it is open now.'
  static override description = `ID is the full id, or the short id that \`maintenance list\` shows. An id that does not exist, or is not yours, exits 2.

--json prints the API body (the window).`

  static override examples = [
    '<%= config.bin %> maintenance get 0193a5d0-1b2c-7d3e-9f40-5a6b7c8d9e0f',
    '<%= config.bin %> maintenance get 0193a5d0-1b2c-7d3e-9f40-5a6b7c8d9e0f --json',
  ]

  static override notFoundHint = MAINTENANCE_NOT_FOUND_HINT

  static override args = maintenanceIdArgs

  async run(): Promise<void> {
    const client = await this.client()
    const w = await this.spin('Loading the maintenance window…', async () =>
      client.getMaintenance(await resolveMaintenanceId(client, this.args.id)),
    )
    this.emit(w, (view) => renderMaintenance(view, w))
  }
}
