import { describe, expect, it } from 'vitest'
import { ChannelRequest } from '../../../../src/contract/monitors.js'
import { record, sendToReceiver, view } from './harness.js'

describe('teams provider', () => {
  it('takes {type, url}', () => {
    expect(
      ChannelRequest.safeParse({ type: 'teams', url: 'https://example.webhook.office.com/x' }).success,
    ).toBe(true)
    expect(ChannelRequest.safeParse({ type: 'teams', to: 'a@b.example' }).success).toBe(false)
  })

  it('masks its URL and has no signing secret', () => {
    const req = { type: 'teams' as const, url: 'https://example.webhook.office.com/workflows/zz9876' }
    expect(view(req).target).toBe('https://example.webhook.office.com/…9876')
    expect(record(req).secret).toBeUndefined()
  })

  it('POSTs an Adaptive Card message with a link to the site', async () => {
    const { delivery, got } = await sendToReceiver((url) => ({ type: 'teams', url }))
    expect(delivery.status).toBe('delivered')
    const body = JSON.parse(got[0].body)
    expect(body.type).toBe('message')
    const card = body.attachments[0]
    expect(card.contentType).toBe('application/vnd.microsoft.card.adaptive')
    expect(card.content.type).toBe('AdaptiveCard')
    expect(card.content.body.map((b: { text: string }) => b.text)).toEqual([
      '[sitehealth] monitor.down: shop',
      'https://shop.example/ is down. State up → down.',
    ])
    expect(card.content.actions[0]).toMatchObject({ type: 'Action.OpenUrl', url: 'https://shop.example/' })
  })
})
