import { hostPort, parseHostPort } from '../monitor-target.js'
import {
  FlagValueError,
  intervalField,
  nameField,
  tagsField,
  type MonitorTypeFace,
  type TypeFormField,
} from './face.js'

/** A host field of a form: on the edit form too, beside the name. */
export const hostField = (hint: string): TypeFormField => ({
  name: 'host',
  label: 'Host',
  input: 'text',
  hint,
  required: true,
  maxlength: 255,
  into: 'host',
  edit: { beside: 'name', from: 'host' },
})

/** A port field of a form (optional: the type's own default when left empty). */
export const portField = (required: boolean, hint: string): TypeFormField => ({
  name: 'port',
  label: 'Port',
  input: 'number',
  min: 1,
  max: 65_535,
  hint,
  required,
  into: 'port',
  read: (typed) => (typed === '' ? undefined : Number(typed)),
  edit: { beside: 'name', from: 'port', show: (p) => (p === null ? '' : String(p)) },
})

/** A tcp monitor: a port that opens on a host. */
export const tcp: MonitorTypeFace = {
  type: 'tcp',
  noun: 'tcp',
  url: false,
  noUrl: 'it watches host and port',
  pushed: false,
  host: true,
  port: 'required',
  words:
    'tcp: `host` and `port` (1-65535); up when the connection opens within timeout_seconds (default 10), response time is the connect time.',
  tool: {
    description:
      'With type "tcp" (host, port, timeout_seconds) it watches a TCP port instead: up when the connection opens in time; an open run costs 1 credit, a failed one nothing.',
    created: (m) =>
      `TCP monitor "${m.name}" (id ${m.id}) watches ${hostPort(m.host ?? '', m.port ?? 0)} every ${m.interval_seconds} s; ` +
      'each run that connects costs 1 credit, a failed one nothing. The first run starts at once.',
  },
  cli: {
    flag: {
      name: 'tcp',
      value: 'HOST:PORT',
      description: 'A tcp monitor: up when HOST:PORT accepts a connection.',
    },
    flags: [],
    body: ({ tcp }) => {
      const read = parseHostPort(String(tcp), true)
      if ('problem' in read) throw new FlagValueError(`--tcp: ${read.problem}.`)
      return { host: read.host, port: read.port }
    },
    help: 'With --tcp HOST:PORT there is no URL: each run opens a TCP connection (10 s at most) and closes it; a run that connects costs 1 credit, one that fails nothing. --assert takes response_time (the connect time, ms).',
    examples: ['<%= config.bin %> monitors create --tcp db.example.com:5432 --every 1m --name "primary db"'],
  },
  form: {
    heading: 'Create a TCP monitor',
    intro:
      'For a database, a mail server or any port: up when the port accepts a connection within 10 seconds. A run that connects costs 1 credit, a failed one nothing.',
    submit: 'Create TCP monitor',
    fields: [
      hostField('db.example.com'),
      portField(true, '5432'),
      nameField({ label: 'Name', required: false, hint: 'optional' }),
      tagsField(),
      intervalField('How often', 300),
    ],
  },
  assertions: ['response_time'],
  target: (m) => (m.host && m.port ? hostPort(m.host, m.port) : 'tcp'),
}
