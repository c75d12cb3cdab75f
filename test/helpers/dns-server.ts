/**
 * A DNS server on 127.0.0.1 (UDP, dns-packet) whose answers a test sets and changes: records by
 * name and type, NXDOMAIN for names it does not know, SERVFAIL or silence (a timeout) on demand.
 */
import { createSocket, type Socket } from 'node:dgram'
import * as packet from 'dns-packet'

export type Rcode = 'NOERROR' | 'NXDOMAIN' | 'SERVFAIL' | 'REFUSED'

/** One name's answer: records of each type (dns-packet's `data`), or a failure, or silence. */
export interface Zone {
  [name: string]: { rcode?: Rcode; silent?: boolean; records?: Record<string, unknown[]> }
}

export interface DnsServer {
  port: number
  /** `127.0.0.1:port`, as a dns monitor's resolver. */
  address: string
  zone: Zone
  /** How many queries it was asked. */
  queries: number
  close(): Promise<void>
}

const RCODE_FLAGS: Record<Rcode, number> = { NOERROR: 0, NXDOMAIN: 3, SERVFAIL: 2, REFUSED: 5 }

export async function startDnsServer(zone: Zone = {}): Promise<DnsServer> {
  const socket: Socket = createSocket('udp4')
  const server: DnsServer = {
    port: 0,
    address: '',
    zone,
    queries: 0,
    close: () => new Promise((r) => socket.close(() => r())),
  }
  socket.on('message', (msg, rinfo) => {
    server.queries++
    let query: packet.Packet
    try {
      query = packet.decode(msg)
    } catch {
      return
    }
    const q = query.questions?.[0]
    if (!q) return
    const entry = server.zone[q.name.toLowerCase()]
    if (entry?.silent) return
    const rcode: Rcode = entry ? (entry.rcode ?? 'NOERROR') : 'NXDOMAIN'
    const data = rcode === 'NOERROR' ? (entry?.records?.[q.type] ?? []) : []
    const answers = data.map((d) => ({
      type: q.type,
      class: 'IN',
      name: q.name,
      ttl: 60,
      data: d,
    })) as packet.Answer[]
    const reply = packet.encode({
      type: 'response',
      id: query.id,
      flags: packet.RECURSION_DESIRED | packet.RECURSION_AVAILABLE | RCODE_FLAGS[rcode],
      questions: query.questions,
      answers,
    })
    socket.send(reply, rinfo.port, rinfo.address)
  })
  await new Promise<void>((r) => socket.bind(0, '127.0.0.1', r))
  server.port = socket.address().port
  server.address = `127.0.0.1:${server.port}`
  return server
}
