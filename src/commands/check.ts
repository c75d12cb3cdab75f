import { Args, Flags } from '@oclif/core'
import { ClientCommand } from '../cli/base-command.js'
import {
  batchExitCode,
  batchSummary,
  belowThreshold,
  runChecks,
  type CheckOutcome,
} from '../cli/check-runner.js'
import { describeFailure } from '../cli/exit-codes.js'
import { paintScore } from '../cli/render/format.js'
import { renderRunResult } from '../cli/render/checks.js'
import { collectUrls, type UrlEntry } from '../cli/url-list.js'
import { plainHttpHint } from '../contract/index.js'

/** A bare host was tried as https and the site did not answer: say how to ask for http. */
function httpHint(o: CheckOutcome, entry: UrlEntry | undefined): string | undefined {
  if (o.error?.code !== 'check_failed' || !entry?.plainHttp) return undefined
  // the TLS error of a plain-HTTP port already names the http:// URL
  if (o.error.message.includes(entry.plainHttp)) return undefined
  return `${plainHttpHint(entry.plainHttp)}.`
}

export default class Check extends ClientCommand<typeof Check> {
  static override summary = 'Run a health check of one or more websites (1 credit each).'
  static override description = `Checks each URL in order and shows every signal (reachability, HTTPS, response time, security headers, pagespeed) with its status and message, then the health score, the risk level, the summary, the saved check's id and the credits left.

URLs come from the arguments, then from --file (one URL a line; "-" reads stdin; blank lines, # comment lines and " # comments" after a URL are skipped). Every URL is validated before any check runs; a bare host such as example.com is checked as https://example.com/.

When the server answers 429, the command waits out Retry-After (up to 120 s, shown on stderr) and goes on. A URL that fails (invalid_url, check_failed) does not stop the others; authentication, credit, rate-limit and API failures do. After several URLs a summary line tells how many passed, scored below --fail-under or failed, and the credits used.

Exit codes: 0 all checked (and none below --fail-under); 1 the API could not be reached or failed; 2 a bad URL; 3 a score below --fail-under, or under --fail-under a site that could not be reached (it counts as score 0); 4 authentication; 5 no credits; 6 rate limited; 7 a site could not be reached (without --fail-under).

--json prints the run result exactly as the API returns it for a single URL argument; with several URLs or --file, one JSON array holding, in order, each run result or error envelope (error envelopes carry the "url" they were for).`

  static override examples = [
    '<%= config.bin %> check https://example.com',
    '<%= config.bin %> check example.com example.org --fail-under 80',
    '<%= config.bin %> check --file sites.txt --json > results.json',
    'printf "https://example.com\\n# staging\\nhttps://staging.example.com\\n" | <%= config.bin %> check --file -',
  ]

  static override strict = false

  static override args = {
    url: Args.string({
      description: 'http or https URL to check (several may follow); a bare host means https://host/.',
      required: false,
      ignoreStdin: true,
    }),
  }

  static override flags = {
    file: Flags.string({ char: 'f', description: 'Read URLs from this file, one a line ("-" for stdin).' }),
    'fail-under': Flags.integer({
      description:
        'Exit 3 when any URL scores below this, or cannot be reached (score 0), after printing everything.',
      min: 0,
    }),
  }

  async run(): Promise<void> {
    const entries = await collectUrls(this.rest, this.flags.file, {
      onProblem: (p) => this.terminal.notice(`${p.where}: ${p.message}`),
    })
    for (const e of entries) if (e.note) this.terminal.notice(`${e.where}: ${e.note}`)
    const urls = entries.map((e) => e.url)
    const client = await this.client()
    this.interruptible(
      `the server may still finish the check that was running and charge it (1 credit); \`${this.config.bin} recent\` shows it.`,
    )
    const many = urls.length > 1 || this.flags.file !== undefined
    const threshold = this.flags['fail-under']
    const { view } = this.terminal
    const progress = (i: number) => (urls.length > 1 ? ` (${i + 1}/${urls.length})` : '')

    let printed = 0
    const outcomes = await runChecks(client, urls, {
      around: (url, i, work) => this.spin(`Checking ${url}${progress(i)}…`, work),
      onOutcome: (o, i) => {
        if (!many) return
        if (this.json || !view.tty) this.terminal.progress(this.progressLine(o, i, urls.length))
        if (this.json) return
        if (o.result) {
          if (printed++ > 0) this.terminal.out('')
          this.terminal.out(renderRunResult(view, o.result, this.config.bin))
        } else this.terminal.notice(`${o.url}: ${this.failureLine(o, entries[i])}`)
      },
    })

    if (!many) {
      const [only] = outcomes
      if (only.error) {
        const failure = describeFailure(only.error, this.failureContext)
        if (this.json) {
          this.terminal.json(failure.envelope)
          const hint = httpHint(only, entries[0])
          if (hint) this.terminal.notice(hint)
        } else this.terminal.notice(this.failureLine(only, entries[0]))
      } else {
        this.emit(only.result, (v) => renderRunResult(v, only.result!, this.config.bin))
      }
    } else {
      if (this.json) {
        this.terminal.json(outcomes.map((o) => o.result ?? { ...o.error.toEnvelope(), url: o.url }))
        this.terminal.progress(batchSummary(outcomes, urls.length, threshold))
      } else {
        if (printed > 0) this.terminal.out('')
        this.terminal.out(batchSummary(outcomes, urls.length, threshold))
      }
      if (outcomes.length < urls.length && !this.json)
        this.terminal.notice(`Stopped after ${outcomes.length} of ${urls.length} URLs.`)
    }

    if (threshold !== undefined && !this.json) {
      const low = [
        ...belowThreshold(outcomes, threshold),
        ...outcomes.filter((o) => o.error?.code === 'check_failed').map((o) => ({ url: o.url, score: 0 })),
      ]
      if (low.length > 0)
        this.terminal.notice(
          `Below --fail-under ${threshold}: ${low.map((l) => `${l.url} (${l.score})`).join(', ')}`,
        )
    }
    const code = batchExitCode(outcomes, threshold)
    if (code !== 0) return this.exit(code)
  }

  /** The failure's line for people, with how to ask for http when a bare host's https failed. */
  private failureLine(o: CheckOutcome, entry: UrlEntry): string {
    const line = describeFailure(o.error, this.failureContext).line
    const hint = httpHint(o, entry)
    return hint ? `${line} ${hint}` : line
  }

  /** One line per URL on stderr while the results go to a file or pipe. */
  private progressLine(o: CheckOutcome, i: number, total: number): string {
    const n = `[${i + 1}/${total}]`
    if (o.result) {
      const d = o.result.data
      return `${n} ${o.url}  ${paintScore(this.terminal.style, d.healthScore)}  ${d.riskLevel} risk`
    }
    return `${n} ${o.url}  failed: ${o.error.code}`
  }
}
