import { Args, Flags } from '@oclif/core'
import { ClientCommand } from '../../cli/base-command.js'
import { InvalidUrlError, UsageError } from '../../cli/errors.js'
import { renderMonitor } from '../../cli/render/monitors.js'
import { readTargetUrl } from '../../contract/index.js'
import type { MonitorCreate } from '../../contract/monitors.js'
import { channelFlags, channelsFromFlags } from '../../cli/channel-flags.js'
import { AssertionSyntaxError, parseAssertion } from '../../assertions/index.js'
import { parseEvery } from '../../monitors/interval.js'
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

With --heartbeat there is no URL: your job calls the monitor's push URL (printed once, now) at least every --every; no call for --every + --grace (default 5m) is down. Beats run no check and cost no credit.

--json prints the API body (the monitor, with the webhook secret and the push URL).`

  static override examples = [
    '<%= config.bin %> monitors create https://example.com',
    '<%= config.bin %> monitors create https://example.com --every 1m --name shop --webhook https://hooks.example.com/sitehealth',
    '<%= config.bin %> monitors create https://example.com --slack https://hooks.slack.com/services/T0/B0/XXX --min-score 70',
    '<%= config.bin %> monitors create https://example.com --email ops@example.com --json',
    '<%= config.bin %> monitors create https://api.example.com/health --assert "status_code equals 200" --assert "json_body $.status equals ok"',
    '<%= config.bin %> monitors create https://example.com --down-after 3 --recover-after 2 --remind-every 1h --webhook https://hooks.example.com/x',
    '<%= config.bin %> monitors create https://example.com --tag env:prod --tag team:web',
    '<%= config.bin %> monitors create --heartbeat --every 1h --grace 10m --name "nightly backup" --slack https://hooks.slack.com/services/T0/B0/XXX',
  ]

  static override args = {
    url: Args.string({
      description: 'The http(s) URL to watch; a bare host means https://host/. None with --heartbeat.',
      required: false,
      ignoreStdin: true,
    }),
  }

  static override flags = {
    every: Flags.string({ description: 'Interval: 90s, 5m, 1h, 1d (or seconds). Default 5m.' }),
    heartbeat: Flags.boolean({
      description: 'A heartbeat monitor: no URL, your job calls its push URL every --every.',
      default: false,
    }),
    grace: Flags.string({ description: 'Heartbeat: how late a beat may be before down (default 5m).' }),
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
    if (f.heartbeat) {
      if (assertions.length) throw new UsageError('--assert is for URL monitors: a heartbeat runs no check.')
      return this.heartbeat(base)
    }
    if (f.grace !== undefined) throw new UsageError('--grace is for heartbeat monitors (--heartbeat).')
    if (this.args.url === undefined) throw new UsageError('Give the URL to watch, or --heartbeat.')
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

  /** --heartbeat: no URL; the push URL is printed once. */
  private async heartbeat(base: Omit<MonitorCreate, 'type' | 'url'>): Promise<void> {
    const f = this.flags
    if (this.args.url !== undefined)
      throw new UsageError('A heartbeat monitor has no URL: drop the URL, or drop --heartbeat.')
    let grace: number | undefined
    if (f.grace !== undefined) {
      grace = f.grace.trim() === '0' ? 0 : parseEvery(f.grace)
      if (grace === undefined)
        throw new UsageError(`--grace ${JSON.stringify(f.grace)} is not a duration: write 90s, 10m or 1h.`)
    }
    const client = await this.client()
    const monitor = await this.spin('Creating the heartbeat monitor…', () =>
      client.createMonitor({
        type: 'heartbeat',
        ...base,
        ...(grace !== undefined ? { grace_seconds: grace } : {}),
      }),
    )
    this.emit(monitor, (view) => renderMonitor(view, monitor, this.config.bin))
  }
}
