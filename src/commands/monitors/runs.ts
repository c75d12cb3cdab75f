import { Args, Flags } from '@oclif/core'
import { ClientCommand } from '../../cli/base-command.js'
import { renderRuns } from '../../cli/render/monitors.js'

export default class MonitorsRuns extends ClientCommand<typeof MonitorsRuns> {
  static override summary = 'Show the runs of a monitor, newest first.'
  static override description = `Each run: when it started, saved or failed, the state after it, score, response time, check id or error.

--json prints the API body ({runs, next_cursor}).`

  static override examples = ['<%= config.bin %> monitors runs 0193a5c4-8f2e-7b1a-9c3d-2e4f5a6b7c8d']

  static override notFoundHint = '`sitehealth monitors list` lists the ids of your monitors.'

  static override args = {
    id: Args.string({
      description: 'Id of the monitor (from `monitors list`).',
      required: true,
      ignoreStdin: true,
    }),
  }

  static override flags = {
    limit: Flags.option({
      options: ['10', '25', '50'] as const,
      description: 'Page size (server default 10).',
    })(),
    cursor: Flags.string({ description: 'The next_cursor of a previous page.' }),
  }

  async run(): Promise<void> {
    const client = await this.client()
    const limit = this.flags.limit ? Number(this.flags.limit) : undefined
    const page = await this.spin('Loading runs…', () =>
      client.monitorRuns(this.args.id, { limit, cursor: this.flags.cursor }),
    )
    this.emit(page, (view) => renderRuns(view, page, this.args.id, this.config.bin))
  }
}
