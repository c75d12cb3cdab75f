import { describe, expect, it } from 'vitest'
import { ChannelRequest } from '../../../../src/contract/monitors.js'
import { record, sendToReceiver, view } from './harness.js'

describe('discord provider', () => {
  it('takes {type, url}', () => {
    expect(
      ChannelRequest.safeParse({ type: 'discord', url: 'https://discord.com/api/webhooks/1/x' }).success,
    ).toBe(true)
    expect(ChannelRequest.safeParse({ type: 'discord', url: 'https://x', extra: 1 }).success).toBe(false)
  })

  it('masks its URL and has no signing secret', () => {
    const req = { type: 'discord' as const, url: 'https://discord.com/api/webhooks/1/tokenABCD' }
    expect(view(req).target).toBe('https://discord.com/…ABCD')
    expect(record(req).secret).toBeUndefined()
  })

  it('POSTs {content} as bold title and line, mentions not parsed', async () => {
    const { delivery, got } = await sendToReceiver((url) => ({ type: 'discord', url }))
    expect(delivery.status).toBe('delivered')
    const body = JSON.parse(got[0].body)
    expect(body).toEqual({
      username: 'sitehealth',
      content:
        '**[sitehealth] monitor.down: shop**\nhttps://shop.example/ is down. State up → down.\n<https://shop.example/>',
      allowed_mentions: { parse: [] },
    })
  })
})
