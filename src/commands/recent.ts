import { Flags } from '@oclif/core'
import { ClientCommand } from '../cli/base-command.js'
import { fetchRecent } from '../cli/recent-pages.js'
import { renderRecent } from '../cli/render/checks.js'

export default class Recent extends ClientCommand<typeof Recent> {
  static override summary = 'List your saved checks, newest first.'
  static override description = `Shows one page of saved checks (id, URL, score, risk, created) and how to get the next one. --all follows next_cursor to the end and shows everything as one list.

--json prints the API body ({checks, next_cursor}); with --all, one object with every check and next_cursor null.`

  static override examples = [
    '<%= config.bin %> recent',
    '<%= config.bin %> recent --limit 25',
    '<%= config.bin %> recent --cursor 2025-06-01T12:00:00.000Z',
    "<%= config.bin %> recent --all --json | jq '.checks | length'",
  ]

  static override flags = {
    limit: Flags.option({
      options: ['10', '25', '50'] as const,
      description: 'Page size (server default 10).',
    })(),
    cursor: Flags.string({ description: 'Start after this position: the next_cursor of a previous page.' }),
    all: Flags.boolean({ description: 'Follow next_cursor to the last page.', default: false }),
  }

  async run(): Promise<void> {
    const limit = this.flags.limit ? Number(this.flags.limit) : undefined
    const client = await this.client()
    const page = await this.spin('Loading saved checks…', () =>
      fetchRecent(client, { limit, cursor: this.flags.cursor, all: this.flags.all }),
    )
    this.emit(page, (style) => renderRecent(style, page, { limit, all: this.flags.all }, this.config.bin))
  }
}
