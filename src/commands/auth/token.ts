import { ClientCommand, sourceLabel } from '../../cli/base-command.js'
import { ApiError } from '../../client/client.js'

export default class AuthToken extends ClientCommand<typeof AuthToken> {
  static override summary = 'Print the API key this CLI uses, for scripts.'
  static override description = `Prints the API key that client commands would use (flag, then SITEHEALTH_API_KEY, then the config file) and nothing else, like \`gh auth token\`. Exit 4 when none is configured. The key is a secret: do not paste the output anywhere public.`

  static override examples = [
    'curl -H "Authorization: Bearer $(<%= config.bin %> auth token)" "$(<%= config.bin %> config get api-url)/api/public/v1/credits"',
  ]

  async run(): Promise<void> {
    const settings = await this.settings({ apiUrl: this.flags['api-url'], apiKey: this.flags['api-key'] })
    if (!settings.apiKey)
      throw new ApiError(
        0,
        'no_api_key',
        `No API key: sign in with \`${this.config.bin} login\`, or set one with \`${this.config.bin} config set api-key KEY\`, SITEHEALTH_API_KEY or --api-key.`,
      )
    if (this.json)
      return this.terminal.json({
        key: settings.apiKey,
        source: sourceLabel(settings.apiKeySource, 'key', settings.configPath),
      })
    this.terminal.out(settings.apiKey)
  }
}
