import { Args, Flags } from '@oclif/core'
import { ClientCommand } from '../cli/base-command.js'
import { belowThreshold, runChecks } from '../cli/check-runner.js'
import { describeFailure, EXIT, exitCodeFor } from '../cli/exit-codes.js'
import { renderRunResult } from '../cli/render/checks.js'
import { collectUrls } from '../cli/url-list.js'

export default class Check extends ClientCommand<typeof Check> {
  static override summary = 'Run a health check of one or more websites (1 credit each).'
  static override description = `Checks each URL in order and shows every signal (reachability, HTTPS, response time, security headers, pagespeed) with its status and message, then the health score, the risk level, the summary, the saved check's id and the credits left.

URLs come from the arguments, then from --file (one URL a line; "-" reads stdin; blank lines and lines starting with # are skipped).

When the server answers 429, the command waits out Retry-After (up to 120 s, shown on stderr) and goes on. A URL that fails (invalid_url, check_failed) does not stop the others; authentication, credit and rate-limit failures do. The exit code is the first failure's; otherwise 3 when --fail-under is given and any URL scored below it, else 0.

--json prints the run result exactly as the API returns it for a single URL argument; with several URLs or --file, one JSON array holding, in order, each run result or error envelope.`

  static override examples = [
    '<%= config.bin %> check https://example.com',
    '<%= config.bin %> check https://example.com https://example.org --fail-under 80',
    '<%= config.bin %> check --file sites.txt --json > results.json',
    'printf "https://example.com\\n# staging\\nhttps://staging.example.com\\n" | <%= config.bin %> check --file -',
  ]

  static override strict = false

  static override args = {
    url: Args.string({
      description: 'http or https URL to check (several may follow).',
      required: false,
      ignoreStdin: true,
    }),
  }

  static override flags = {
    file: Flags.string({ char: 'f', description: 'Read URLs from this file, one a line ("-" for stdin).' }),
    'fail-under': Flags.integer({
      description: 'Exit 3 when any checked URL has a health score below this (after printing everything).',
      min: 0,
    }),
  }

  async run(): Promise<void> {
    const urls = await collectUrls(this.rest, this.flags.file)
    const client = await this.client()
    const many = urls.length > 1 || this.flags.file !== undefined
    const progress = (i: number) => (urls.length > 1 ? ` (${i + 1}/${urls.length})` : '')

    const outcomes = await runChecks(client, urls, {
      around: (url, i, work) => this.spin(`Checking ${url}${progress(i)}…`, work),
      onOutcome: (o, i) => {
        if (this.json || !many) return
        if (i > 0) this.terminal.out('')
        if (o.result) this.terminal.out(renderRunResult(this.terminal.style, o.result, this.config.bin))
        else this.terminal.notice(`${o.url}: ${describeFailure(o.error, this.failureContext).line}`)
      },
    })

    const firstError = outcomes.find((o) => o.error !== undefined)?.error
    if (!many) {
      // one URL: exactly the API body, or the error through the base command's one path
      if (firstError) throw firstError
      this.emit(outcomes[0].result, (style) => renderRunResult(style, outcomes[0].result!, this.config.bin))
    } else if (this.json) {
      this.terminal.json(outcomes.map((o) => o.result ?? o.error.toEnvelope()))
    }
    if (many && outcomes.length < urls.length && !this.json) {
      this.terminal.notice(`Stopped after ${outcomes.length} of ${urls.length} URLs.`)
    }
    if (firstError) return this.exit(exitCodeFor(firstError))

    const threshold = this.flags['fail-under']
    if (threshold !== undefined) {
      const low = belowThreshold(outcomes, threshold)
      if (low.length > 0) {
        this.terminal.notice(
          `Below --fail-under ${threshold}: ${low.map((l) => `${l.url} (${l.score})`).join(', ')}`,
        )
        return this.exit(EXIT.belowThreshold)
      }
    }
  }
}
