import { Flags } from '@oclif/core'
import { ClientCommand } from '../../cli/base-command.js'
import { renderMonitorList } from '../../cli/render/monitors.js'

export default class MonitorsList extends ClientCommand<typeof MonitorsList> {
  static override summary = 'List your monitors, newest first.'
  static override description = `Shows one page of monitors (id, name, URL, interval, state, last score, next run) and how to get the next one.

--json prints the API body ({monitors, next_cursor}).`

  static override examples = [
    '<%= config.bin %> monitors list',
    '<%= config.bin %> monitors list --limit 50 --json',
  ]

  static override flags = {
    limit: Flags.option({
      options: ['10', '25', '50'] as const,
      description: 'Page size (server default 10).',
    })(),
    cursor: Flags.string({ description: 'The next_cursor of a previous page.' }),
  }

  async run(): Promise<void> {
    const client = await this.client()
    const page = await this.spin('Loading monitors…', () =>
      client.listMonitors({
        limit: this.flags.limit ? Number(this.flags.limit) : undefined,
        cursor: this.flags.cursor,
      }),
    )
    this.emit(page, (view) => renderMonitorList(view, page, this.config.bin))
  }
}
