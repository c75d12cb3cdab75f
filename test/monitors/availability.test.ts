/**
 * Availability first (docs/decisions.md#monitoring-depth): a monitor's state answers "is it
 * working?". A plain-http local site with no security headers, checked by the real engine, is
 * `up`; it raises no monitor.degraded, and its recovery says nothing of "degraded". Only
 * alerts.min_score makes a monitor degraded.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { LowdbStore } from '../../src/store/index.js'
import { withEmbeddedStore } from '../store/each-store.js'
import { monitorService, RecordingDeliverer } from './fixtures.js'

let store: LowdbStore
withEmbeddedStore((s) => (store = s))
let server: Server
let port: number
let answering = true
let status = 200

beforeEach(async () => {
  answering = true
  status = 200
  server = createServer((req, res) => {
    if (!answering) {
      req.socket.destroy()
      return
    }
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' })
    res.end(
      '<!doctype html><html lang="en"><head><title>Intranet</title></head><body><h1>ok</h1></body></html>',
    )
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  port = (server.address() as AddressInfo).port
})
afterEach(async () => {
  server.closeAllConnections()
  await new Promise((r) => server.close(r))
})

function service() {
  const deliverer = new RecordingDeliverer()
  const svc = monitorService(store, deliverer, { allowPrivateTargets: true })
  return { svc, deliverer }
}

describe('availability first', () => {
  it('a plain-http intranet site is up: no monitor.degraded on creation, and a recovery is plainly up', async () => {
    const { svc, deliverer } = service()
    await store.users.ensure('ada', 10)
    const { monitor } = await svc.create('ada', {
      url: `http://127.0.0.1:${port}/`,
      alerts: { down_after: 2 },
      channels: [{ type: 'webhook', url: 'https://hooks.example.com/x' }],
    })
    const first = await svc.run(monitor, 'manual')
    expect(first.kind).toBe('saved')
    // the engine still finds what needs review (http, no security headers): it stays on the check
    if (first.kind === 'saved')
      expect(Object.values(first.report.signals).some((s) => s.status === 'needs_review')).toBe(true)
    expect(first.kind === 'saved' && first.monitor?.state).toBe('up')

    answering = false
    await svc.run(monitor, 'manual')
    const down = await svc.run(monitor, 'manual')
    expect(down.kind === 'failed' && down.monitor?.state).toBe('down')
    answering = true
    const back = await svc.run(monitor, 'manual')
    expect(back.kind === 'saved' && back.monitor?.state).toBe('up')
    await svc.drain()

    expect(deliverer.sent.map((p) => p.event)).toEqual(['monitor.down', 'monitor.up'])
    expect(deliverer.sent[1]!.message).not.toMatch(/degraded/)
    expect(deliverer.sent[1]!.state).toBe('up')
  }, 30_000)

  it('an answer with a server error is down, and monitor.down says what the site answered', async () => {
    const { svc, deliverer } = service()
    await store.users.ensure('ada', 10)
    const { monitor } = await svc.create('ada', {
      url: `http://127.0.0.1:${port}/`,
      alerts: { down_after: 1 },
      channels: [{ type: 'webhook', url: 'https://hooks.example.com/x' }],
    })
    status = 503
    const down = await svc.run(monitor, 'manual')
    expect(down.kind === 'saved' && down.monitor?.state).toBe('down')
    await svc.drain()
    const [alert] = deliverer.sent
    expect(alert?.event).toBe('monitor.down')
    expect(alert?.message).toMatch(/answers 503 Service Unavailable/)
    expect(alert?.message).not.toMatch(/needs_review/)
  }, 30_000)

  it('alerts.min_score makes it degraded (monitor.degraded and score.below), and back up once above', async () => {
    const { svc, deliverer } = service()
    await store.users.ensure('ada', 10)
    const { monitor } = await svc.create('ada', {
      url: `http://127.0.0.1:${port}/`,
      alerts: { min_score: 99 },
      channels: [{ type: 'webhook', url: 'https://hooks.example.com/x' }],
    })
    const first = await svc.run(monitor, 'manual')
    expect(first.kind === 'saved' && first.monitor?.state).toBe('degraded')
    await svc.run(monitor, 'manual') // still degraded: nothing new
    await svc.update('ada', monitor.id, { alerts: { min_score: null } })
    const ok = await svc.run(monitor, 'manual')
    expect(ok.kind === 'saved' && ok.monitor?.state).toBe('up')
    await svc.drain()
    expect(deliverer.sent.map((p) => p.event).sort()).toEqual([
      'monitor.degraded',
      'monitor.up',
      'score.below',
    ])
    const degraded = deliverer.sent.find((p) => p.event === 'monitor.degraded')!
    expect(degraded.message).toMatch(/below 99/)
  }, 30_000)
})
