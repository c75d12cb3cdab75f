import { Args } from '@oclif/core'
import { ClientCommand } from '../../cli/base-command.js'
import { CONFIG_KEYS, FILE_FIELD, displayConfigValue, parseConfigKey } from '../../cli/config-keys.js'
import { configPath, readConfigFile } from '../../client/config.js'

export default class ConfigGet extends ClientCommand<typeof ConfigGet> {
  static override summary = 'Print one setting of the config file (an API key only as its prefix).'
  static override description = `Prints the value saved in the config file, or nothing and exit 1 when it is not set. An API key is shown as its prefix; \`auth token\` prints the whole key for scripts. \`auth status\` shows what is actually used once flags and environment variables are counted.

Settings: ${CONFIG_KEYS.join(', ')}.`

  static override examples = ['<%= config.bin %> config get api-url']

  static override args = {
    key: Args.string({ description: `Setting: ${CONFIG_KEYS.join(' or ')}.`, required: true }),
  }

  async run(): Promise<void> {
    const key = parseConfigKey(this.args.key)
    const value = displayConfigValue(key, (await readConfigFile(this.config.configDir))[FILE_FIELD[key]])
    if (this.json) this.terminal.json({ key, value: value ?? null, path: configPath(this.config.configDir) })
    else if (value !== undefined) this.terminal.out(value)
    else this.terminal.notice(`${key} is not set in ${configPath(this.config.configDir)}.`)
    if (value === undefined) return this.exit(1)
  }
}
