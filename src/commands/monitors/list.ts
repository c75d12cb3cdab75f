import { Flags } from '@oclif/core'
import { ClientCommand } from '../../cli/base-command.js'
import { pageFlags, pageOf } from '../../cli/flags.js'
import { renderMonitorList } from '../../cli/render/monitors.js'

export default class MonitorsList extends ClientCommand<typeof MonitorsList> {
  static override summary = 'List your monitors, newest first.'
  static override description = `Shows one page of monitors (id, name, URL, interval, state, last score, next run) and how to get the next one.

--json prints the API body ({monitors, next_cursor}).`

  static override examples = [
    '<%= config.bin %> monitors list',
    '<%= config.bin %> monitors list --limit 50 --json',
    '<%= config.bin %> monitors list --tag env:prod',
    '<%= config.bin %> monitors list --tag team --tag critical',
  ]

  static override flags = {
    ...pageFlags,
    tag: Flags.string({
      description:
        'Only monitors with this tag: env:prod, or a bare env for any value of it. Repeat to narrow (every one must match).',
      multiple: true,
    }),
  }

  async run(): Promise<void> {
    const client = await this.client()
    const page = await this.spin('Loading monitors…', () =>
      client.listMonitors({ ...pageOf(this.flags), tag: this.flags.tag }),
    )
    this.emit(page, (view) => renderMonitorList(view, page, this.config.bin, this.flags.tag))
  }
}
