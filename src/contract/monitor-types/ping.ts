import { FlagValueError, intervalField, nameField, tagsField, type MonitorTypeFace } from './face.js'

/** A ping monitor: ICMP echo to a host through the server's `ping`. */
export const ping: MonitorTypeFace = {
  type: 'ping',
  noun: 'ping',
  url: false,
  noUrl: 'it pings host',
  pushed: false,
  host: true,
  port: 'none',
  words:
    'ping: `host` and `count` (echo requests, default 3); up when at least one reply returns, response time the average round trip, details.packet_loss the percent lost (packet_loss assertions); refused where the server may not ping.',
  assertions: ['response_time', 'packet_loss'],
  target: (m) => (m.host ? `ping ${m.host}` : 'ping'),
  tool: {
    description:
      'With type "ping" (host, count?) it pings a host instead: up while replies return, details.packet_loss per run; each run with a reply costs 1 credit.',
    created: (m) =>
      `Ping monitor "${m.name}" (id ${m.id}) pings ${m.host} (${m.count ?? 3} echo requests) every ${m.interval_seconds} s; each run with a reply costs 1 credit.`,
  },
  cli: {
    flag: { name: 'ping', value: 'HOST', description: 'A ping monitor: ICMP echo to HOST.' },
    flags: [
      {
        name: 'count',
        value: 'N',
        description: 'ping: echo requests each run sends (default 3, at most 20).',
      },
    ],
    body: ({ ping, count }) => {
      if (typeof count !== 'string') return { host: ping }
      const n = Number(count)
      if (!Number.isInteger(n) || n < 1 || n > 20)
        throw new FlagValueError(
          `--count ${JSON.stringify(count)} is not a count: write a whole number from 1 to 20.`,
        )
      return { host: ping, count: n }
    },
    help: 'With --ping HOST the monitor pings HOST (--count echo requests, default 3) through the server\'s ping: up when a reply returns, its response time the average round trip and its packet loss judged by "packet_loss …" assertions. Servers that may not ping refuse it. A run with a reply costs 1 credit.',
    examples: [
      '<%= config.bin %> monitors create --ping example.com --count 5 --assert "packet_loss less_than 40"',
    ],
  },
  form: {
    heading: 'Create a ping monitor',
    intro:
      "Pings a host through the server's ping; up while replies return. Each run with a reply costs 1 credit.",
    submit: 'Create ping monitor',
    fields: [
      {
        name: 'host',
        label: 'Host',
        input: 'text',
        hint: 'example.com',
        required: true,
        maxlength: 255,
        into: 'host',
        edit: { beside: 'name', from: 'host' },
      },
      {
        name: 'count',
        label: 'Echo requests',
        input: 'number',
        min: 1,
        max: 20,
        initial: '3',
        into: 'count',
        read: (typed) => (typed === '' ? undefined : Number(typed)),
      },
      nameField({ label: 'Name', required: false, hint: 'optional' }),
      tagsField(),
      intervalField('How often', 300),
    ],
  },
}
