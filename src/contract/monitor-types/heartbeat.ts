import { parseEvery } from '../durations.js'
import { FlagValueError, intervalField, nameField, type MonitorTypeFace } from './face.js'

/** A heartbeat monitor: a job calls its push URL; silence past interval + grace is down. */
export const heartbeat: MonitorTypeFace = {
  type: 'heartbeat',
  noun: 'heartbeat',
  url: false,
  noUrl: 'its job calls it',
  pushed: true,
  host: false,
  port: 'none',
  words:
    'heartbeat: no url; your job (cron, backup) calls the push_url the result gives, and silence past interval_seconds + grace_seconds is down.',
  tool: {
    description:
      'With type "heartbeat" (no url; interval_seconds, grace_seconds) it watches a job instead: the result ' +
      'carries push_url, shown only this once, which the job calls (GET or POST; ?status=down&msg=… reports a ' +
      'failure); beats cost no credits.',
    created: (m) =>
      `Heartbeat monitor "${m.name}" (id ${m.id}) expects a beat every ${m.interval_seconds} s, ` +
      `${m.grace_seconds ?? 0} s grace. Push URL (shown only now; keep it secret, it needs no key): ${m.push_url}. ` +
      'The job calls it with GET or POST when it succeeds, or with ?status=down&msg=… when it fails; beats cost no credits.',
  },
  cli: {
    flag: {
      name: 'heartbeat',
      description: 'A heartbeat monitor: no URL, your job calls its push URL every --every.',
    },
    flags: [
      {
        name: 'grace',
        value: '<value>',
        description: 'Heartbeat: how late a beat may be before down (default 5m).',
      },
    ],
    body: ({ grace }) => {
      if (typeof grace !== 'string') return {}
      const seconds = grace.trim() === '0' ? 0 : parseEvery(grace)
      if (seconds === undefined)
        throw new FlagValueError(`--grace ${JSON.stringify(grace)} is not a duration: write 90s, 10m or 1h.`)
      return { grace_seconds: seconds }
    },
    noAssert: '--assert is for URL monitors: a heartbeat runs no check.',
    help: "With --heartbeat there is no URL: your job calls the monitor's push URL (printed once, now) at least every --every; no call for --every + --grace (default 5m) is down. Beats run no check and cost no credit.",
    examples: [
      '<%= config.bin %> monitors create --heartbeat --every 1h --grace 10m --name "nightly backup" --slack https://hooks.slack.com/services/T0/B0/XXX',
    ],
  },
  form: {
    heading: 'Create a heartbeat monitor',
    intro:
      "For a cron job or a backup: the job calls the monitor's push URL each time it runs, and no call for the interval plus the grace is down. Beats cost no credits.",
    submit: 'Create heartbeat monitor',
    fields: [
      nameField({ label: 'Job', required: true, hint: 'nightly backup' }),
      intervalField('Expected', 86_400),
      {
        name: 'grace_minutes',
        label: 'Grace (minutes)',
        input: 'number',
        min: 0,
        max: 1440,
        required: true,
        initial: '5',
        into: 'grace_seconds',
        read: (typed) => (typed === '' ? NaN : Number(typed) * 60),
        edit: {
          beside: 'interval',
          from: 'grace_seconds',
          show: (s) => String(((s as number | null) ?? 0) / 60),
        },
      },
    ],
  },
  assertions: [],
}
