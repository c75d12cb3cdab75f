import { Flags } from '@oclif/core'
import { AdminCommand } from '../../cli/base-command.js'

export default class UsersCreate extends AdminCommand<typeof UsersCreate> {
  static override summary = 'Admin: create a dashboard account and print its one-time set-password link.'
  static override description = `Creates an account (a user of the API like any other: it owns credits, keys, checks and monitors) and prints a link, valid once for 7 days, where its owner sets a password and signs in. The first administrator of a new server is made this way, on the server's machine (the admin token is read from its data dir).

--json prints {user_id, email, admin, disabled_at, created_at, credits_remaining, password_set, setup_url}.`

  static override examples = [
    '<%= config.bin %> users create --email me@example.com --admin',
    '<%= config.bin %> users create --email client@example.com --credits 500',
  ]

  static override flags = {
    email: Flags.string({ description: 'Email address to sign in with.', required: true }),
    admin: Flags.boolean({ description: 'Make the account an administrator.', default: false }),
    credits: Flags.integer({
      description: "Starting credits (default: the server's initial credits).",
      min: 0,
    }),
  }

  async run(): Promise<void> {
    const { client } = await this.adminClient()
    const { email, admin, credits } = this.flags
    const user = await this.spin('Creating the account…', () => client.createUser({ email, admin, credits }))
    this.emit(user, ({ style }) =>
      [
        `${style.green('Created')} ${user.admin ? 'administrator' : 'account'} ${style.bold(user.email)} (user ${user.user_id}, ${user.credits_remaining} credits).`,
        'Send this one-time link to its owner to set a password (valid 7 days):',
        user.setup_url,
      ].join('\n'),
    )
  }
}
