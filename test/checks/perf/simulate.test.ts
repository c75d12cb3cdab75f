/**
 * The simulator's physics, against Lantern's model of a request (Lighthouse's simulated mobile
 * link: RTT 150 ms, 1638.4 Kbps, 10-segment initial window, DNS two round trips).
 */
import { describe, expect, it } from 'vitest'
import { simulate, type SimNode } from '../../../src/checks/perf/simulate.js'

const RTT = 150
const net = (id: string, o: Partial<Extract<SimNode, { kind: 'network' }>> = {}): SimNode => ({
  kind: 'network',
  id,
  origin: 'http://a.test:80',
  host: 'a.test',
  tls: false,
  h2: false,
  bytes: 1000,
  serverMs: 0,
  priority: 0,
  deps: [],
  ...o,
})
const cpu = (id: string, ms: number, deps: string[] = []): SimNode => ({ kind: 'cpu', id, ms, deps })
const end = (nodes: SimNode[], id: string) => simulate(nodes).get(id)!.end

describe('simulate: one request', () => {
  it('pays DNS (2 RTT), the TCP handshake with the request (1.5 RTT), the server and the way back (0.5 RTT)', () => {
    expect(end([net('a', { serverMs: 40 })], 'a')).toBeCloseTo(2 * RTT + 1.5 * RTT + 40 + 0.5 * RTT, -1)
  })

  it('adds one round trip for TLS', () => {
    const plain = end([net('a')], 'a')
    const tls = end([net('a', { tls: true, origin: 'https://a.test:443' })], 'a')
    expect(tls - plain).toBeCloseTo(RTT, -1)
  })

  it('downloads in slow start: the first 14.6 KB come with the first byte, then the window doubles each round trip', () => {
    const first = end([net('a', { bytes: 14_600 })], 'a')
    const more = end([net('a', { bytes: 14_601 + 29_200 })], 'a')
    expect(more - first).toBeGreaterThan(0.9 * RTT)
    expect(more - first).toBeLessThanOrEqual(RTT + 2)
    // ten times the bytes cost far less than ten times the time: the window grows
    const small = end([net('a', { bytes: 50_000 })], 'a')
    const big = end([net('a', { bytes: 500_000 })], 'a')
    expect(big).toBeLessThan(10 * small)
    // and the link caps it: 500 KB cannot beat 1638.4 Kbps
    expect(big).toBeGreaterThan(((500_000 * 8) / (1638.4 * 1024)) * 1000)
  })
})

describe('simulate: connections and the shared link', () => {
  it('reuses a warm connection to the same origin (no DNS, no handshake) but not to another origin', () => {
    const same = end([net('a'), net('b', { deps: ['a'] })], 'b') - end([net('a')], 'a')
    const other =
      end([net('a'), net('b', { deps: ['a'], origin: 'http://b.test:80', host: 'b.test' })], 'b') -
      end([net('a')], 'a')
    expect(same).toBeCloseTo(RTT, -1)
    expect(other).toBeCloseTo(2 * RTT + 2 * RTT, -1)
  })

  it('resolves a host once: a second origin on the same host skips DNS', () => {
    const nodes = [net('a'), net('b', { deps: ['a'], origin: 'http://a.test:8080' })]
    expect(end(nodes, 'b') - end([net('a')], 'a')).toBeCloseTo(2 * RTT, -1)
  })

  it('shares the throughput: two large downloads at once take about twice as long as one', () => {
    const one = end([net('a', { bytes: 1_000_000 })], 'a')
    const both = simulate([net('a', { bytes: 1_000_000 }), net('b', { bytes: 1_000_000 })])
    const last = Math.max(both.get('a')!.end, both.get('b')!.end)
    expect(last / one).toBeGreaterThan(1.7)
    expect(last / one).toBeLessThan(2.2)
  })

  it('opens at most six HTTP/1.1 connections per origin: a seventh request waits for a free one', () => {
    const nodes = Array.from({ length: 7 }, (_, i) => net(`n${i}`, { bytes: 100 }))
    const t = simulate(nodes)
    const starts = nodes.map((n) => t.get(n.id)!.start)
    expect(starts.slice(0, 6).every((s) => s === 0)).toBe(true)
    expect(starts[6]).toBeGreaterThan(0)
  })
})

describe('simulate: the main thread', () => {
  it('runs one task at a time, after its dependencies', () => {
    const t = simulate([net('a'), cpu('x', 100, ['a']), cpu('y', 50, ['a'])])
    const a = t.get('a')!.end
    expect(t.get('x')!.start).toBeGreaterThanOrEqual(a)
    expect(Math.max(t.get('x')!.end, t.get('y')!.end)).toBeCloseTo(a + 150, -1)
  })

  it('ignores dependencies outside the simulated subgraph', () => {
    expect(simulate([cpu('x', 10, ['missing'])]).get('x')!.end).toBeCloseTo(10, 0)
  })
})
