import { createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { ChannelRequest } from '../../../../src/contract/monitors.js'
import { webhookRequest } from '../../../../src/monitors/channels/providers/webhook.js'
import { payload, record, sendToReceiver, view } from './harness.js'

describe('webhook provider', () => {
  it('takes {type, url}; refuses a missing url and unknown fields', () => {
    expect(ChannelRequest.safeParse({ type: 'webhook', url: 'https://hooks.example.com/x' }).success).toBe(
      true,
    )
    expect(ChannelRequest.safeParse({ type: 'webhook' }).success).toBe(false)
    expect(ChannelRequest.safeParse({ type: 'webhook', to: 'ops@example.com' }).success).toBe(false)
  })

  it('refuses a private URL at create unless private targets are allowed', () => {
    expect(() => record({ type: 'webhook', url: 'http://127.0.0.1/hook' }, false)).toThrow(
      /Invalid webhook URL \(channels\.0\.url\)/,
    )
  })

  it('masks its URL and gets a signing secret, shown once', () => {
    const { c, secret } = record({ type: 'webhook', url: 'https://hooks.example.com/services/abcd1234' })
    expect(secret).toMatch(/^whsec_/)
    const v = view({ type: 'webhook', url: 'https://hooks.example.com/services/abcd1234' })
    expect(v.target).toBe('https://hooks.example.com/…1234')
    expect(v.secret).toBeUndefined()
    expect(JSON.stringify(c)).not.toContain(secret)
  })

  it('signs "<timestamp>.<body>" with HMAC-SHA256', () => {
    const req = webhookRequest(payload, 'whsec_test', 1_700_000_000_000)
    expect(req.headers['x-sitehealth-timestamp']).toBe('1700000000')
    const want = createHmac('sha256', 'whsec_test').update(`1700000000.${req.body}`).digest('hex')
    expect(req.headers['x-sitehealth-signature']).toBe(`sha256=${want}`)
  })

  it('POSTs the event as JSON, signed with the channel secret, to a local receiver', async () => {
    const { delivery, got, secret } = await sendToReceiver((url) => ({ type: 'webhook', url }))
    expect(delivery.status).toBe('delivered')
    expect(got).toHaveLength(1)
    const h = got[0]
    expect(h.headers['content-type']).toBe('application/json')
    expect(h.headers['x-sitehealth-event']).toBe('monitor.down')
    expect(JSON.parse(h.body)).toEqual(payload)
    const ts = String(h.headers['x-sitehealth-timestamp'])
    const want = createHmac('sha256', secret!).update(`${ts}.${h.body}`).digest('hex')
    expect(h.headers['x-sitehealth-signature']).toBe(`sha256=${want}`)
  })
})
