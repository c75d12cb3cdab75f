import { Command, Flags } from '@oclif/core'
import { fishCompletion } from '../../cli/fish-completion.js'

export default class AutocompleteFish extends Command {
  static override summary = 'Shell completion for fish (bash, zsh and PowerShell: `autocomplete SHELL`).'
  static override description = `Prints how to install fish completions; --script prints the completion script itself. Generated from the command list, so it is always in step with this version.`

  static override examples = [
    '<%= config.bin %> autocomplete fish',
    '<%= config.bin %> autocomplete fish --script > ~/.config/fish/completions/<%= config.bin %>.fish',
  ]

  static override flags = {
    script: Flags.boolean({ description: 'Print the completion script.', default: false }),
  }

  async run(): Promise<void> {
    const { flags } = await this.parse(AutocompleteFish)
    const bin = this.config.bin
    if (flags.script) {
      process.stdout.write(fishCompletion(bin, this.config.commands, this.config.topics))
      return
    }
    process.stdout.write(
      [
        'Setup instructions for fish completion:',
        '',
        `  ${bin} autocomplete fish --script > ~/.config/fish/completions/${bin}.fish`,
        '',
        `Then open a new fish shell and type \`${bin} <TAB>\`. Run it again after upgrading ${bin}.`,
        '',
      ].join('\n'),
    )
  }
}
