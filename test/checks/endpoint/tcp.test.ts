/**
 * The tcp probe against local listeners: a port that opens (its connect time), a closed port, a
 * listener that never accepts (the timeout), and the SSRF guard on the host: a blocked literal
 * and a name that resolves to a blocked address are refused before anything connects.
 */
import net from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CheckError, probeTcp } from '../../../src/checks/index.js'
import { silentListener, unacceptingPort, type Listening } from '../../helpers/endpoints.js'

let open: Listening
beforeAll(async () => {
  open = await silentListener()
})
afterAll(() => open.close())

const local = { allowPrivateTargets: true, timeoutMs: 5_000 }

async function closedPort(): Promise<number> {
  const s = net.createServer().listen(0, '127.0.0.1')
  await new Promise((r) => s.once('listening', r))
  const port = (s.address() as net.AddressInfo).port
  await new Promise((r) => s.close(r))
  return port
}

describe('probeTcp', () => {
  it('is up when the port opens, with the connect time', async () => {
    const r = await probeTcp('127.0.0.1', open.port, local)
    expect(r.connectMs).toBeGreaterThanOrEqual(0)
  })

  it('fails on a closed port, saying so', async () => {
    const port = await closedPort()
    const err = await probeTcp('127.0.0.1', port, local).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(CheckError)
    expect((err as CheckError).message).toBe(`Could not connect to 127.0.0.1:${port}: connection refused`)
  })

  it('fails once the timeout passes when the listener never accepts', async () => {
    const stuck = await unacceptingPort()
    try {
      const err = await probeTcp('127.0.0.1', stuck.port, { ...local, timeoutMs: 300 }).catch(
        (e: unknown) => e,
      )
      expect((err as CheckError).message).toBe('No answer from 127.0.0.1 within 0.3 s')
    } finally {
      await stuck.close()
    }
  })

  it('refuses a blocked literal and a name that resolves to a blocked address: nothing connects', async () => {
    let connections = 0
    const counted = net.createServer((s) => {
      connections++
      s.destroy()
    })
    counted.listen(0, '127.0.0.1')
    await new Promise((r) => counted.once('listening', r))
    const port = (counted.address() as net.AddressInfo).port
    try {
      const literal = await probeTcp('127.0.0.1', port, { timeoutMs: 2000 }).catch((e: unknown) => e)
      expect(literal).toMatchObject({
        code: 'invalid_url',
        message: expect.stringMatching(/^Blocked for safety: 127\.0\.0\.1/),
      })
      const resolver = async () => [{ address: '127.0.0.1', family: 4 as const }]
      const named = await probeTcp('db.example.com', port, { timeoutMs: 2000, resolver }).catch(
        (e: unknown) => e,
      )
      expect(named).toMatchObject({
        code: 'invalid_url',
        message: 'Blocked for safety: db.example.com resolves to a private or local address',
      })
      expect(connections).toBe(0)
    } finally {
      await new Promise((r) => counted.close(r))
    }
  })
})
