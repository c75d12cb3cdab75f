import { ClientCommand } from '../../cli/base-command.js'
import { MAINTENANCE_NOT_FOUND_HINT, maintenanceIdArgs } from '../../cli/flags.js'
import { resolveMaintenanceId } from '../../cli/short-ids.js'

export default class MaintenanceDelete extends ClientCommand<typeof MaintenanceDelete> {
  static override summary = 'Delete a maintenance window (its monitors alert again at once if they are down).'
  static override description = `The API answers 204 with no body, so --json prints nothing (exit 0 means deleted).`

  static override examples = ['<%= config.bin %> maintenance delete 0193a5d0-1b2c-7d3e-9f40-5a6b7c8d9e0f']

  static override notFoundHint = MAINTENANCE_NOT_FOUND_HINT

  static override args = maintenanceIdArgs

  async run(): Promise<void> {
    const client = await this.client()
    const id = await resolveMaintenanceId(client, this.args.id)
    await this.spin('Deleting…', () => client.deleteMaintenance(id))
    if (!this.json) this.terminal.out(`Deleted maintenance window ${id}.`)
  }
}
