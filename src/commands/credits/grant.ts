import { Flags } from '@oclif/core'
import { AdminCommand } from '../../cli/base-command.js'
import { renderCreditGrant } from '../../cli/render/admin.js'

export default class CreditsGrant extends AdminCommand<typeof CreditsGrant> {
  static override summary = 'Admin: add credits to a user.'
  static override description = `Adds --amount credits to the user (created with 0 credits first if new) and shows the new balance.

Authenticates with --admin-token or SITEHEALTH_ADMIN_TOKEN; for a server on this machine, the token file in its data dir is read when neither is given.

--json prints the API body ({user_id, credits_remaining}).`

  static override examples = [
    '<%= config.bin %> credits grant --user acme --amount 1000',
    '<%= config.bin %> credits grant --user default --amount 50 --api-url https://health.example.com --admin-token "$TOKEN"',
  ]

  static override flags = {
    user: Flags.string({ description: 'User id to credit.', required: true }),
    amount: Flags.integer({ description: 'Credits to add (1 or more).', required: true, min: 1 }),
  }

  async run(): Promise<void> {
    const { client } = await this.adminClient()
    const result = await this.spin('Granting credits…', () =>
      client.grantCredits(this.flags.user, this.flags.amount),
    )
    this.emit(result, (style) => renderCreditGrant(style, result, this.flags.amount))
  }
}
