import { ClientCommand } from '../../cli/base-command.js'
import { monitorIdArgs, MONITOR_NOT_FOUND_HINT } from '../../cli/flags.js'
import { renderRunResult } from '../../cli/render/checks.js'
import { renderRuns } from '../../cli/render/monitors.js'
import { resolveMonitorId } from '../../cli/short-ids.js'

export default class MonitorsRun extends ClientCommand<typeof MonitorsRun> {
  static override summary = 'Run a monitor now (1 credit).'
  static override description = `Runs and saves a check of the monitor URL now, like \`check\`: charged 1 credit and counted against the run limit. The run joins the monitor history and may raise alerts. A tcp or tls monitor runs its probe and shows the run: ok (1 credit) or failed (nothing charged).

--json prints the API body (the run result, or the run of a tcp or tls monitor).`

  static override examples = ['<%= config.bin %> monitors run 0193a5c4-8f2e-7b1a-9c3d-2e4f5a6b7c8d']

  static override notFoundHint = MONITOR_NOT_FOUND_HINT

  static override args = monitorIdArgs

  async run(): Promise<void> {
    const client = await this.client()
    const id = await resolveMonitorId(client, this.args.id)
    this.interruptible(
      `the server may still finish this run and charge it (1 credit); \`${this.config.bin} monitors runs ${id}\` shows it.`,
    )
    const result = await this.spin('Checking…', () => client.runMonitor(id))
    this.emit(result, (view) =>
      // a type that keeps no check (tcp, tls) answers with its run
      'outcome' in result
        ? renderRuns(view, { runs: [result], next_cursor: null }, id, this.config.bin)
        : renderRunResult(view, result, this.config.bin),
    )
  }
}
