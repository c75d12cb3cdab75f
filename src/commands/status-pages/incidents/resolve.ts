import { Flags } from '@oclif/core'
import { ClientCommand } from '../../../cli/base-command.js'
import { STATUS_INCIDENT_NOT_FOUND_HINT, statusIncidentArgs } from '../../../cli/flags.js'
import { renderStatusIncident } from '../../../cli/render/status-pages.js'
import { resolveIncidentTarget } from '../../../cli/short-ids.js'

export default class StatusIncidentsResolve extends ClientCommand<typeof StatusIncidentsResolve> {
  static override summary = 'Resolve an incident with a last update.'
  static override description = `Adds an update with status resolved; the incident moves to the page's past incidents (shown for 90 days).

--json prints the API body (the incident).`

  static override examples = [
    '<%= config.bin %> status-pages incidents resolve 7c8d9e0f 1a2b3c4d --message "Payments work again."',
  ]

  static override notFoundHint = STATUS_INCIDENT_NOT_FOUND_HINT
  static override args = statusIncidentArgs
  static override flags = {
    message: Flags.string({ description: 'The last update.', default: 'This incident has been resolved.' }),
  }

  async run(): Promise<void> {
    const client = await this.client()
    const { page, incident } = await resolveIncidentTarget(client, this.args)
    const result = await this.spin('Resolving…', () =>
      client.addStatusIncidentUpdate(page, incident, { status: 'resolved', message: this.flags.message }),
    )
    this.emit(result, (view) => renderStatusIncident(view, result))
  }
}
