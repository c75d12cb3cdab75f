import { Flags } from '@oclif/core'
import { ClientCommand } from '../../../cli/base-command.js'
import { STATUS_PAGE_NOT_FOUND_HINT, statusPageIdArgs } from '../../../cli/flags.js'
import { renderStatusIncident } from '../../../cli/render/status-pages.js'
import { resolveStatusPageId } from '../../../cli/short-ids.js'
import { INCIDENT_IMPACTS, INCIDENT_STATUSES } from '../../../contract/status-pages.js'

export default class StatusIncidentsCreate extends ClientCommand<typeof StatusIncidentsCreate> {
  static override summary = 'Post an incident on a status page.'
  static override description = `The incident shows at the top of the public page with its first update (--status, --message) until it is resolved, and its subscribers hear of it. With --draft only you see it until \`status-pages incidents update PAGE INCIDENT --publish\`.

--json prints the API body (the incident).`

  static override examples = [
    '<%= config.bin %> status-pages incidents create 7c8d9e0f --title "Checkout errors" --message "Some payments fail; we are looking into it." --impact major',
  ]

  static override notFoundHint = STATUS_PAGE_NOT_FOUND_HINT
  static override args = { page: statusPageIdArgs.id }

  static override flags = {
    title: Flags.string({ description: 'What is wrong, in a few words.', required: true }),
    message: Flags.string({ description: 'The first update: what you know so far.', required: true }),
    status: Flags.string({
      description: 'Where it stands.',
      options: [...INCIDENT_STATUSES],
      default: 'investigating',
    }),
    impact: Flags.string({ description: 'How bad it is.', options: [...INCIDENT_IMPACTS], default: 'minor' }),
    monitor: Flags.string({
      description: 'A monitor of the page it affects (repeat, or separate with commas).',
      multiple: true,
    }),
    draft: Flags.boolean({ description: 'Keep it to yourself until published.', default: false }),
  }

  async run(): Promise<void> {
    const f = this.flags
    const client = await this.client()
    const page = await resolveStatusPageId(client, this.args.page)
    const incident = await this.spin('Posting the incident…', () =>
      client.createStatusIncident(page, {
        title: f.title,
        message: f.message,
        status: f.status as (typeof INCIDENT_STATUSES)[number],
        impact: f.impact as (typeof INCIDENT_IMPACTS)[number],
        monitor_ids: (f.monitor ?? [])
          .flatMap((m) => m.split(','))
          .map((m) => m.trim())
          .filter(Boolean),
        draft: f.draft,
      }),
    )
    this.emit(incident, (view) => renderStatusIncident(view, incident))
  }
}
