import { Flags } from '@oclif/core'
import { AdminCommand } from '../../cli/base-command.js'

export default class UsersInvite extends AdminCommand<typeof UsersInvite> {
  static override summary = 'Admin: make a one-time invite link to create a dashboard account.'
  static override description = `The link works once, for 7 days, whatever the server's --signup policy. With --email only that address can use it.

--json prints {invite_url, expires_at}.`

  static override examples = [
    '<%= config.bin %> users invite --email new@example.com',
    '<%= config.bin %> users invite --credits 50',
  ]

  static override flags = {
    email: Flags.string({ description: 'Only this address may use the invite.' }),
    admin: Flags.boolean({ description: 'The new account is an administrator.', default: false }),
    credits: Flags.integer({
      description: "Starting credits (default: the server's initial credits).",
      min: 0,
    }),
  }

  async run(): Promise<void> {
    const { client } = await this.adminClient()
    const { email, admin, credits } = this.flags
    const invite = await this.spin('Creating the invite…', () =>
      client.createInvite({ email, admin, credits }),
    )
    this.emit(
      invite,
      () => `Invite link (valid until ${invite.expires_at}, works once):\n${invite.invite_url}`,
    )
  }
}
