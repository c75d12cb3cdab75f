import { ClientCommand } from '../../cli/base-command.js'
import { STATUS_PAGE_NOT_FOUND_HINT, statusPageIdArgs } from '../../cli/flags.js'
import { renderStatusPage } from '../../cli/render/status-pages.js'
import { resolveStatusPageId } from '../../cli/short-ids.js'

export default class StatusPagesGet extends ClientCommand<typeof StatusPagesGet> {
  static override summary = 'Show one status page and its public URL.'
  static override description = `--json prints the API body (the status page).`

  static override examples = ['<%= config.bin %> status-pages get 0193a5d0-3c4d-7e5f-8a6b-7c8d9e0f1a2b']

  static override notFoundHint = STATUS_PAGE_NOT_FOUND_HINT

  static override args = statusPageIdArgs

  async run(): Promise<void> {
    const client = await this.client()
    const id = await resolveStatusPageId(client, this.args.id)
    const page = await this.spin('Loading the status page…', () => client.getStatusPage(id))
    this.emit(page, (view) => renderStatusPage(view, page))
  }
}
