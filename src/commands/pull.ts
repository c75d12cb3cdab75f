import { writeFile } from 'node:fs/promises'
import { Flags } from '@oclif/core'
import { fetchCurrent, pullFile } from '../as-code/index.js'
import { ClientCommand } from '../cli/base-command.js'

export default class Pull extends ClientCommand<typeof Pull> {
  static override summary = 'Write the account as a sitehealth.yaml that deploy turns into "No changes".'
  static override description = `Writes the account's monitors that have a ref, their alert channels (by name) and its status pages as a monitors-as-code file: on stdout, or to --file.

Secrets are never written: a channel deployed from a file comes back as that file wrote it (a literal, or \${VAR} — never the variable's value); a channel made another way gets a \${SITEHEALTH_<NAME>_URL} placeholder to set, listed at the top. Monitors without a ref are left out (give them one with PATCH or \`monitors create --ref\`).`

  static override examples = [
    '<%= config.bin %> pull > sitehealth.yaml',
    '<%= config.bin %> pull --file sitehealth.yaml',
  ]

  static override flags = {
    file: Flags.string({ char: 'f', description: 'Write to this file instead of stdout.' }),
  }

  async run(): Promise<void> {
    const client = await this.client()
    const current = await this.spin('Reading the account…', () => fetchCurrent(client))
    const pulled = pullFile(current, client.baseUrl)
    if (pulled.skipped.monitors > 0)
      this.terminal.notice(`Left out ${pulled.skipped.monitors} monitor(s) without a ref.`)
    if (pulled.skipped.status_pages > 0)
      this.terminal.notice(
        `Left out ${pulled.skipped.status_pages} status page(s) showing monitors without a ref.`,
      )
    if (pulled.skipped.maintenance > 0)
      this.terminal.notice(
        `Left out ${pulled.skipped.maintenance} maintenance window(s) of monitors without a ref.`,
      )
    if (pulled.variables.length > 0)
      this.terminal.notice(`Set before deploying: ${pulled.variables.join(', ')}`)
    if (this.flags.file) {
      await writeFile(this.flags.file, pulled.text)
      if (this.json)
        this.terminal.json({ file: this.flags.file, variables: pulled.variables, skipped: pulled.skipped })
      else this.terminal.notice(`Wrote ${this.flags.file}.`)
    } else process.stdout.write(pulled.text)
  }
}
