/**
 * The connection cap (src/http/connections.ts) at its edge: at the cap, a newcomer takes the
 * place of an idle connection (one whose responses are all sent), never of one with a request in
 * progress; when every connection is busy, the newcomer is refused.
 */
import { once } from 'node:events'
import { createServer, type Server, type ServerResponse } from 'node:http'
import net from 'node:net'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { limitConnections } from '../../src/http/connections.js'

let server: Server
const held: ServerResponse[] = []
const sockets: net.Socket[] = []

/** A server capped at `max` connections: `/slow` is answered only when released, the rest at once. */
async function start(max: number): Promise<number> {
  server = createServer((req, res) => {
    if (req.url === '/slow') held.push(res)
    else res.end('ok')
  })
  limitConnections(server, max)
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  return (server.address() as AddressInfo).port
}

/** A raw keep-alive client; `reply` resolves with the next response's bytes. */
async function connect(port: number) {
  const socket = net.connect({ host: '127.0.0.1', port })
  sockets.push(socket)
  let closed = false
  socket.once('close', () => (closed = true))
  socket.on('error', () => {})
  await once(socket, 'connect')
  return {
    send: (path: string) => socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`),
    reply: () => once(socket, 'data').then(([d]) => String(d)),
    closedSoon: async () => {
      for (let i = 0; i < 50 && !closed; i++) await new Promise((r) => setTimeout(r, 20))
      return closed
    },
  }
}

afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy()
  for (const res of held.splice(0)) res.destroy()
  server.closeAllConnections()
  await new Promise((r) => server.close(r))
})

describe('connection cap', () => {
  it('evicts an idle keep-alive connection for a newcomer, never one with a request in progress', async () => {
    const port = await start(2)
    const busy = await connect(port)
    busy.send('/slow')
    const idle = await connect(port)
    idle.send('/fast')
    expect(await idle.reply()).toMatch(/^HTTP\/1\.1 200/)
    while (held.length === 0) await new Promise((r) => setTimeout(r, 5))

    const newcomer = await connect(port)
    expect(await idle.closedSoon()).toBe(true)
    newcomer.send('/fast')
    expect(await newcomer.reply()).toMatch(/^HTTP\/1\.1 200/)

    // the request in progress was not cut: its answer still arrives
    const answer = busy.reply()
    held.shift()!.end('late')
    expect(await answer).toMatch(/^HTTP\/1\.1 200[\s\S]*late$/)
  })

  it('refuses a newcomer when every connection has a request in progress', async () => {
    const port = await start(2)
    const a = await connect(port)
    const b = await connect(port)
    a.send('/slow')
    b.send('/slow')
    while (held.length < 2) await new Promise((r) => setTimeout(r, 5))

    const newcomer = await connect(port)
    expect(await newcomer.closedSoon()).toBe(true)
    const answers = [a.reply(), b.reply()]
    for (const res of held.splice(0)) res.end('done')
    for (const answer of await Promise.all(answers)) expect(answer).toMatch(/done$/)
  })
})
