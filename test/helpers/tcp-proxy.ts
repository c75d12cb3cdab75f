/**
 * A TCP proxy the test controls, put between `serve` (or a store) and the shared PostgreSQL or
 * Redis, so that a test can make a dependency fail without touching the shared server (never stop
 * or freeze those: other helpers' tests use them):
 *
 *   cut()      ends every open connection (a restart or a network blip); new ones go through
 *   refuse()   cuts and stops listening: connecting gets ECONNREFUSED (the server is down)
 *   stall()    stops forwarding in both directions, also on new connections (a frozen process or
 *              a network partition: connections open, nothing comes back); resume() flushes what
 *              was held and forwards again
 *   accept()   listens again on the same port after refuse()
 */
import { once } from 'node:events'
import net from 'node:net'

export interface TcpProxy {
  readonly port: number
  /** `url` with its host and port replaced by the proxy's. */
  via(url: string): string
  cut(): void
  refuse(): Promise<void>
  accept(): Promise<void>
  stall(): void
  resume(): void
  /** Connections opened through the proxy so far. */
  readonly connections: number
  close(): Promise<void>
}

interface Pair {
  client: net.Socket
  upstream: net.Socket
  /** Chunks held while stalled, per direction. */
  toUpstream: Buffer[]
  toClient: Buffer[]
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const pairs = new Set<Pair>()
  let stalled = false
  let opened = 0

  const forward = (pair: Pair, chunk: Buffer, to: 'toUpstream' | 'toClient') => {
    if (stalled) pair[to].push(chunk)
    else (to === 'toUpstream' ? pair.upstream : pair.client).write(chunk)
  }

  const server = net.createServer((client) => {
    opened++
    const upstream = net.connect(target.port, target.host)
    const pair: Pair = { client, upstream, toUpstream: [], toClient: [] }
    pairs.add(pair)
    const end = () => {
      pairs.delete(pair)
      client.destroy()
      upstream.destroy()
    }
    client.on('data', (c: Buffer) => forward(pair, c, 'toUpstream'))
    upstream.on('data', (c: Buffer) => forward(pair, c, 'toClient'))
    client.on('error', end).on('close', end)
    upstream.on('error', end).on('close', end)
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const port = (server.address() as net.AddressInfo).port

  const cut = () => {
    for (const p of [...pairs]) {
      p.client.destroy()
      p.upstream.destroy()
    }
    pairs.clear()
  }

  return {
    port,
    via(url: string) {
      const u = new URL(url)
      u.hostname = '127.0.0.1'
      u.port = String(port)
      return u.toString()
    },
    cut,
    async refuse() {
      const closed = new Promise<void>((r) => server.close(() => r()))
      cut()
      await closed
    },
    async accept() {
      if (server.listening) return
      server.listen(port, '127.0.0.1')
      await once(server, 'listening')
    },
    stall() {
      stalled = true
    },
    resume() {
      stalled = false
      for (const p of pairs) {
        for (const c of p.toUpstream.splice(0)) p.upstream.write(c)
        for (const c of p.toClient.splice(0)) p.client.write(c)
      }
    },
    get connections() {
      return opened
    },
    async close() {
      stalled = false
      cut()
      if (server.listening) await new Promise<void>((r) => server.close(() => r()))
    },
  }
}
