import { ClientCommand } from '../cli/base-command.js'
import { ApiError } from '../client/client.js'
import { readConfigFile, writeConfigFile } from '../client/config.js'

export default class Logout extends ClientCommand<typeof Logout> {
  static override summary = 'Revoke the saved API key and remove it from the config file.'
  static override description = `The undo of \`sitehealth login\`: revokes the key on the server (the key revokes itself; no admin needed) and deletes it from the config file. A key that is already revoked or unknown is still forgotten.

--json prints {id, revoked_at, forgotten}.`

  static override examples = ['<%= config.bin %> logout']

  async run(): Promise<void> {
    const file = await readConfigFile(this.config.configDir)
    const client = await this.client()
    let revoked: { id: string | null; revoked_at: string | null } = { id: null, revoked_at: null }
    try {
      revoked = await this.spin('Revoking the key…', () => client.revokeOwnKey())
    } catch (err) {
      // nothing left to revoke: still forget it
      if (
        !(err instanceof ApiError) ||
        !['invalid_api_key', 'revoked_api_key', 'no_api_key'].includes(err.code)
      )
        throw err
    }
    const forgotten = Boolean(file.api_key)
    if (forgotten) await writeConfigFile(this.config.configDir, { api_key: undefined })
    this.emit({ ...revoked, forgotten }, () =>
      [
        revoked.id ? `Revoked the key ${revoked.id}.` : 'No valid key to revoke.',
        forgotten ? 'Removed it from the config file.' : 'The config file held no key.',
      ].join(' '),
    )
  }
}
