import { ClientCommand } from '../../cli/base-command.js'
import { renderStatusPageList } from '../../cli/render/status-pages.js'

export default class StatusPagesList extends ClientCommand<typeof StatusPagesList> {
  static override summary = 'List your status pages with their public URLs.'
  static override description = `--json prints the API body ({status_pages}).`

  static override examples = [
    '<%= config.bin %> status-pages list',
    '<%= config.bin %> status-pages list --json',
  ]

  async run(): Promise<void> {
    const client = await this.client()
    const list = await this.spin('Loading status pages…', () => client.listStatusPages())
    this.emit(list, (view) => renderStatusPageList(view, list, this.config.bin))
  }
}
