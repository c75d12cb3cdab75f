import { Args, Flags } from '@oclif/core'
import { ClientCommand } from '../../cli/base-command.js'
import { CONFIG_KEYS, FILE_FIELD, normaliseConfigValue, parseConfigKey } from '../../cli/config-keys.js'
import { probeSitehealthApi } from '../../cli/probe-api.js'
import { SitehealthClient } from '../../client/client.js'
import { resolveClientSettings, writeConfigFile } from '../../client/config.js'

export default class ConfigSet extends ClientCommand<typeof ConfigSet> {
  static override summary = 'Save the API URL or API key in the config file (checked first).'
  static override description = `Writes one setting to the config file (mode 0600), after checking it: an API key must be well-formed and accepted by the API (a credits call, which costs nothing); an API URL must answer as a sitehealth API. The health route is asked first, without credentials, and a key (the one given or saved) is sent only to a server that answered it as sitehealth does. Nothing is written when the check fails; --no-check skips it (offline set-up).

Settings: ${CONFIG_KEYS.join(', ')}. Flags and environment variables still win over the file.`

  static override examples = [
    '<%= config.bin %> config set api-url https://health.example.com',
    '<%= config.bin %> config set api-key shk_live_...',
    'echo "$KEY" | <%= config.bin %> config set api-key -',
  ]

  static override args = {
    key: Args.string({ description: `Setting: ${CONFIG_KEYS.join(' or ')}.`, required: true }),
    value: Args.string({
      description: 'Its value ("-" reads it from stdin, so it stays out of shell history).',
      required: true,
      ignoreStdin: true,
    }),
  }

  static override flags = {
    check: Flags.boolean({
      description: 'Check the value against the API before saving (--no-check: save as given).',
      allowNo: true,
    }),
  }

  async run(): Promise<void> {
    const key = parseConfigKey(this.args.key)
    const raw = this.args.value === '-' ? await readStdin() : this.args.value
    const value = normaliseConfigValue(key, raw)
    const check = this.flags.check !== false
    if (check) {
      // the pair that later commands will use: the new value with the other one as resolved now
      const now = await resolveClientSettings(this.config.configDir, {
        apiUrl: this.flags['api-url'],
        apiKey: this.flags['api-key'],
      })
      const apiUrl = key === 'api-url' ? value : now.apiUrl
      const apiKey = key === 'api-key' ? value : now.apiKey
      this.failureContext.apiUrl = apiUrl
      const client = new SitehealthClient({ baseUrl: apiUrl, apiKey, timeoutMs: this.timeoutMs })
      await this.spin(`Checking with ${apiUrl}…`, async () => {
        // without credentials first: the key goes only to a server that answers as sitehealth
        await probeSitehealthApi(apiUrl, this.timeoutMs)
        if (apiKey) await client.credits()
      })
    }
    const file = await writeConfigFile(this.config.configDir, { [FILE_FIELD[key]]: value })
    const body = { key, saved_to: file, checked: check }
    this.emit(body, () => `Saved ${key} to ${file}${check ? ' (checked with the API)' : ''}.`)
  }
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk))
  return Buffer.concat(chunks).toString('utf8').trim()
}
