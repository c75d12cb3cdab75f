import { Args } from '@oclif/core'
import { ClientCommand } from '../cli/base-command.js'
import { renderSavedCheck } from '../cli/render/checks.js'
import { resolveCheckId } from '../cli/short-ids.js'

export default class Get extends ClientCommand<typeof Get> {
  static override summary = 'Show one saved check in full, with what was measured.'
  static override description = `Shows every signal with its status and message and, under it, what was measured: the answer (HTTP status, version, redirects), the certificate (expiry, issuer) and TLS version, the timing breakdown (DNS, connect, TLS, server, first byte, total), the security headers present, missing and weak, and the page's size and compression. Then the score, the risk, the summary, the id and when it was created.

ID is the full id, or the short id that \`recent\` shows (the last characters of the id), looked up among your newest checks. An id that does not exist, or is not yours, exits 2.

--json prints the saved check exactly as the API returns it.`

  static override examples = [
    '<%= config.bin %> get 0193a5c4-8f2e-7b1a-9c3d-2e4f5a6b7c8d',
    '<%= config.bin %> get 4f5a6b7c',
    '<%= config.bin %> get 0193a5c4-8f2e-7b1a-9c3d-2e4f5a6b7c8d --json',
  ]

  static override notFoundHint = '`sitehealth recent` lists the ids of your checks.'

  static override args = {
    id: Args.string({
      description: 'Id of the check (from `check` or `recent`; the short id works too).',
      required: true,
      ignoreStdin: true,
    }),
  }

  async run(): Promise<void> {
    const client = await this.client()
    const check = await this.spin('Loading the check…', async () =>
      client.getCheck(await resolveCheckId(client, this.args.id)),
    )
    this.emit(check, (view) => renderSavedCheck(view, check))
  }
}
