import { Args } from '@oclif/core'
import { ClientCommand } from '../cli/base-command.js'
import { renderSavedCheck } from '../cli/render/checks.js'

export default class Get extends ClientCommand<typeof Get> {
  static override summary = 'Show one saved check in full.'
  static override description = `Shows every signal with its status and message, the score, the risk, the summary, the status and when it was created. An id that does not exist, or is not yours, exits 2.

--json prints the saved check exactly as the API returns it.`

  static override examples = [
    '<%= config.bin %> get 0193a5c4-8f2e-7b1a-9c3d-2e4f5a6b7c8d',
    '<%= config.bin %> get 0193a5c4-8f2e-7b1a-9c3d-2e4f5a6b7c8d --json',
  ]

  static override notFoundHint = '`sitehealth recent` lists the ids of your checks.'

  static override args = {
    id: Args.string({
      description: 'Id of the check (from `check` or `recent`).',
      required: true,
      ignoreStdin: true,
    }),
  }

  async run(): Promise<void> {
    const client = await this.client()
    const check = await this.spin('Loading the check…', () => client.getCheck(this.args.id))
    this.emit(check, (style) => renderSavedCheck(style, check))
  }
}
