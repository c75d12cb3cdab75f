import { hostPort, parseHostPort, STARTTLS_PROTOCOLS, type StartTls } from '../monitor-target.js'
import { FlagValueError, intervalField, nameField, tagsField, type MonitorTypeFace } from './face.js'
import { hostField, portField } from './tcp.js'

const where = (m: { host?: string | null; port?: number | null; starttls?: string | null }) =>
  m.host && m.port ? `${hostPort(m.host, m.port)}${m.starttls ? ` (STARTTLS ${m.starttls})` : ''}` : 'tls'

/** A tls monitor: the certificate a host serves on a port, directly or after STARTTLS. */
export const tls: MonitorTypeFace = {
  type: 'tls',
  noun: 'tls',
  url: false,
  noUrl: 'it watches host and port',
  pushed: false,
  host: true,
  port: 'optional',
  words:
    'tls: `host`, `port` (default 443) and `starttls` (smtp, imap or pop3, whose port is then the default); up when the handshake completes and the certificate chain is valid for host; runs carry days_left, issuer and protocol, and certificate_days assertions judge them.',
  tool: {
    description:
      'With type "tls" (host, port default 443, starttls smtp|imap|pop3) it watches the TLS certificate on any port: down when expired, self-signed or for another name; certificate.expiring at 21, 7 and 1 days. A valid run costs 1 credit, a failed one nothing.',
    created: (m) =>
      `TLS monitor "${m.name}" (id ${m.id}) watches the certificate of ${where(m)} every ${m.interval_seconds} s; ` +
      'a valid run costs 1 credit, a failed one nothing. The first run starts at once.',
  },
  cli: {
    flag: {
      name: 'tls',
      value: 'HOST[:PORT]',
      description:
        "A tls monitor: the certificate on HOST:PORT (default 443, or the --starttls protocol's port).",
    },
    flags: [
      {
        name: 'starttls',
        value: 'PROTOCOL',
        options: STARTTLS_PROTOCOLS,
        description: 'tls: upgrade with STARTTLS first (smtp 587, imap 143, pop3 110 by default).',
      },
    ],
    body: ({ tls, starttls }) => {
      const read = parseHostPort(String(tls), false)
      if ('problem' in read) throw new FlagValueError(`--tls: ${read.problem}.`)
      return {
        host: read.host,
        ...(read.port !== undefined ? { port: read.port } : {}),
        ...(typeof starttls === 'string' ? { starttls: starttls as StartTls } : {}),
      }
    },
    help: 'With --tls HOST[:PORT] there is no URL: each run completes a TLS handshake (after STARTTLS with --starttls smtp|imap|pop3) and judges the certificate for HOST; expired, self-signed or wrong-name is down. certificate.expiring fires at 21, 7 and 1 days. A valid run costs 1 credit, a failed one nothing. --assert takes certificate_days and response_time.',
    examples: [
      '<%= config.bin %> monitors create --tls mail.example.com --starttls smtp --assert "certificate_days greater_than 14"',
    ],
  },
  form: {
    heading: 'Create a TLS certificate monitor',
    intro:
      'For the certificate on any port (a mail server, a TURN server, an API): down when it is expired, self-signed or for another name; warnings at 21, 7 and 1 days left. A valid run costs 1 credit.',
    submit: 'Create TLS monitor',
    fields: [
      hostField('mail.example.com'),
      portField(false, '443'),
      {
        name: 'starttls',
        label: 'STARTTLS',
        input: 'text',
        hint: 'smtp, imap or pop3 (optional)',
        maxlength: 4,
        into: 'starttls',
        read: (typed) => typed.toLowerCase() || undefined,
      },
      nameField({ label: 'Name', required: false, hint: 'optional' }),
      tagsField(),
      intervalField('How often', 3600),
    ],
  },
  assertions: ['response_time', 'certificate_days'],
  target: where,
}
