/**
 * What a dns monitor asks (docs/monitoring.md#dns-monitors): the record types it queries and the
 * resolver it may ask instead of the system's, `IP[:port]`, declared once for the create shape,
 * the engine (src/checks/endpoint/dns.ts) and the faces.
 */
import { z } from 'zod'

export const DNS_RECORD_TYPES = ['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'NS', 'SOA', 'CAA', 'SRV'] as const
export type DnsRecordType = (typeof DNS_RECORD_TYPES)[number]

/** A resolver as the engine asks it: an IP address and a port (53 when none is written). */
export interface ResolverAddress {
  address: string
  port: number
  family: 4 | 6
}

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/

function ipv6(text: string): string | null {
  if (!text.includes(':')) return null
  try {
    return new URL(`http://[${text}]/`).hostname.slice(1, -1)
  } catch {
    return null
  }
}

/**
 * `IP[:port]` read: `9.9.9.9`, `9.9.9.9:5353`, `2620:fe::fe`, `[2620:fe::fe]:5353`. A name is
 * refused (the resolver is what answers names). Returns the address or why it is none.
 */
export function readResolver(input: string): ResolverAddress | { problem: string } {
  const text = input.trim()
  const bad = {
    problem: `resolver ${JSON.stringify(input)} is not IP[:port] (such as 9.9.9.9, 9.9.9.9:5353 or [2620:fe::fe]:53)`,
  }
  let host = text
  let portText: string | undefined
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(text)
  if (bracketed) [, host, portText] = bracketed
  else if (/^[\d.]+:\d+$/.test(text)) [host, portText] = text.split(':')
  const port = portText === undefined ? 53 : Number(portText)
  if (!Number.isInteger(port) || port < 1 || port > 65_535) return bad
  if (IPV4.test(host)) return { address: host, port, family: 4 }
  const v6 = ipv6(host)
  return v6 === null ? bad : { address: v6, port, family: 6 }
}

/** The resolver as `setServers` and the faces write it: `9.9.9.9`, `9.9.9.9:5353`, `[2620:fe::fe]:53`. */
export function resolverText(r: ResolverAddress): string {
  const host = r.family === 6 ? `[${r.address}]` : r.address
  return r.port === 53 && r.family === 4 ? host : `${host}:${r.port}`
}

export const DnsRecordTypeField = z.enum(DNS_RECORD_TYPES).meta({
  description: `dns monitors: the record type to query: ${DNS_RECORD_TYPES.join(', ')}.`,
})

export const Resolver = z
  .string()
  .min(1)
  .max(60)
  .superRefine((r, ctx) => {
    const read = readResolver(r)
    if ('problem' in read) ctx.addIssue({ code: 'custom', message: read.problem })
  })
  .meta({
    description:
      'dns monitors: the resolver to ask, `IP[:port]` (port 53 by default); absent: the system resolver. The SSRF guard applies: a private or local address is refused unless the server allows them.',
    examples: ['9.9.9.9', '1.1.1.1:53', '[2620:fe::fe]:53'],
  })
