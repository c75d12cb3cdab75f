import { AdminCommand } from '../../cli/base-command.js'
import { wideFlag } from '../../cli/flags.js'
import { keyListFooter, renderKeyList } from '../../cli/render/admin.js'

export default class KeysList extends AdminCommand<typeof KeysList> {
  static override summary = 'Admin: list API keys (never their secrets).'
  static override description = `Shows every key: id, name, prefix, user, when it was created and last used, and whether it is revoked.

On a terminal: a table fitted to its width, with short ids (\`keys revoke\` accepts them); --wide shows them whole. Into a pipe: one tab-separated line per key with full ids and ISO times, and the count on stderr.

Authenticates with --admin-token or SITEHEALTH_ADMIN_TOKEN; for a server on this machine, the token file in its data dir is read when neither is given.

--json prints the API body ({keys: [...]}).`

  static override examples = [
    '<%= config.bin %> keys list',
    '<%= config.bin %> keys list --wide',
    '<%= config.bin %> keys list --json',
  ]

  static override flags = { wide: wideFlag }

  async run(): Promise<void> {
    const { client } = await this.adminClient()
    const list = await this.spin('Loading keys…', () => client.listKeys())
    this.emitList(
      list,
      (view) => renderKeyList(view, list, { wide: this.flags.wide }),
      keyListFooter(list, this.config.bin),
      list.keys.length === 0,
    )
  }
}
