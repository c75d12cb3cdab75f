/**
 * A page-load simulator in the manner of Lighthouse's Lantern: a dependency graph of network
 * requests and main-thread tasks is played on a simulated link, so what counts is the critical
 * path, not the sum of sizes. A request pays DNS (once per host), the TCP and TLS handshakes on a
 * cold connection, the server's own wait and one round trip, then downloads in TCP slow start
 * (the congestion window doubles every round trip up to what the link carries in one RTT).
 * Connections are kept per origin (six for HTTP/1.1; one for h2, whose requests are streams
 * sharing its window) and stay warm with the window they reached; the link's throughput is shared by every request in flight; one main thread runs
 * the tasks, slowed down by the CPU factor before they get here.
 *
 * Time advances from event to event (a first byte, a finished transfer or task, a window doubling
 * after a round trip), so a run costs a few thousand steps for a heavy page.
 */
import { SIMULATED_MOBILE } from './constants.js'

export interface NetworkNode {
  kind: 'network'
  id: string
  /** `protocol//host:port`: connections are shared per origin. */
  origin: string
  /** DNS is resolved once per host. */
  host: string
  tls: boolean
  h2: boolean
  /** Bytes on the wire (the response body as sent, headers aside). */
  bytes: number
  /** The server's own think time for this request, ms. */
  serverMs: number
  /** Lower starts first when several are ready (0 = highest). */
  priority: number
  deps: string[]
}

export interface CpuNode {
  kind: 'cpu'
  id: string
  /** Duration on the simulated (slowed-down) CPU, ms. */
  ms: number
  deps: string[]
}

export type SimNode = NetworkNode | CpuNode

export interface Link {
  rttMs: number
  throughputBps: number
  initialCongestionWindow: number
  segmentBytes: number
  dnsRoundTrips: number
  connectionsPerOrigin: number
  maxConcurrentRequests: number
}

export interface NodeTiming {
  start: number
  end: number
}

/** Events closer than this are taken together; times are reported to the millisecond anyway. */
const MIN_STEP_MS = 0.01
const EPSILON = 1e-6
/** A page that takes longer than this is scored zero anyway; stop there. */
const HORIZON_MS = 120_000

interface Connection {
  h2: boolean
  /** When the handshake is (or will be) done; null before the first request. */
  openAt: number | null
  /** Requests on it now (HTTP/1.1: at most one; h2: any number of streams). */
  streams: number
  cwnd: number
  /** Time since the window last doubled, while data flows. */
  sinceWindow: number
}

interface Transfer {
  node: NetworkNode
  conn: Connection
  waitLeft: number
  bytesLeft: number
  receiving: boolean
}

/**
 * Plays the graph and returns when every node started and ended (ms from navigation start).
 * Dependencies on ids that are not in `nodes` are ignored, so a metric can simulate a subgraph.
 */
