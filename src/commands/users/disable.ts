import { Args } from '@oclif/core'
import { AdminCommand } from '../../cli/base-command.js'

export default class UsersDisable extends AdminCommand<typeof UsersDisable> {
  static override summary = 'Admin: disable an account (by email or user id).'
  static override description = `A disabled account cannot sign in, its sessions end at once, and its API keys are revoked. Its checks and credits are kept.

--json prints the account as listed.`

  static override examples = ['<%= config.bin %> users disable someone@example.com']
  static override notFoundHint = 'List accounts with `sitehealth users list`.'

  static override args = {
    user: Args.string({ description: 'Email or user id of the account.', required: true }),
  }

  async run(): Promise<void> {
    const { client } = await this.adminClient()
    const user = await this.spin('Disabling…', () => client.disableUser(this.args.user))
    this.emit(user, () => `Disabled ${user.email} (user ${user.user_id}): sessions ended, keys revoked.`)
  }
}
