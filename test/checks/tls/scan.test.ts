/**
 * The TLS scan and the legacy retry go through the SSRF guard like every other connection: the
 * literal host is checked, names resolve only through the guarded lookup, and a blocked address is
 * never connected to. Each extra handshake is bounded in time.
 */
import type { AddressInfo } from 'node:net'
import net from 'node:net'
import tls from 'node:tls'
import { request } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGuardedAgent } from '../../../src/checks/http-agent.js'
import { scanHandshakes } from '../../../src/checks/tls/scan.js'
import { makeTestPki, type TestPki } from '../../fixtures/certs.js'

let pki: TestPki
const servers: net.Server[] = []
const sockets = new Set<net.Socket>()
const track = <S extends net.Server>(server: S): S => {
  servers.push(server)
  server.on('connection', (socket: net.Socket) => sockets.add(socket))
  return server
}

/** A TLS server that counts the TCP connections it gets. */
async function tlsServer(options: tls.TlsOptions = {}) {
  const server = tls.createServer({ cert: pki.valid.cert, key: pki.valid.key, ...options }, (s) =>
    s.end('HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok'),
  )
  const seen = { connections: 0 }
  server.on('connection', () => seen.connections++)
  server.on('tlsClientError', () => {})
  track(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { port: (server.address() as AddressInfo).port, seen }
}

beforeAll(async () => {
  pki = await makeTestPki()
}, 60_000)

afterAll(async () => {
  // a server that never reads never sees the client's FIN either: drop its sockets ourselves
  for (const socket of sockets) socket.destroy()
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))))
})

describe('scanHandshakes: the SSRF guard', () => {
  it('never connects to a private address literal unless private targets are allowed', async () => {
    const { port, seen } = await tlsServer()
    const scan = await scanHandshakes(new URL(`https://127.0.0.1:${port}/`), { timeoutMs: 2_000 })
    expect(scan.attempts.every((a) => a.outcome === 'unknown')).toBe(true)
    expect(scan.attempts[0].error).toMatch(/127\.0\.0\.1/)
    expect(seen.connections).toBe(0)
  })

  it('resolves names only through the guarded lookup, which refuses a private answer', async () => {
    const { port, seen } = await tlsServer()
    const looked: string[] = []
    const scan = await scanHandshakes(new URL(`https://rebind.example:${port}/`), {
      timeoutMs: 2_000,
      resolver: async (host) => {
        looked.push(host)
        return [{ address: '127.0.0.1', family: 4 }]
      },
    })
    expect(looked.length).toBeGreaterThan(0)
    expect(new Set(looked)).toEqual(new Set(['rebind.example']))
    expect(scan.attempts.map((a) => a.outcome)).toEqual(['unknown', 'unknown', 'unknown', 'unknown'])
    expect(scan.attempts[0].error).toMatch(/rebind\.example/)
    expect(seen.connections).toBe(0)
  })

  it('connects where the guarded lookup allows: a modern server answers all four questions in two handshakes', async () => {
    const { port, seen } = await tlsServer()
    const scan = await scanHandshakes(new URL(`https://scan.example:${port}/`), {
      timeoutMs: 2_000,
      allowPrivateTargets: true,
      resolver: async () => [{ address: '127.0.0.1', family: 4 }],
    })
    expect(scan.origin).toBe(`https://scan.example:${port}`)
    expect(scan.attempts.map((a) => [a.kind, a.outcome])).toEqual([
      ['TLSv1', 'refused'],
      ['TLSv1.1', 'refused'],
      ['NULL', 'refused'],
      ['anonymous', 'refused'],
    ])
    expect(seen.connections).toBe(2)
  })
})

describe('scanHandshakes: paired questions (testssl.sh asks each alone; the answers must agree)', () => {
  const scanOf = async (options: tls.TlsOptions) => {
    const { port, seen } = await tlsServer(options)
    const scan = await scanHandshakes(new URL(`https://127.0.0.1:${port}/`), {
      timeoutMs: 2_000,
      allowPrivateTargets: true,
    })
    return { outcomes: scan.attempts.map((a) => [a.kind, a.outcome]), scan, connections: seen.connections }
  }

  it('a TLS 1.0-only server: TLS 1.0 accepted, 1.1 not, without a third handshake', async () => {
    const r = await scanOf({ minVersion: 'TLSv1', maxVersion: 'TLSv1', ciphers: 'DEFAULT:@SECLEVEL=0' })
    expect(r.outcomes).toEqual([
      ['TLSv1', 'accepted'],
      ['TLSv1.1', 'refused'],
      ['NULL', 'refused'],
      ['anonymous', 'refused'],
    ])
    expect(r.connections).toBe(2)
  })

  it('a TLS 1.1-only server: asks TLS 1.0 alone after 1.1 was chosen', async () => {
    const r = await scanOf({ minVersion: 'TLSv1.1', maxVersion: 'TLSv1.1', ciphers: 'DEFAULT:@SECLEVEL=0' })
    expect(r.outcomes).toEqual([
      ['TLSv1', 'refused'],
      ['TLSv1.1', 'accepted'],
      ['NULL', 'refused'],
      ['anonymous', 'refused'],
    ])
    expect(r.connections).toBe(3)
  })

  it('a server with both NULL and anonymous suites: both found, whichever it picks first', async () => {
    const r = await scanOf({
      maxVersion: 'TLSv1.2',
      ciphers: 'ECDHE-RSA-AES128-GCM-SHA256:NULL-SHA256:AECDH-AES128-SHA:@SECLEVEL=0',
    })
    expect(r.outcomes.slice(2)).toEqual([
      ['NULL', 'accepted'],
      ['anonymous', 'accepted'],
    ])
    expect(r.scan.attempts[2].cipher).toBe('TLS_RSA_WITH_NULL_SHA256')
    expect(r.scan.attempts[3].cipher).toBe('TLS_ECDH_anon_WITH_AES_128_CBC_SHA')
    expect(r.connections).toBe(3) // the legacy pair, the weak pair, the kind it did not pick
  })
})

