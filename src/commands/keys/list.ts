import { AdminCommand } from '../../cli/base-command.js'
import { renderKeyList } from '../../cli/render/admin.js'

export default class KeysList extends AdminCommand<typeof KeysList> {
  static override summary = 'Admin: list API keys (never their secrets).'
  static override description = `Shows every key: id, name, prefix, user, when it was created and last used, and whether it is revoked.

Authenticates with --admin-token or SITEHEALTH_ADMIN_TOKEN; for a server on this machine, the token file in its data dir is read when neither is given.

--json prints the API body ({keys: [...]}).`

  static override examples = ['<%= config.bin %> keys list', '<%= config.bin %> keys list --json']

  async run(): Promise<void> {
    const { client } = await this.adminClient()
    const list = await this.spin('Loading keys…', () => client.listKeys())
    this.emit(list, (style) => renderKeyList(style, list))
  }
}
