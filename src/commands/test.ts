import { Flags } from '@oclif/core'
import { DEFAULT_FILE, FileError, loadFile, REPORTERS, report, runTests } from '../as-code/index.js'
import { exitCodeOf } from '../as-code/test-run.js'
import { ClientCommand } from '../cli/base-command.js'
import { UsageError } from '../cli/errors.js'

export default class Test extends ClientCommand<typeof Test> {
  static override summary = 'Check every URL monitor of sitehealth.yaml once now, as a CI gate.'
  static override description = `Runs each URL monitor of the file once (1 credit each; heartbeat monitors are skipped), in batches of 25 per request (POST /checks/run-batch: one request against the run limit, so a file of 40 monitors does not wait on it; the server runs each batch within your check slots) with progress on stderr, and judges it by its alerts.min_score.

Exit codes: 0 all passed; 3 a monitor failed (as --fail-under); 7 a site could not be checked (this wins over 3).

Reporters: human (default), json, junit (JUnit XML: one testsuite, a testcase per monitor, a <failure> with every failed check, expected and actual; --output FILE writes it there), github (::error annotations on stdout and a Markdown table appended to $GITHUB_STEP_SUMMARY, or to --output).`

  static override examples = [
    '<%= config.bin %> test',
    '<%= config.bin %> test --reporter junit --output sitehealth-junit.xml',
    '<%= config.bin %> test --reporter github --grep api',
  ]

  static override flags = {
    file: Flags.string({
      char: 'f',
      description: `The file (default ${DEFAULT_FILE}).`,
      default: DEFAULT_FILE,
    }),
    reporter: Flags.string({ description: 'How to report.', options: [...REPORTERS], default: 'human' }),
    grep: Flags.string({ description: 'Only monitors whose ref or name matches this pattern.' }),
    output: Flags.string({ description: 'Write the junit report (or the github summary) to this file.' }),
  }

  async run(): Promise<void> {
    const f = this.flags
    const loaded = await loadFile(f.file).catch((err: unknown) => {
      if (err instanceof FileError) throw new UsageError(err.message)
      throw err
    })
    if (f.grep) {
      try {
        new RegExp(f.grep)
      } catch {
        throw new UsageError(`--grep ${JSON.stringify(f.grep)} is not a valid pattern.`)
      }
    }
    const client = await this.client()
    this.interruptible(
      `the server may still finish the check that was running and charge it (1 credit); \`${this.config.bin} recent\` shows it.`,
    )
    const r = await runTests(client, loaded, {
      grep: f.grep,
      onProgress: (done, total, t) => this.terminal.notice(`[${done}/${total}] ${t.ref}: ${t.outcome}`),
    })
    const reporter = this.json ? 'json' : (f.reporter as (typeof REPORTERS)[number])
    this.terminal.out(await report(r, reporter, { output: f.output }))
    const code = exitCodeOf(r)
    if (code !== 0) this.exit(code)
  }
}
