import { Flags } from '@oclif/core'
import {
  applyPlan,
  DEFAULT_FILE,
  fetchCurrent,
  FileError,
  loadFile,
  makePlan,
  planJson,
  renderOutcome,
  renderPlan,
} from '../as-code/index.js'
import { ClientCommand } from '../cli/base-command.js'
import { UsageError } from '../cli/errors.js'
import { EXIT, exitCodeFor } from '../cli/exit-codes.js'

export default class Deploy extends ClientCommand<typeof Deploy> {
  static override summary = 'Make the account match sitehealth.yaml: print the plan, then apply it.'
  static override description = `Reads the file (default ${DEFAULT_FILE}), compares it with the account — monitors by ref, status pages by slug, a monitor's channels by type and target — and prints the plan: + create, ~ update (each changed field, old → new), - delete (only with --prune). Then applies it. Monitors without a ref are never touched. A second deploy of the same file prints "No changes".

A file with a problem (syntax, unknown key, wrong type, duplicate ref, a channel or monitor that does not exist, an unset \${VAR}) exits 2 with every problem as FILE:LINE:COL and nothing applied.

Confirmation: on a terminal, deploy asks before applying unless --yes. Off a terminal (CI) it applies creates and updates without asking, but refuses --prune deletions without --yes.

--json prints {plan, applied, failed, secrets} (with --dry-run: the plan alone); secrets holds new webhook signing secrets and the push URLs of new heartbeat monitors, shown this once.`

  static override examples = [
    '<%= config.bin %> deploy --dry-run',
    '<%= config.bin %> deploy --yes',
    '<%= config.bin %> deploy --file monitors/prod.yaml --prune --yes --json',
  ]

  static override flags = {
    file: Flags.string({
      char: 'f',
      description: `The file (default ${DEFAULT_FILE}).`,
      default: DEFAULT_FILE,
    }),
    'dry-run': Flags.boolean({ description: 'Print the plan, apply nothing.', default: false }),
    prune: Flags.boolean({
      description: 'Also delete monitors with a ref (and status pages) that the file no longer has.',
      default: false,
    }),
    yes: Flags.boolean({ char: 'y', description: 'Apply without asking.', default: false }),
  }

  async run(): Promise<void> {
    const f = this.flags
    const loaded = await loadFile(f.file).catch((err: unknown) => {
      if (err instanceof FileError) throw new UsageError(err.message)
      throw err
    })
    const client = await this.client()
    const current = await this.spin('Reading the account…', () => fetchCurrent(client))
    const plan = makePlan(loaded, current, { prune: f.prune })
    if (!this.json) this.terminal.out(renderPlan(plan))
    if (f['dry-run'] || plan.items.length === 0) {
      if (this.json) this.terminal.json({ plan: planJson(plan), applied: [], failed: null, secrets: [] })
      return
    }
    const deletes = plan.items.some((i) => i.action === 'delete')
    if (!f.yes) {
      if (process.stdin.isTTY && process.stderr.isTTY && !this.json)
        await this.confirm('Apply these changes?', false)
      else if (deletes)
        throw new UsageError(
          'The plan deletes monitors or status pages: pass --yes to apply it (nothing was applied).',
        )
    }
    const paused = new Map(
      loaded.monitors.filter((m) => m.paused !== undefined).map((m) => [m.ref, m.paused!]),
    )
    this.interruptible(
      `the change in flight may still be applied on the server; \`${this.config.bin} deploy --dry-run\` shows what is left to do.`,
    )
    const result = await applyPlan(client, plan.items, current, {
      paused,
      onProgress: (done, total) => {
        if (total >= 20 && (done % 50 === 0 || done === total))
          this.terminal.notice(`Applied ${done} of ${total}…`)
      },
    })
    if (this.json)
      this.terminal.json({
        plan: planJson(plan),
        applied: result.applied.map((i) => ({ action: i.action, kind: i.kind, key: i.key })),
        failed: result.failed
          ? {
              action: result.failed.item.action,
              kind: result.failed.item.kind,
              key: result.failed.item.key,
              error: result.failed.error.message,
              pending: result.failed.pending.map((i) => ({ action: i.action, kind: i.kind, key: i.key })),
            }
          : null,
        secrets: result.secrets,
      })
    else this.terminal.out(renderOutcome(result))
    if (result.failed) this.exit(exitCodeFor(result.failed.error) || EXIT.failure)
  }
}
