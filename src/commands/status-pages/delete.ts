import { ClientCommand } from '../../cli/base-command.js'
import { STATUS_PAGE_NOT_FOUND_HINT, statusPageIdArgs } from '../../cli/flags.js'
import { resolveStatusPageId } from '../../cli/short-ids.js'

export default class StatusPagesDelete extends ClientCommand<typeof StatusPagesDelete> {
  static override summary = 'Delete a status page (its monitors stay).'
  static override description = `The public page and its badges are gone at once; the slug is free again.

The API answers 204 with no body, so --json prints nothing (exit 0 means deleted).`

  static override examples = ['<%= config.bin %> status-pages delete 0193a5d0-3c4d-7e5f-8a6b-7c8d9e0f1a2b']

  static override notFoundHint = STATUS_PAGE_NOT_FOUND_HINT

  static override args = statusPageIdArgs

  async run(): Promise<void> {
    const client = await this.client()
    const id = await resolveStatusPageId(client, this.args.id)
    await this.spin('Deleting…', () => client.deleteStatusPage(id))
    if (!this.json) this.terminal.out(`Deleted status page ${id}.`)
  }
}
