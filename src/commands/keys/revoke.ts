import { Args } from '@oclif/core'
import { AdminCommand } from '../../cli/base-command.js'
import { renderKeyRevoked } from '../../cli/render/admin.js'

export default class KeysRevoke extends AdminCommand<typeof KeysRevoke> {
  static override summary = 'Admin: revoke an API key.'
  static override description = `Revokes the key at once: requests with it then fail with revoked_api_key. An unknown id exits 2.

Authenticates with --admin-token or SITEHEALTH_ADMIN_TOKEN; for a server on this machine, the token file in its data dir is read when neither is given.

--json prints the API body ({id, revoked_at}).`

  static override examples = ['<%= config.bin %> keys revoke 5f0c2b9e-3d41-4a8e-9b7a-6c1d2e3f4a5b']

  static override notFoundHint = '`sitehealth keys list` shows the ids of the keys.'

  static override args = {
    id: Args.string({ description: 'Id of the key (from `keys list`).', required: true, ignoreStdin: true }),
  }

  async run(): Promise<void> {
    const { client } = await this.adminClient()
    const revoked = await this.spin('Revoking the key…', () => client.revokeKey(this.args.id))
    this.emit(revoked, (style) => renderKeyRevoked(style, revoked))
  }
}
