/** The deliverer on its own: email over SMTP, the SSRF guard, per-attempt time limits, back-off. */
import { once } from 'node:events'
import net from 'node:net'
import { SMTPServer } from 'smtp-server'
import { afterEach, describe, expect, it } from 'vitest'
import type { Delivery, WebhookPayload } from '../../src/contract/monitors.js'
import { providerFace } from '../../src/contract/channels.js'
import { Deliverer } from '../../src/monitors/channels/deliver.js'
import { sealChannel } from '../../src/monitors/channels/records.js'
import type { ChannelRecord } from '../../src/store/monitors.js'
import { startReceiver } from './fixtures.js'

const payload: WebhookPayload = {
  event: 'certificate.expiring',
  occurred_at: '2026-01-01T00:00:00.000Z',
  monitor: { id: '01a2084a-9dd6-76a2-9367-c897e9bd68ee', name: 'shop', url: 'https://shop.example/' },
  check: null,
  previous_state: 'up',
  state: 'up',
  message: 'The certificate of https://shop.example/ expires in 5 days',
}
const start = (c: ChannelRecord): Delivery => ({
  channel_id: c.id,
  type: c.type,
  status: 'pending',
  attempts: 0,
  last_attempt_at: null,
  last_error: null,
})
/** A channel to `target`, "sealed" by a box that seals nothing (the deliverers here open with `s => s`). */
const channel = (type: ChannelRecord['type'], target: string): ChannelRecord =>
  sealChannel(
    { id: '01a2084a-9dd6-76a2-9367-c897e9bd68ef', type, fields: { [providerFace(type).target]: target } },
    { seal: (s) => s, open: (s) => s },
  )

const closers: Array<() => Promise<unknown>> = []
afterEach(async () => {
  for (const c of closers.splice(0)) await c()
})

describe('alert delivery', () => {
  it('sends email over SMTP (serve --smtp-url)', async () => {
    const mails: string[] = []
    const smtp = new SMTPServer({
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData(stream, _session, cb) {
        let text = ''
        stream.on('data', (c: Buffer) => (text += c.toString()))
        stream.on('end', () => {
          mails.push(text)
          cb()
        })
      },
    })
    smtp.listen(0, '127.0.0.1')
    await once(smtp.server, 'listening')
    const port = (smtp.server.address() as net.AddressInfo).port
    closers.push(() => new Promise((r) => smtp.close(() => r(undefined))))
    const d = new Deliverer({
      allowPrivateTargets: true,
      smtpUrl: `smtp://127.0.0.1:${port}`,
      smtpFrom: 'alerts@sitehealth.test',
      openSecret: (s) => s,
    })
    closers.push(() => d.close())
    const c = channel('email', 'ops@example.com')
    const records: Delivery[] = []
    const out = await d.deliver(c, payload, start(c), async (x) => void records.push(x))
    expect(out).toMatchObject({ status: 'delivered', attempts: 1 })
    expect(records).toHaveLength(1)
    expect(mails).toHaveLength(1)
    expect(mails[0]).toMatch(/Subject: \[sitehealth\] certificate\.expiring: shop/)
    expect(mails[0]).toMatch(/expires in 5 days/)
  })

  it('refuses a private alert URL without --allow-private-targets, without retrying', async () => {
    const receiver = await startReceiver()
    closers.push(() => receiver.close())
    const d = new Deliverer({ allowPrivateTargets: false, backoffMs: 1, openSecret: (s) => s })
    closers.push(() => d.close())
    const c = channel('slack', receiver.url('/s'))
    const out = await d.deliver(c, payload, start(c), async () => {})
    expect(out).toMatchObject({ status: 'failed', attempts: 1 })
    expect(out.last_error).toMatch(/private|loopback|not allowed|blocked/i)
    expect(receiver.received).toHaveLength(0)
  })

  it('times out a receiver that never answers, retries with back-off, then gives up', async () => {
    const silent = net.createServer(() => {})
    silent.listen(0, '127.0.0.1')
    await once(silent, 'listening')
    const sockets = new Set<net.Socket>()
    silent.on('connection', (s) => sockets.add(s))
    closers.push(async () => {
      for (const s of sockets) s.destroy()
      await new Promise((r) => silent.close(r))
    })
    const port = (silent.address() as net.AddressInfo).port
    const d = new Deliverer({
      allowPrivateTargets: true,
      timeoutMs: 200,
      maxAttempts: 3,
      backoffMs: 20,
      openSecret: (s) => s,
    })
    closers.push(() => d.close())
    const c = channel('discord', `http://127.0.0.1:${port}/hook`)
    const seen: Delivery[] = []
    const t0 = Date.now()
    const out = await d.deliver(c, payload, start(c), async (x) => void seen.push(x))
    expect(out).toMatchObject({ status: 'failed', attempts: 3 })
    expect(out.last_error).toMatch(/200 ms/)
    expect(seen.map((x) => x.status)).toEqual(['pending', 'pending', 'failed'])
    expect(Date.now() - t0).toBeLessThan(10_000)
  })
})
