import { ClientCommand } from '../../cli/base-command.js'
import { renderMaintenanceList } from '../../cli/render/maintenance.js'

export default class MaintenanceList extends ClientCommand<typeof MaintenanceList> {
  static override summary =
    'List your maintenance windows, with whether each is open now and when it opens next.'
  static override description = `--json prints the API body ({maintenance_windows}).`

  static override examples = [
    '<%= config.bin %> maintenance list',
    '<%= config.bin %> maintenance list --json',
  ]

  async run(): Promise<void> {
    const client = await this.client()
    const list = await this.spin('Loading maintenance windows…', () => client.listMaintenance())
    this.emit(list, (view) => renderMaintenanceList(view, list, this.config.bin))
  }
}
