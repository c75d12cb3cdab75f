import { DNS_RECORD_TYPES } from '../dns.js'
import type { MonitorTypeFace } from './face.js'

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
}