describe('scanHandshakes: bounded in time', () => {
  it('gives up on a server that never answers the ClientHello, with no verdict', async () => {
    const silent = track(net.createServer(() => {}))
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    const port = (silent.address() as AddressInfo).port
    const scan = await scanHandshakes(new URL(`https://127.0.0.1:${port}/`), {
      timeoutMs: 300,
      allowPrivateTargets: true,
    })
    expect(scan.attempts.every((a) => a.outcome === 'unknown' && a.error === 'no answer within 300 ms')).toBe(
      true,
    )
  })

  it('stops when the check ends', async () => {
    const silent = track(net.createServer(() => {}))
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    const port = (silent.address() as AddressInfo).port
    const abort = new AbortController()
    const pending = scanHandshakes(new URL(`https://127.0.0.1:${port}/`), {
      timeoutMs: 60_000,
      allowPrivateTargets: true,
      signal: abort.signal,
    })
    setTimeout(() => abort.abort(), 50)
    const scan = await pending
    expect(scan.attempts.every((a) => a.error === 'the check ended first')).toBe(true)
  })
})

describe('the legacy retry of the guarded connector', () => {
  it('retries once, through the guarded lookup, only after a protocol-version refusal', async () => {
    const { port, seen } = await tlsServer({
      minVersion: 'TLSv1',
      maxVersion: 'TLSv1',
      ciphers: 'DEFAULT:@SECLEVEL=0',
    })
    const looked: string[] = []
    const resolver = async (host: string) => {
      looked.push(host)
      return [{ address: '127.0.0.1', family: 4 as const }]
    }
    const url = new URL(`https://legacy.example:${port}/`)
    const agentOpts = {
      allowPrivateTargets: true,
      extraCA: pki.ca.cert,
      connectTimeoutMs: 2_000,
      ioTimeoutMs: 2_000,
      resolver,
    }

    // without the option the floor holds: the handshake fails
    const strict = createGuardedAgent(agentOpts)
    await expect(request(url, { dispatcher: strict.agent })).rejects.toMatchObject({
      code: 'ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION',
    })
    await strict.destroy()
    const before = { connections: seen.connections, lookups: looked.length }

    const legacy = createGuardedAgent({ ...agentOpts, legacyFallback: true })
    const res = await request(url, { dispatcher: legacy.agent })
    await res.body.dump()
    expect(res.statusCode).toBe(200)
    expect(legacy.connections[0].tls).toMatchObject({ protocol: 'TLSv1', legacyFallback: true })
    // one modern attempt, one legacy attempt, each resolved through the guarded lookup
    expect(seen.connections - before.connections).toBe(2)
    expect(looked.length - before.lookups).toBe(2)
    await legacy.destroy()
  })

  it('does not retry a modern server, nor a refusal for another reason', async () => {
    const modern = await tlsServer()
    const agent = createGuardedAgent({
      allowPrivateTargets: true,
      extraCA: pki.ca.cert,
      connectTimeoutMs: 2_000,
      ioTimeoutMs: 2_000,
      legacyFallback: true,
    })
    const res = await request(`https://127.0.0.1:${modern.port}/`, { dispatcher: agent.agent })
    await res.body.dump()
    expect(agent.connections[0].tls).toMatchObject({ protocol: 'TLSv1.3', legacyFallback: false })
    expect(modern.seen.connections).toBe(1)

    // plain text on the port: a TLS failure, but not about the protocol version
    const plain = net.createServer((s) => s.once('data', () => s.end('HTTP/1.1 400 Bad Request\r\n\r\n')))
    track(plain)
    let plainConnections = 0
    plain.on('connection', () => plainConnections++)
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve))
    await expect(
      request(`https://127.0.0.1:${(plain.address() as AddressInfo).port}/`, { dispatcher: agent.agent }),
    ).rejects.toBeTruthy()
    expect(plainConnections).toBe(1)
    await agent.destroy()
  })
})
