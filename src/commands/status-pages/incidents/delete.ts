import { ClientCommand } from '../../../cli/base-command.js'
import { STATUS_INCIDENT_NOT_FOUND_HINT, statusIncidentArgs } from '../../../cli/flags.js'
import { resolveIncidentTarget } from '../../../cli/short-ids.js'

export default class StatusIncidentsDelete extends ClientCommand<typeof StatusIncidentsDelete> {
  static override summary = 'Delete an incident (a draft discarded, or one posted by mistake).'
  static override description = `It leaves the public page at once. The API answers 204 with no body, so --json prints nothing.`
  static override examples = ['<%= config.bin %> status-pages incidents delete 7c8d9e0f 1a2b3c4d']
  static override notFoundHint = STATUS_INCIDENT_NOT_FOUND_HINT
  static override args = statusIncidentArgs

  async run(): Promise<void> {
    const client = await this.client()
    const { page, incident } = await resolveIncidentTarget(client, this.args)
    await this.spin('Deleting…', () => client.deleteStatusIncident(page, incident))
    if (!this.json) this.terminal.out(`Deleted incident ${incident}.`)
  }
}
