import { DNS_RECORD_TYPES } from '../dns.js'
import { intervalField, nameField, tagsField, type MonitorTypeFace } from './face.js'

/** A dns monitor: the records of one type a name has, asked of the system's or a given resolver. */
export const dns: MonitorTypeFace = {
  type: 'dns',
  noun: 'dns',
  url: false,
  noUrl: 'it queries host',
  pushed: false,
  host: true,
  port: 'none',
  words: `dns: \`host\` (a name), \`record_type\` (${DNS_RECORD_TYPES.join(', ')}) and \`resolver\` (IP[:port], default the system's); up when the query answers with at least one record (NOERROR), unless dns_answer assertions (contains, equals, not_contains, is_empty, not_empty) judge the sorted answers; NXDOMAIN, SERVFAIL and timeouts are down.`,
  assertions: ['response_time', 'dns_answer'],
  target: (m) => (m.host && m.record_type ? `${m.host} ${m.record_type}` : 'dns'),
  tool: {
    description:
      'With type "dns" (host, record_type, resolver?) it queries a name instead: up while the answer has records; each answered run costs 1 credit.',
    created: (m) =>
      `DNS monitor "${m.name}" (id ${m.id}) queries ${m.host} ${m.record_type} of ${m.resolver ?? 'the system resolver'} every ${m.interval_seconds} s; each answered run costs 1 credit.`,
  },
  cli: {
    flag: { name: 'dns', value: 'HOST', description: 'A dns monitor: query HOST for --record records.' },
    flags: [
      {
        name: 'record',
        value: 'TYPE',
        options: DNS_RECORD_TYPES,
        description: 'dns: the record type to query (default A).',
      },
      {
        name: 'resolver',
        value: 'IP[:PORT]',
        description: "dns: the resolver to ask (default: the server's own).",
      },
    ],
    body: ({ dns, record, resolver }) => ({
      host: dns,
      record_type: typeof record === 'string' ? record : 'A',
      ...(typeof resolver === 'string' ? { resolver } : {}),
    }),
    help: 'With --dns HOST the monitor queries HOST for --record records (A, AAAA, CNAME, MX, TXT, NS, SOA, CAA, SRV; default A), of the server\'s resolver or --resolver IP[:PORT]: up when it answers with records, unless "dns_answer …" assertions judge the sorted answers. NXDOMAIN, SERVFAIL and timeouts are down. A run that answers costs 1 credit.',
    examples: [
      '<%= config.bin %> monitors create --dns example.com --record A --assert "dns_answer contains 93.184.216.34"',
      '<%= config.bin %> monitors create --dns example.com --record MX --resolver 9.9.9.9',
    ],
  },
  form: {
    heading: 'Create a DNS monitor',
    intro:
      "Queries a name for one record type, of the server's resolver or one you name; up while it answers with records. Each run that answers costs 1 credit.",
    submit: 'Create DNS monitor',
    fields: [
      {
        name: 'host',
        label: 'Domain',
        input: 'text',
        hint: 'example.com',
        required: true,
        maxlength: 255,
        into: 'host',
        edit: { beside: 'name', from: 'host' },
      },
      {
        name: 'record_type',
        label: `Record type (${DNS_RECORD_TYPES.join(', ')})`,
        input: 'text',
        required: true,
        initial: 'A',
        maxlength: 5,
        into: 'record_type',
        read: (typed) => typed.toUpperCase(),
        edit: { beside: 'name', from: 'record_type' },
      },
      {
        name: 'resolver',
        label: 'Resolver',
        input: 'text',
        hint: "optional: 9.9.9.9 (default: the server's)",
        maxlength: 60,
        into: 'resolver',
        read: (typed) => typed || undefined,
      },
      nameField({ label: 'Name', required: false, hint: 'optional' }),
      tagsField(),
      intervalField('How often', 300),
    ],
  },
}
