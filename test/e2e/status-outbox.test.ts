/**
 * The durable fan-out of subscriber notices end to end (docs/status-pages.md): an incident posted to
 * a page with 15 webhook subscribers, whose receiver answers slowly, and `serve` stopped (SIGTERM)
 * mid-fan-out and started again on the same data dir: every subscriber hears of it exactly once,
 * the ones before the stop and the rest after it, and the outbox is empty at the end.
 */
import { once } from 'node:events'
import http from 'node:http'
import type net from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { publicApi, waitFor } from '../helpers/api.js'
import { startServe, UNLIMITED, type Served } from '../helpers/serve.js'

const SUBSCRIBERS = 15

let served: Served
let dataDir: string
let key: string
let receiver: http.Server
let port: number
/** The paths that received the incident, in order. */
const received: string[] = []
const api = publicApi(
  () => served.url,
  () => key,
)

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      received.push(req.url ?? '')
      // slow enough that a stop lands in the middle of the fan-out (8 at once)
      setTimeout(() => res.writeHead(200).end('ok'), 400)
    })
  })
  receiver.listen(0, '127.0.0.1')
  await once(receiver, 'listening')
  port = (receiver.address() as net.AddressInfo).port
  served = await startServe({ args: ['--quiet', ...UNLIMITED] })
  dataDir = served.dataDir
  key = (await served.createKey({ user: 'outbox', credits: 100 })).key
}, 120_000)

afterAll(async () => {
  await served?.stop()
  receiver?.closeAllConnections()
  receiver?.close()
})

describe('subscriber notices across a restart', () => {
  it('reach every subscriber exactly once when serve stops mid-fan-out and starts again', async () => {
    const page = (await api('POST', '/status-pages', { slug: 'outbox', title: 'Outbox', monitor_ids: [] }))
      .body
    for (let i = 0; i < SUBSCRIBERS; i++) {
      const res = await fetch(`${served.url}/status/outbox/subscribers`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ webhook_url: `http://127.0.0.1:${port}/hook/${i}` }),
      })
      expect(res.status).toBe(201)
    }
    const posted = await api('POST', `/status-pages/${page.id}/incidents`, {
      title: 'Checkout errors',
      message: 'Payments fail.',
    })
    expect(posted.status).toBe(201)
    await waitFor(async () => received.length >= 1, 10_000, 'the first webhooks')
    await served.stop({ keepData: true })
    const before = received.length
    expect(before).toBeGreaterThan(0)
    expect(before).toBeLessThan(SUBSCRIBERS)

    served = await startServe({ args: ['--quiet', ...UNLIMITED], dataDir })
    await waitFor(async () => received.length >= SUBSCRIBERS, 20_000, 'the rest after the restart')
    await new Promise((r) => setTimeout(r, 1000))
    expect(received).toHaveLength(SUBSCRIBERS)
    expect(new Set(received).size).toBe(SUBSCRIBERS)
  })
})