export function simulate(nodes: readonly SimNode[], link: Link = SIMULATED_MOBILE): Map<string, NodeTiming> {
  const byId = new Map(nodes.map((n) => [n.id, n]))
  const deps = new Map(nodes.map((n) => [n.id, n.deps.filter((d) => byId.has(d) && d !== n.id)]))
  const order = new Map(nodes.map((n, i) => [n.id, i]))
  const timings = new Map<string, NodeTiming>()
  const done = new Set<string>()
  const pools = new Map<string, Connection[]>()
  const dnsResolvedAt = new Map<string, number>()
  const transfers: Transfer[] = []
  let cpu: { node: CpuNode; left: number } | null = null
  const pending = new Set(nodes.map((n) => n.id))

  const ready = () =>
    [...pending]
      .filter((id) => deps.get(id)!.every((d) => done.has(d)))
      .map((id) => byId.get(id)!)
      .sort(
        (a, b) =>
          (a.kind === 'network' ? a.priority : 0) - (b.kind === 'network' ? b.priority : 0) ||
          order.get(a.id)! - order.get(b.id)!,
      )

  let now = 0
  const finish = (id: string, start: number) => {
    timings.set(id, { start, end: now })
    done.add(id)
  }
  const started = new Map<string, number>()

  while (pending.size > 0 || transfers.length > 0 || cpu) {
    // start what can start
    for (const node of ready()) {
      if (node.kind === 'cpu') {
        if (cpu) continue
        pending.delete(node.id)
        started.set(node.id, now)
        if (node.ms <= 0) finish(node.id, now)
        else cpu = { node, left: node.ms }
        continue
      }
      if (transfers.length >= link.maxConcurrentRequests) continue
      const conn = connectionFor(pools, node, link)
      if (!conn) continue
      pending.delete(node.id)
      started.set(node.id, now)
      conn.streams++
      const wait = firstByteWait(conn, node, now, link, dnsResolvedAt)
      transfers.push({ node, conn, waitLeft: wait, bytesLeft: node.bytes, receiving: false })
    }
    if (transfers.length === 0 && !cpu) {
      if (pending.size === 0) break
      // nothing runs and nothing can start: a dependency cycle or a node waiting on nothing
      throw new Error(`simulation stalled with ${pending.size} nodes pending`)
    }
    if (now > HORIZON_MS) {
      for (const t of transfers) finish(t.node.id, started.get(t.node.id)!)
      if (cpu) finish(cpu.node.id, started.get(cpu.node.id)!)
      for (const id of pending) timings.set(id, { start: now, end: now })
      break
    }

    // advance to the next event: a first byte, a finished transfer or task, a window doubling
    const window = maxWindow(link, transfers.length)
    const receiving = new Map<Connection, number>()
    for (const t of transfers) if (t.receiving) receiving.set(t.conn, (receiving.get(t.conn) ?? 0) + 1)
    // each request gets its share of the link; the streams of one connection share its window
    const rate = (t: Transfer) => {
      const k = receiving.get(t.conn) ?? 1
      return (Math.min(t.conn.cwnd / k, window) * link.segmentBytes) / link.rttMs
    }
    let step = cpu ? cpu.left : Infinity
    for (const t of transfers) step = Math.min(step, t.receiving ? t.bytesLeft / rate(t) : t.waitLeft)
    for (const c of receiving.keys()) step = Math.min(step, link.rttMs - c.sinceWindow)
    step = Math.max(step, MIN_STEP_MS)
    now += step
    if (cpu) {
      cpu.left -= step
      if (cpu.left <= EPSILON) {
        finish(cpu.node.id, started.get(cpu.node.id)!)
        cpu = null
      }
    }
    for (const [c, k] of receiving) {
      c.sinceWindow += step
      if (c.sinceWindow >= link.rttMs - EPSILON) {
        c.sinceWindow = 0
        // slow start: twice as much each round trip, up to what the link carries
        c.cwnd = Math.max(1, Math.min(window * k, c.cwnd * 2))
      }
    }
    for (const t of [...transfers]) {
      if (t.receiving) t.bytesLeft -= rate(t) * step
      else {
        t.waitLeft -= step
        if (t.waitLeft > EPSILON) continue
        t.receiving = true
        if (!receiving.has(t.conn)) {
          // the first flight: the connection's whole window arrives with the first byte
          t.conn.cwnd = Math.min(t.conn.cwnd, window)
          t.bytesLeft -= t.conn.cwnd * link.segmentBytes
          t.conn.cwnd = Math.min(window, t.conn.cwnd * 2)
          t.conn.sinceWindow = 0
        }
      }
      if (t.bytesLeft <= EPSILON) {
        t.conn.streams--
        transfers.splice(transfers.indexOf(t), 1)
        finish(t.node.id, started.get(t.node.id)!)
      }
    }
  }
  return timings
}

/** The connection a request goes on: the origin's h2 one, or a free HTTP/1.1 one (null: none free). */
function connectionFor(pools: Map<string, Connection[]>, node: NetworkNode, link: Link): Connection | null {
  let pool = pools.get(node.origin)
  if (!pool) {
    const size = node.h2 ? 1 : link.connectionsPerOrigin
    pool = Array.from({ length: size }, () => ({
      h2: node.h2,
      openAt: null,
      streams: 0,
      cwnd: link.initialCongestionWindow,
      sinceWindow: 0,
    }))
    pools.set(node.origin, pool)
  }
  // h2 multiplexes every request on its one connection; HTTP/1.1 takes a free connection, the
  // one with the largest window (a warm one, usually), as Lantern does
  if (pool[0].h2) return pool[0]
  let best: Connection | null = null
  const rank = (c: Connection) => (c.openAt === null ? 0 : 1_000_000) + c.cwnd
  for (const c of pool) if (c.streams === 0 && (!best || rank(c) > rank(best))) best = c
  return best
}

/** The congestion window (segments) one of `inFlight` requests can use on the link. */
const maxWindow = (link: Link, inFlight: number) =>
  Math.max(
    1,
    Math.floor(((link.throughputBps / Math.max(1, inFlight) / 8) * (link.rttMs / 1000)) / link.segmentBytes),
  )

/**
 * Time to a request's first byte. A new connection: DNS (once per host), SYN, SYN-ACK, ACK with
 * the request (1.5 RTT), one more for TLS (False Start), then the server's wait and the first
 * byte's way back. An open connection (or, for an h2 stream, one still shaking hands): the
 * request's way there, the server, the first byte's way back.
 */
function firstByteWait(
  conn: Connection,
  node: NetworkNode,
  now: number,
  link: Link,
  dnsResolvedAt: Map<string, number>,
): number {
  const rtt = link.rttMs
  if (conn.openAt !== null) return Math.max(0, conn.openAt - now) + rtt / 2 + node.serverMs + rtt / 2
  const resolvedAt = dnsResolvedAt.get(node.host)
  const dns = resolvedAt === undefined ? link.dnsRoundTrips * rtt : Math.max(0, resolvedAt - now)
  if (resolvedAt === undefined) dnsResolvedAt.set(node.host, now + dns)
  conn.openAt = now + dns + rtt + (node.tls ? rtt : 0)
  return dns + 1.5 * rtt + (node.tls ? rtt : 0) + node.serverMs + rtt / 2
}
