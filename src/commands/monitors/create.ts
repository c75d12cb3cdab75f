import { Args, Flags } from '@oclif/core'
import { ClientCommand } from '../../cli/base-command.js'
import { InvalidUrlError, UsageError } from '../../cli/errors.js'
import { renderMonitor } from '../../cli/render/monitors.js'
import { readTargetUrl } from '../../contract/index.js'
import type { MonitorCreate } from '../../contract/monitors.js'
import { channelFlags, channelsFromFlags } from '../../cli/channel-flags.js'
import { AssertionSyntaxError, parseAssertion } from '../../assertions/index.js'
import { parseEvery } from '../../contract/durations.js'
import {
  pickedType,
  typeBody,
  typeExamples,
  typeFlags,
  typeHelp,
  typeSwitches,
} from '../../cli/type-flags.js'
import { tagProblem } from '../../contract/tags.js'

/** --tag values, each checked here so a typo is said before anything is sent. */
function tagsFromFlags(tags: string[]): string[] {
  for (const t of tags) {
    const problem = tagProblem(t)
    if (problem) throw new UsageError(`--tag ${JSON.stringify(t)}: ${problem}.`)
  }
  return tags
}

export default class MonitorsCreate extends ClientCommand<typeof MonitorsCreate> {
  static override summary = 'Watch a URL on a schedule, with alerts.'
  static override description = `Creates a monitor: the URL is checked every --every (default 5m), each run is a saved check charged 1 credit, and changes (down, up again, degraded, certificate expiring or invalid, score below --min-score, a security header gone, score or response time regressed against its own 7 days, credits exhausted) are sent to the channels given.

A --webhook channel's signing secret is printed once, now; keep it to verify X-Sitehealth-Signature.

${typeHelp}

--json prints the API body (the monitor, with the webhook secret and the push URL).`

  static override examples = [
    '<%= config.bin %> monitors create https://example.com',
    '<%= config.bin %> monitors create https://example.com --every 1m --name shop --webhook https://hooks.example.com/sitehealth',
    '<%= config.bin %> monitors create https://example.com --slack https://hooks.slack.com/services/T0/B0/XXX --min-score 70',
    '<%= config.bin %> monitors create https://example.com --email ops@example.com --json',
    '<%= config.bin %> monitors create https://api.example.com/health --assert "status_code equals 200" --assert "json_body $.status equals ok"',
    '<%= config.bin %> monitors create https://example.com --down-after 3 --recover-after 2 --remind-every 1h --webhook https://hooks.example.com/x',
    '<%= config.bin %> monitors create https://example.com --tag env:prod --tag team:web',
    ...typeExamples,
  ]

  static override args = {
    url: Args.string({
      description: `The http(s) URL to watch; a bare host means https://host/. None with ${typeSwitches}.`,
      required: false,
      ignoreStdin: true,
    }),
  }

  static override flags = {
    every: Flags.string({ description: 'Interval: 90s, 5m, 1h, 1d (or seconds). Default 5m.' }),
    ...typeFlags,
    name: Flags.string({ description: 'A name for the monitor (default: the host).' }),
    ref: Flags.string({
      description: 'Its ref: a stable name, unique among your monitors, that `sitehealth deploy` matches on.',
    }),
    tag: Flags.string({
      description: 'A tag: name or name:value (env:prod, team:payments). Repeat for more (up to 20).',
      multiple: true,
    }),
    ...channelFlags,
    'min-score': Flags.integer({
      description: 'Alert when the health score drops below this.',
      min: 0,
      max: 100,
    }),
    'recover-after': Flags.integer({
      description: 'Good runs in a row before a down monitor is up again (default 1): flap control.',
      min: 1,
      max: 20,
    }),
    'remind-every': Flags.string({
      description:
        'While down, repeat the alert as monitor.still_down this often: 30m, 1h, 1d (default: never).',
    }),
    assert: Flags.string({
      description:
        'An assertion every run must hold, as "source [property] comparison [target]": "status_code equals 200", "json_body $.status equals ok", "header content-type contains json", "response_time less_than 800". Repeat for more (up to 20).',
      multiple: true,
    }),
    'down-after': Flags.integer({
      description: 'Failed runs in a row before down (default 2).',
      min: 1,
      max: 20,
    }),
  }

  async run(): Promise<void> {
    const f = this.flags
    let interval: number | undefined
    if (f.every !== undefined) {
      interval = parseEvery(f.every)
      if (interval === undefined)
        throw new UsageError(
          `--every ${JSON.stringify(f.every)} is not an interval: write 90s, 5m, 1h or 1d.`,
        )
    }
    const channels = channelsFromFlags(f)
    let remind: number | undefined
    if (f['remind-every'] !== undefined) {
      const seconds = parseEvery(f['remind-every'])
      if (seconds === undefined || seconds % 60 !== 0 || seconds > 10_080 * 60)
        throw new UsageError(
          `--remind-every ${JSON.stringify(f['remind-every'])} is not a reminder interval: write whole minutes up to a week, such as 30m, 2h or 1d.`,
        )
      remind = seconds / 60
    }
    const rules = {
      min_score: f['min-score'],
      down_after: f['down-after'],
      recover_after: f['recover-after'],
      remind_every_minutes: remind,
    }
    const alerts = Object.values(rules).some((v) => v !== undefined) ? rules : undefined
    const assertions = (f.assert ?? []).map((text) => {
      try {
        return parseAssertion(text)
      } catch (err) {
        if (err instanceof AssertionSyntaxError) throw new UsageError(`--assert ${err.message}`)
        throw err
      }
    })
    const base = {
      ...(interval !== undefined ? { interval_seconds: interval } : {}),
      ...(f.name !== undefined ? { name: f.name } : {}),
      ...(f.ref !== undefined ? { ref: f.ref } : {}),
      ...(f.tag?.length ? { tags: tagsFromFlags(f.tag) } : {}),
      ...(alerts ? { alerts } : {}),
      ...(channels.length ? { channels } : {}),
    }
    const type = pickedType(f)
    if (type) {
      if (assertions.length && type.cli.noAssert) throw new UsageError(type.cli.noAssert)
      if (this.args.url !== undefined)
        throw new UsageError(
          `A ${type.noun} monitor has no URL: drop the URL, or drop --${type.cli.flag.name}.`,
        )
      const body = { ...typeBody(type, f), ...base, ...(assertions.length ? { assertions } : {}) }
      const client = await this.client()
      const monitor = await this.spin(`Creating the ${type.noun} monitor…`, () =>
        client.createMonitor(body as MonitorCreate),
      )
      return this.emit(monitor, (view) => renderMonitor(view, monitor, this.config.bin))
    }
    if (this.args.url === undefined) throw new UsageError(`Give the URL to watch, or ${typeSwitches}.`)
    // the one rule of `check`: a bare host means https, and is said so
    const target = readTargetUrl(this.args.url)
    if ('problem' in target) throw new InvalidUrlError(`${target.problem}.`)
    if (target.note) this.terminal.notice(`${target.note.replace(': checking', ': watching')}.`)
    const client = await this.client()
    const monitor = await this.spin('Creating the monitor…', () =>
      client.createMonitor({ url: target.url, ...base, ...(assertions.length ? { assertions } : {}) }),
    )
    this.emit(monitor, (view) => renderMonitor(view, monitor, this.config.bin))
  }
}
