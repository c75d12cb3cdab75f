import { Flags } from '@oclif/core'
import { ClientCommand } from '../../../cli/base-command.js'
import { STATUS_INCIDENT_NOT_FOUND_HINT, statusIncidentArgs } from '../../../cli/flags.js'
import { renderStatusIncident } from '../../../cli/render/status-pages.js'
import { INCIDENT_STATUSES } from '../../../contract/status-pages.js'
import { resolveIncidentTarget } from '../../../cli/short-ids.js'

export default class StatusIncidentsUpdate extends ClientCommand<typeof StatusIncidentsUpdate> {
  static override summary = 'Add an update to an incident, or publish a draft.'
  static override description = `An update (--status and --message) is timestamped and shows first on the public page; subscribers hear of it. --publish makes a draft public.

--json prints the API body (the incident).`

  static override examples = [
    '<%= config.bin %> status-pages incidents update 7c8d9e0f 1a2b3c4d --status identified --message "A bad deploy; rolling back."',
    '<%= config.bin %> status-pages incidents update 7c8d9e0f 1a2b3c4d --publish',
  ]

  static override notFoundHint = STATUS_INCIDENT_NOT_FOUND_HINT
  static override args = statusIncidentArgs

  static override flags = {
    status: Flags.string({ description: 'Where it stands now.', options: [...INCIDENT_STATUSES] }),
    message: Flags.string({ description: 'What changed.' }),
    publish: Flags.boolean({ description: 'Make a draft public.', default: false }),
  }

  async run(): Promise<void> {
    const f = this.flags
    if (!f.publish && (f.status === undefined || f.message === undefined))
      this.error('Give --status and --message (an update), or --publish (a draft).', { exit: 2 })
    const client = await this.client()
    const { page, incident } = await resolveIncidentTarget(client, this.args)
    let result = await this.spin('Updating…', async () => {
      let last = f.publish ? await client.updateStatusIncident(page, incident, { draft: false }) : undefined
      if (f.status !== undefined && f.message !== undefined)
        last = await client.addStatusIncidentUpdate(page, incident, {
          status: f.status as (typeof INCIDENT_STATUSES)[number],
          message: f.message,
        })
      return last!
    })
    result = result ?? (await client.getStatusIncident(page, incident))
    this.emit(result, (view) => renderStatusIncident(view, result))
  }
}
