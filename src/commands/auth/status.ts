import { ClientCommand, sourceLabel } from '../../cli/base-command.js'
import { describeFailure } from '../../cli/exit-codes.js'
import { fields } from '../../cli/render/format.js'
import { ApiError, SitehealthClient } from '../../client/client.js'
import { displayPrefix } from '../../contract/index.js'

export default class AuthStatus extends ClientCommand<typeof AuthStatus> {
  static override summary =
    'Show which API URL and key this CLI uses, where each comes from, and whether the key works.'
  static override description = `Resolves the API URL and key as every client command does (flag, then environment, then the config file, then the default), names where each came from, and asks the API whether the key is accepted (a credits call, which costs nothing). Exit 0 when it is, 4 when there is no key or it is refused, 1 when the API cannot be reached.

--json prints {api_url, api_url_source, key_prefix, api_key_source, config_path, authenticated, credits_remaining, error}.`

  static override examples = [
    '<%= config.bin %> auth status',
    'SITEHEALTH_API_KEY=shk_live_... <%= config.bin %> auth status --json',
  ]

  async run(): Promise<void> {
    const settings = await this.settings({ apiUrl: this.flags['api-url'], apiKey: this.flags['api-key'] })
    const prefix = settings.apiKey ? `${displayPrefix(settings.apiKey)}…` : null
    let credits: number | null = null
    let failure: ReturnType<typeof describeFailure> | undefined
    let error: ApiError | undefined
    if (settings.apiKey) {
      this.failureContext.apiKeyFrom = sourceLabel(settings.apiKeySource, 'key', settings.configPath)
      const client = new SitehealthClient({
        baseUrl: settings.apiUrl,
        apiKey: settings.apiKey,
        timeoutMs: this.timeoutMs,
      })
      try {
        credits = (await this.spin(`Asking ${client.baseUrl}…`, () => client.credits())).credits_remaining
      } catch (err) {
        if (!(err instanceof ApiError)) throw err
        error = err
      }
    } else {
      error = new ApiError(0, 'no_api_key', 'No API key is configured.')
    }
    if (error) failure = describeFailure(error, { ...this.failureContext, bin: this.config.bin })
    const from = (s: typeof settings.apiUrlSource, what: 'url' | 'key') =>
      s === 'none' ? 'not set' : sourceLabel(s, what, settings.configPath)
    const body = {
      api_url: settings.apiUrl,
      api_url_source: settings.apiUrlSource,
      key_prefix: prefix,
      api_key_source: settings.apiKeySource,
      config_path: settings.configPath,
      authenticated: error === undefined,
      credits_remaining: credits,
      error: failure ? failure.envelope.error : null,
    }
    this.emit(body, (view) =>
      [
        ...fields(
          view,
          [
            [
              'API URL',
              `${settings.apiUrl}  ${view.style.dim(`(from ${from(settings.apiUrlSource, 'url')})`)}`,
            ],
            [
              'API key',
              prefix
                ? `${prefix}  ${view.style.dim(`(from ${from(settings.apiKeySource, 'key')})`)}`
                : 'none',
            ],
            [
              'status',
              error
                ? view.style.red(failure!.line.replace(/^Error: /, ''))
                : view.style.green(`key accepted; ${credits} credit${credits === 1 ? '' : 's'} remaining`),
            ],
          ],
          '',
        ),
        ...(settings.apiKey
          ? []
          : [
              '',
              `Sign in with \`${this.config.bin} login\` (approve a key in the dashboard; it is saved with the URL), or set a key with \`${this.config.bin} config set api-key KEY\`, SITEHEALTH_API_KEY or --api-key.`,
            ]),
      ].join('\n'),
    )
    if (failure) return this.exit(failure.exitCode)
  }
}
