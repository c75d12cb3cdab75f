import { hostname } from 'node:os'
import { Flags } from '@oclif/core'
import { ClientCommand } from '../cli/base-command.js'
import { ApiError } from '../client/client.js'
import { readConfigFile, writeConfigFile } from '../client/config.js'
import { displayPrefix } from '../contract/index.js'

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

export default class Login extends ClientCommand<typeof Login> {
  static override summary = 'Sign this machine in: approve a new API key in the dashboard and save it.'
  static override description = `Like \`gh auth login\` (the OAuth 2.0 device authorization grant, RFC 8628): prints a URL and a one-time code, opens the browser when it can, and waits while you approve the key in the dashboard (signed in). The new key, named after this machine, and the API URL are then saved to the config file (mode 0600), so later commands need neither flag.

A denied or expired request ends with exit 4. \`sitehealth logout\` revokes the key and forgets it.

A key saved before is replaced, and login says which (its prefix and URL) before and after; it stays valid until revoked.

--json prints {id, name, prefix, user_id, created_at, saved_to, replaced} (never the secret; replaced is {key_prefix, api_url} or null).`

  static override examples = [
    '<%= config.bin %> login',
    '<%= config.bin %> login --api-url https://health.example.com',
    '<%= config.bin %> login --name "build server" --no-browser',
  ]

  static override flags = {
    name: Flags.string({ description: 'Name of the new key (default: "sitehealth CLI on <hostname>").' }),
    browser: Flags.boolean({
      description: 'Open the approval page in a browser (default on a terminal).',
      allowNo: true,
    }),
  }

  async run(): Promise<void> {
    const settings = await this.settings({ apiUrl: this.flags['api-url'] })
    const client = await this.client()
    const name = this.flags.name ?? `sitehealth CLI on ${hostname()}`
    const saved = await readConfigFile(this.config.configDir)
    if (saved.api_key)
      this.terminal.notice(
        `The config file holds a key already: approving this login replaces the saved key ${displayPrefix(saved.api_key)}…${saved.api_url ? ` (for ${saved.api_url})` : ''}; Ctrl-C keeps it.`,
      )
    this.interruptible(
      `nothing was saved here. A key approved in the dashboard after this is not saved either: revoke it on the Keys page.`,
    )
    const grant = await this.spin('Asking for a code…', () => client.deviceCode(name))
    const say = (line: string) => (this.json ? this.terminal.notice(line) : this.terminal.out(line))
    // one write: a reader of the output sees the code and the URL together
    say(
      `First copy your one-time code: ${grant.user_code}\nThen open ${grant.verification_uri} and approve the key "${name}".`,
    )
    if (this.flags.browser !== false && process.stdout.isTTY && !process.env.CI) {
      try {
        const { default: open } = await import('open')
        const child = await open(grant.verification_uri_complete)
        child.on('error', () => {})
      } catch {
        // no browser here: the URL above is enough
      }
    }
    let interval = Math.max(1, grant.interval) * 1000
    const deadline = Date.now() + grant.expires_in * 1000
    const key = await this.spin('Waiting for approval in the browser…', async () => {
      for (;;) {
        await sleep(interval)
        try {
          return await client.deviceToken(grant.device_code)
        } catch (err) {
          if (!(err instanceof ApiError)) throw err
          if (err.code === 'authorization_pending' && Date.now() < deadline) continue
          if (err.code === 'slow_down') {
            interval += 5000 // RFC 8628 §3.5
            continue
          }
          if (err.code === 'access_denied')
            throw new ApiError(
              401,
              err.code,
              'The login was denied in the dashboard: no key was made.',
              err.requestId,
            )
          if (err.code === 'expired_token' || err.code === 'authorization_pending')
            throw new ApiError(
              401,
              'expired_token',
              'The code expired before it was approved: run `sitehealth login` again.',
              err.requestId,
            )
          throw err
        }
      }
    })
    const before = await readConfigFile(this.config.configDir)
    const savedTo = await writeConfigFile(this.config.configDir, {
      api_key: key.key,
      api_url: settings.apiUrl,
    })
    // never silently: the key that was saved may belong to another account or server
    const replaced =
      before.api_key && before.api_key !== key.key
        ? { key_prefix: `${displayPrefix(before.api_key)}…`, api_url: before.api_url ?? null }
        : null
    const { key: _secret, ...shown } = key
    this.emit({ ...shown, saved_to: savedTo, replaced }, ({ style }) =>
      [
        `${style.green('Logged in')}: key "${key.name}" (${key.prefix}…) and ${settings.apiUrl} saved to ${savedTo}.`,
        ...(replaced
          ? [
              `It replaces the saved key ${replaced.key_prefix}${replaced.api_url ? ` (for ${replaced.api_url})` : ''}, which still works until it is revoked (on the Keys page of its dashboard).`,
            ]
          : []),
      ].join('\n'),
    )
    if (replaced && this.json)
      this.terminal.notice(`Replaced the saved key ${replaced.key_prefix} in ${savedTo}.`)
  }
}
