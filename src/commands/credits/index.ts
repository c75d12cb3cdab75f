import { ClientCommand } from '../../cli/base-command.js'
import { renderCredits } from '../../cli/render/service.js'

export default class Credits extends ClientCommand<typeof Credits> {
  static override summary = 'Show your credit balance.'
  static override description = `Shows the credits left for the user of the API key and how credits are used (1 per successful saved check; failed and invalid checks are free).

--json prints the API body ({credits_remaining, plan, usage_note}).`

  static override examples = ['<%= config.bin %> credits', '<%= config.bin %> credits --json']

  async run(): Promise<void> {
    const client = await this.client()
    const balance = await this.spin('Loading the balance…', () => client.credits())
    this.emit(balance, (view) => renderCredits(view, balance))
  }
}
