import { Flags } from '@oclif/core'
import { AdminCommand } from '../../cli/base-command.js'
import { yesFlag } from '../../cli/flags.js'
import { renderCreditGrant } from '../../cli/render/admin.js'

export default class CreditsGrant extends AdminCommand<typeof CreditsGrant> {
  static override summary = 'Admin: add credits to a user.'
  static override description = `Adds --amount credits to the user and shows the new balance.

--user takes a user id, or the email of a dashboard account (as \`keys create --user\` does): the server credits that account's user, and answers "not found" when no account has the email.

A user who has no API key yet is most likely a typo: the command then names the known users and asks before creating a new one; --yes skips the question (required when stdin is not a terminal).

Authenticates with --admin-token or SITEHEALTH_ADMIN_TOKEN; for a server on this machine, the token file in its data dir is read when neither is given.

--json prints the API body ({user_id, credits_remaining}).`

  static override examples = [
    '<%= config.bin %> credits grant --user acme --amount 1000',
    '<%= config.bin %> credits grant --user you@example.com --amount 1000',
    '<%= config.bin %> credits grant --user newcomer --amount 50 --yes',
    '<%= config.bin %> credits grant --user default --amount 50 --api-url https://health.example.com --admin-token "$TOKEN"',
  ]

  static override flags = {
    user: Flags.string({
      description: 'User to credit: a user id, or the email of a dashboard account.',
      required: true,
    }),
    amount: Flags.integer({ description: 'Credits to add (1 or more).', required: true, min: 1 }),
    yes: yesFlag,
  }

  async run(): Promise<void> {
    const { client } = await this.adminClient()
    const { user, amount } = this.flags
    // an email names an existing account (the server resolves it, or answers not found): nothing to confirm
    if (!this.flags.yes && !user.includes('@')) {
      const { keys } = await this.spin('Checking the user…', () => client.listKeys())
      const known = [...new Set(keys.map((k) => k.user_id))].sort()
      if (!known.includes(user)) {
        const list =
          known.length === 0
            ? 'there are no users with keys yet'
            : `known users: ${known.slice(0, 10).join(', ')}${known.length > 10 ? ', …' : ''}`
        await this.confirm(
          `User ${user} has no API key (${list}). Create ${user} with ${amount} credits?`,
          false,
        )
      }
    }
    const result = await this.spin('Granting credits…', () => client.grantCredits(user, amount))
    this.emit(result, (view) => renderCreditGrant(view, result, amount))
  }
}
