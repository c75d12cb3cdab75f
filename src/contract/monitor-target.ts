/**
 * The target of a monitor type that watches no URL (tcp, tls, and the types after them): a `host`
 * (a name or an IP address), a `port` and a `timeout_seconds`, declared once. The create shapes in
 * monitors.ts use them; the kinds (src/monitors/kinds/) guard the host as a URL's host is guarded,
 * and every face words such a target as `hostPort` does (`db.example.com:5432`, `[::1]:443`).
 */
import { z } from 'zod'

/** Seconds a run of a non-http type may take (docs/monitoring.md): 10 by default. */
export const TIMEOUT_SECONDS = { min: 1, max: 60, default: 10 } as const

/** The protocols a tls monitor upgrades with STARTTLS, and the port each uses by default. */
export const STARTTLS_PROTOCOLS = ['smtp', 'imap', 'pop3'] as const
export type StartTls = (typeof STARTTLS_PROTOCOLS)[number]
export const STARTTLS_PORTS: Readonly<Record<StartTls, number>> = { smtp: 587, imap: 143, pop3: 110 }
export const TLS_PORT = 443

/** One DNS label: letters, digits, `_` (service names such as `_sip._tcp`) and inner dashes. */
const LABEL = '[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?'
const HOST_NAME = new RegExp(`^${LABEL}(?:\\.${LABEL})*\\.?$`)

/** A host as stored and sent: trimmed, lowercase, an IPv6 address without brackets. */
export function normalHost(input: string): string {
  const h = input.trim().toLowerCase()
  return h.startsWith('[') && h.endsWith(']') ? h.slice(1, -1) : h
}

/** Why `input` is not a host name or an IP address, or null when it is one. */
export function hostProblem(input: string): string | null {
  const h = normalHost(input)
  if (h === '') return 'host is empty: give a name or an IP address, such as db.example.com'
  if (/^[a-z][a-z0-9+.-]*:\/\//.test(h))
    return 'host is a name or an IP address, not a URL: leave out the scheme and the path'
  if (h.includes(':')) {
    try {
      new URL(`http://[${h}]/`)
      return null
    } catch {
      return `host ${JSON.stringify(input)} is not a valid IPv6 address (write a port in port)`
    }
  }
  if (h.length > 253 || !HOST_NAME.test(h))
    return `host ${JSON.stringify(input)} is not a host name or an IP address`
  return null
}

/** How a host and port are written in lists and alerts: `db.example.com:5432`, `[::1]:443`. */
export function hostPort(host: string, port: number): string {
  return `${host.includes(':') ? `[${host}]` : host}:${port}`
}

export const Host = z
  .string()
  .min(1)
  .max(255)
  .superRefine((h, ctx) => {
    const problem = hostProblem(h)
    if (problem) ctx.addIssue({ code: 'custom', message: problem })
  })
  .meta({
    description:
      'A host name or an IP address (no scheme, no path). The SSRF guard applies as to URLs: private, loopback and local targets are refused unless the server allows them.',
    examples: ['db.example.com'],
  })

export const Port = z.int().min(1).max(65_535).meta({ description: 'A TCP port, 1 to 65535.' })

export const TimeoutSeconds = z
  .int()
  .min(TIMEOUT_SECONDS.min)
  .max(TIMEOUT_SECONDS.max)
  .meta({
    description: `Seconds a run may take before it fails (default ${TIMEOUT_SECONDS.default}).`,
  })

export const StartTlsField = z.enum(STARTTLS_PROTOCOLS).meta({
  description:
    "tls monitors: upgrade a plain connection with STARTTLS first (smtp: EHLO, STARTTLS; imap: STARTTLS; pop3: STLS). The port then defaults to the protocol's own: smtp 587, imap 143, pop3 110.",
})

/** A tls monitor's port when none is given. */
export const tlsPortOf = (starttls: StartTls | null | undefined): number =>
  starttls ? STARTTLS_PORTS[starttls] : TLS_PORT

/**
 * `HOST:PORT`, `HOST` (when the port may be left out) or `[IPv6]:PORT`, as a flag or a form gives
 * it: the host and the port (undefined when left out), or the words of a refusal.
 */
export function parseHostPort(
  text: string,
  portRequired: boolean,
): { host: string; port?: number } | { problem: string } {
  const t = text.trim()
  const m = /^\[([^\]]+)\](?::(\d+))?$/.exec(t) ?? /^([^:]+)(?::(\d+))?$/.exec(t)
  // a bare IPv6 address has colons of its own: it is all host
  const [host, port] = m
    ? [m[1], m[2]]
    : t.includes('::') || /^[0-9a-f:]+$/i.test(t)
      ? [t, undefined]
      : ['', '']
  const problem = host ? hostProblem(host) : `${JSON.stringify(text)} is not HOST:PORT`
  if (problem) return { problem }
  if (port === undefined)
    return portRequired ? { problem: `${JSON.stringify(text)} has no port: write HOST:PORT` } : { host }
  const n = Number(port)
  if (!Number.isInteger(n) || n < 1 || n > 65_535)
    return { problem: `port ${port} is not between 1 and 65535` }
  return { host, port: n }
}
