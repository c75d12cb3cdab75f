import { describe, expect, it } from 'vitest'
import { ChannelRequest } from '../../../../src/contract/monitors.js'
import { record, sendToReceiver, view } from './harness.js'

describe('slack provider', () => {
  it('takes {type, url}', () => {
    expect(
      ChannelRequest.safeParse({ type: 'slack', url: 'https://hooks.slack.com/services/T/B/X' }).success,
    ).toBe(true)
    expect(ChannelRequest.safeParse({ type: 'slack', url: '' }).success).toBe(false)
  })

  it('masks its URL to the origin and the last 4 characters, with no signing secret', () => {
    const req = { type: 'slack' as const, url: 'https://hooks.slack.com/services/T000/B000/XXXXsecret' }
    expect(view(req).target).toBe('https://hooks.slack.com/…cret')
    expect(record(req).secret).toBeUndefined()
  })

  it('refuses a private URL at create', () => {
    expect(() => record({ type: 'slack', url: 'http://10.0.0.1/hook' }, false)).toThrow(/channels\.0\.url/)
  })

  it('POSTs {text} in mrkdwn with the title bold and the site linked', async () => {
    const { delivery, got } = await sendToReceiver((url) => ({ type: 'slack', url }))
    expect(delivery.status).toBe('delivered')
    expect(got[0].headers['content-type']).toBe('application/json')
    expect(JSON.parse(got[0].body)).toEqual({
      text: '*[sitehealth] monitor.down: shop*\nhttps://shop.example/ is down. State up → down.\n<https://shop.example/>',
    })
  })
})
