import { Flags } from '@oclif/core'
import type { SitehealthClient } from '../../client/client.js'
import { writeConfigFile } from '../../client/config.js'
import { AdminCommand } from '../../cli/base-command.js'
import { UsageError } from '../../cli/errors.js'
import { renderKeyCreated } from '../../cli/render/admin.js'

export default class KeysCreate extends AdminCommand<typeof KeysCreate> {
  static override summary = 'Admin: create an API key and print its secret once.'
  static override description = `Creates a key for --user (default "default"; a new user starts with --credits, else the server's initial credits). The secret is printed once and never again: only its hash is stored.

--credits only sets the starting balance of a NEW user: for a user who already has keys it is refused (exit 2, nothing created); add credits with \`credits grant\`.

--user EMAIL gives the key to that dashboard account (the key then acts as the account: one identity for the CLI and the dashboard).

--save also writes the key and the API URL to the config file (mode 0600), so later commands need neither flag.

Authenticates with --admin-token or SITEHEALTH_ADMIN_TOKEN; for a server on this machine, the token file in its data dir is read when neither is given.

--json prints {id, name, key, prefix, user_id, created_at}.`

  static override examples = [
    '<%= config.bin %> keys create --name laptop --save',
    '<%= config.bin %> keys create --name laptop --user you@example.com --save',
    '<%= config.bin %> keys create --name ci --user acme --credits 500',
    '<%= config.bin %> keys create --name ci --json | jq -r .key',
  ]

  static override flags = {
    name: Flags.string({ description: 'A name to recognise the key by.', required: true }),
    user: Flags.string({
      description:
        'User the key belongs to: a user id, or the email of a dashboard account (its key then acts as that account); default "default".',
    }),
    credits: Flags.integer({
      description: 'Starting credits if the user is new (refused for an existing user).',
      min: 0,
    }),
    save: Flags.boolean({ description: 'Save the key and the API URL to the config file.', default: false }),
  }

  async run(): Promise<void> {
    const { client, settings } = await this.adminClient()
    const { name, credits } = this.flags
    const byEmail = this.flags.user?.includes('@')
    const user = byEmail ? await this.accountUser(client, this.flags.user!) : this.flags.user
    if (byEmail && credits !== undefined)
      throw new UsageError(
        `The account ${this.flags.user} exists already, so --credits would be ignored. Add credits with \`${this.config.bin} credits grant --user ${user} --amount ${credits}\`, and drop --credits. Nothing was created.`,
      )
    if (credits !== undefined) {
      const who = user ?? 'default'
      const { keys } = await this.spin('Checking the user…', () => client.listKeys())
      if (keys.some((k) => k.user_id === who))
        throw new UsageError(
          `User ${who} already exists, so --credits would be ignored (it only sets a new user's starting balance). Add credits with \`${this.config.bin} credits grant --user ${who} --amount ${credits}\`, and drop --credits. Nothing was created.`,
        )
    }
    const key = await this.spin('Creating the key…', () => client.createKey({ name, user, credits }))
    const savedTo = this.flags.save
      ? await writeConfigFile(this.config.configDir, { api_key: key.key, api_url: settings.apiUrl })
      : undefined
    this.emit(key, (view) => renderKeyCreated(view, key, savedTo))
    if (savedTo && this.json) this.terminal.notice(`Saved the key and the API URL to ${savedTo}.`)
  }

  /** A dashboard account's user id by its email, so the key and the account are one identity. */
  private async accountUser(client: SitehealthClient, email: string): Promise<string> {
    const { users } = await this.spin('Finding the account…', () => client.listUsers())
    const wanted = email.trim().toLowerCase()
    const account = users.find((u) => u.email.toLowerCase() === wanted)
    if (!account)
      throw new UsageError(
        `No dashboard account has the email ${email}: create it with \`${this.config.bin} users create --email ${email}\`, or give a user id. Nothing was created.`,
      )
    return account.user_id
  }
}
