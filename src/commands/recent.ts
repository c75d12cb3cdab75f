import { Flags } from '@oclif/core'
import { ClientCommand } from '../cli/base-command.js'
import { pageFlags, wideFlag } from '../cli/flags.js'
import { fetchRecent } from '../cli/recent-pages.js'
import { recentFooter, renderRecent } from '../cli/render/checks.js'

export default class Recent extends ClientCommand<typeof Recent> {
  static override summary = 'List your saved checks, newest first.'
  static override description = `Shows one page of saved checks (id, URL, score, risk, created) and how to get the next one. --all follows next_cursor to the end and shows everything as one list.

On a terminal: a table fitted to its width, with short ids (the last 8 characters; \`get\` accepts them) and URLs cut to fit; --wide shows them whole. Into a pipe: one tab-separated line per check with the full id, URL, score, risk and ISO time, and the count on stderr.

--json prints the API body ({checks, next_cursor}); with --all, one object with every check and next_cursor null.`

  static override examples = [
    '<%= config.bin %> recent',
    '<%= config.bin %> recent --limit 25 --wide',
    '<%= config.bin %> recent --cursor 2025-06-01T12:00:00.000Z',
    '<%= config.bin %> recent | cut -f1,3',
    "<%= config.bin %> recent --all --json | jq '.checks | length'",
  ]

  static override flags = {
    ...pageFlags,
    all: Flags.boolean({ description: 'Follow next_cursor to the last page.', default: false }),
    wide: wideFlag,
  }

  async run(): Promise<void> {
    const limit = this.flags.limit ? Number(this.flags.limit) : undefined
    const client = await this.client()
    const page = await this.spin('Loading saved checks…', () =>
      fetchRecent(client, { limit, cursor: this.flags.cursor, all: this.flags.all }),
    )
    const o = { limit, all: this.flags.all, wide: this.flags.wide }
    this.emitList(
      page,
      (view) => renderRecent(view, page, o),
      recentFooter(page, o, this.config.bin),
      page.checks.length === 0,
    )
  }
}
