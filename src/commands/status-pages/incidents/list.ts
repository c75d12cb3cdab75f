import { ClientCommand } from '../../../cli/base-command.js'
import { STATUS_PAGE_NOT_FOUND_HINT, statusPageIdArgs } from '../../../cli/flags.js'
import { renderStatusIncidentList } from '../../../cli/render/status-pages.js'
import { resolveStatusPageId } from '../../../cli/short-ids.js'

export default class StatusIncidentsList extends ClientCommand<typeof StatusIncidentsList> {
  static override summary = "List a status page's incidents, drafts included, newest first."
  static override description = `--json prints the API body ({incidents}).`
  static override examples = ['<%= config.bin %> status-pages incidents list 7c8d9e0f']
  static override notFoundHint = STATUS_PAGE_NOT_FOUND_HINT
  static override args = { page: statusPageIdArgs.id }

  async run(): Promise<void> {
    const client = await this.client()
    const page = await resolveStatusPageId(client, this.args.page)
    const list = await this.spin('Loading incidents…', () => client.listStatusIncidents(page))
    this.emit(list, (view) => renderStatusIncidentList(view, list))
  }
}
