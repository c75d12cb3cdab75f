import { Flags } from '@oclif/core'
import { ClientCommand } from '../../cli/base-command.js'
import { renderStatusPage } from '../../cli/render/status-pages.js'

export default class StatusPagesCreate extends ClientCommand<typeof StatusPagesCreate> {
  static override summary = 'Create a public status page of your monitors.'
  static override description = `Creates a page at <server>/status/<slug> that anyone can read without signing in: each monitor's state, 90 days of daily uptime, maintenance and the incidents of the last 30 days (and <slug>.json). Monitor URLs are shown only with --show-urls.

The slug is 2 to 63 lowercase letters, digits and hyphens, unique on the server. Prints the public URL.

--json prints the API body (the status page).`

  static override examples = [
    '<%= config.bin %> status-pages create --slug acme --title "Acme status" --monitor 0193a5c4-8f2e-7b1a-9c3d-2e4f5a6b7c8d',
    '<%= config.bin %> status-pages create --slug acme --title "Acme status" --monitor ID1 --monitor ID2 --show-urls',
  ]

  static override flags = {
    slug: Flags.string({ description: 'The address: <server>/status/<slug>.', required: true }),
    title: Flags.string({ description: 'The page title.', required: true }),
    monitor: Flags.string({
      description: 'A monitor to show (repeat, or separate with commas), in page order.',
      multiple: true,
      aliases: ['monitors', 'monitor-id', 'monitor-ids'],
    }),
    description: Flags.string({ description: 'A line under the title.' }),
    'show-urls': Flags.boolean({ description: "Show each monitor's URL on the page.", default: false }),
  }

  async run(): Promise<void> {
    const f = this.flags
    const client = await this.client()
    const monitorIds = (f.monitor ?? [])
      .flatMap((m) => m.split(','))
      .map((m) => m.trim())
      .filter(Boolean)
    const page = await this.spin('Creating the status page…', () =>
      client.createStatusPage({
        slug: f.slug,
        title: f.title,
        monitor_ids: monitorIds,
        ...(f.description !== undefined ? { description: f.description } : {}),
        show_urls: f['show-urls'],
      }),
    )
    this.emit(page, (view) => renderStatusPage(view, page))
  }
}
