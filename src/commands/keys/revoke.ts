import { Args } from '@oclif/core'
import { AdminCommand } from '../../cli/base-command.js'
import { yesFlag } from '../../cli/flags.js'
import { renderKeyRevoked } from '../../cli/render/admin.js'
import { resolveKeyId } from '../../cli/short-ids.js'
import { ApiError } from '../../client/client.js'
import { resolveClientSettings } from '../../client/config.js'

export default class KeysRevoke extends AdminCommand<typeof KeysRevoke> {
  static override summary = 'Admin: revoke an API key (asks first; --yes for scripts).'
  static override description = `Revokes the key at once: requests with it then fail with revoked_api_key. Asks for confirmation first, and warns when the key is the one this CLI uses (from SITEHEALTH_API_KEY or the config file); --yes skips the question, and is required when stdin is not a terminal. An unknown id exits 2.

ID is the full id or the short id that \`keys list\` shows.

Authenticates with --admin-token or SITEHEALTH_ADMIN_TOKEN; for a server on this machine, the token file in its data dir is read when neither is given.

--json prints the API body ({id, revoked_at}).`

  static override examples = [
    '<%= config.bin %> keys revoke 5f0c2b9e-3d41-4a8e-9b7a-6c1d2e3f4a5b',
    '<%= config.bin %> keys revoke 6c1d2e3f --yes',
  ]

  static override notFoundHint = '`sitehealth keys list` shows the ids of the keys.'

  static override args = {
    id: Args.string({ description: 'Id of the key (from `keys list`).', required: true, ignoreStdin: true }),
  }

  static override flags = { yes: yesFlag }

  async run(): Promise<void> {
    const { client } = await this.adminClient()
    const { keys } = await this.spin('Loading keys…', () => client.listKeys())
    const id = await resolveKeyId({ listKeys: async () => ({ keys }) }, this.args.id)
    const key = keys.find((k) => k.id === id)
    if (key) {
      if (key.revoked_at) this.terminal.notice(`Key ${key.id} (${key.name}) is already revoked.`)
      const own = await resolveClientSettings(this.config.configDir, {})
      const mine = own.apiKey !== undefined && key.prefix !== '' && own.apiKey.startsWith(key.prefix)
      if (mine)
        this.terminal.notice(
          `Warning: this is the key this CLI uses (${own.apiKeySource === 'env' ? 'SITEHEALTH_API_KEY' : own.configPath}); client commands will fail with it until you save a new one.`,
        )
      await this.confirm(
        `Revoke key ${key.id} (${key.name}, user ${key.user_id}, ${key.prefix}…)?`,
        this.flags.yes,
      )
    } else {
      throw new ApiError(404, 'not_found', `No API key with id ${id}.`)
    }
    const revoked = await this.spin('Revoking the key…', () => client.revokeKey(id))
    this.emit(revoked, (view) => renderKeyRevoked(view, revoked))
  }
}
