import { Args } from '@oclif/core'
import { ClientCommand } from '../../cli/base-command.js'
import { CONFIG_KEYS, FILE_FIELD, parseConfigKey } from '../../cli/config-keys.js'
import { writeConfigFile } from '../../client/config.js'

export default class ConfigUnset extends ClientCommand<typeof ConfigUnset> {
  static override summary = 'Remove a setting from the config file.'
  static override examples = ['<%= config.bin %> config unset api-key']

  static override args = {
    key: Args.string({ description: `Setting: ${CONFIG_KEYS.join(' or ')}.`, required: true }),
  }

  async run(): Promise<void> {
    const key = parseConfigKey(this.args.key)
    const file = await writeConfigFile(this.config.configDir, { [FILE_FIELD[key]]: undefined })
    this.emit({ key, removed_from: file }, () => `Removed ${key} from ${file}.`)
  }
}
