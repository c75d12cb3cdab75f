import { ClientCommand } from '../../cli/base-command.js'
import { CONFIG_KEYS, FILE_FIELD, displayConfigValue } from '../../cli/config-keys.js'
import { renderTable } from '../../cli/render/table.js'
import { configPath, readConfigFile } from '../../client/config.js'

export default class ConfigList extends ClientCommand<typeof ConfigList> {
  static override summary = 'List the settings of the config file.'
  static override description = `Shows each setting saved in the config file (an API key only as its prefix) and where the file is. \`auth status\` shows what is actually used once flags and environment variables are counted.`

  static override examples = ['<%= config.bin %> config list', '<%= config.bin %> config list --json']

  async run(): Promise<void> {
    const file = await readConfigFile(this.config.configDir)
    const path = configPath(this.config.configDir)
    const values = Object.fromEntries(
      CONFIG_KEYS.map((k) => [k, displayConfigValue(k, file[FILE_FIELD[k]]) ?? null]),
    )
    if (this.json) return this.terminal.json({ path, values })
    const { view } = this.terminal
    this.terminal.out(
      renderTable(
        view,
        [{ header: 'setting' }, { header: 'value', shrink: true }],
        CONFIG_KEYS.map((k) => [k, values[k] ?? (view.tty ? '(not set)' : '')]),
      ),
    )
    if (view.tty) this.terminal.out(`Config file: ${path}`)
    else this.terminal.notice(`Config file: ${path}`)
  }
}
