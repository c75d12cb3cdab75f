import { describe, expect, it } from 'vitest'
import { ChannelRequest } from '../../../../src/contract/monitors.js'
import { record, sendToSmtp, view } from './harness.js'

describe('email provider', () => {
  it('takes {type: "email", to} with an address', () => {
    expect(ChannelRequest.safeParse({ type: 'email', to: 'ops@example.com' }).success).toBe(true)
    expect(ChannelRequest.safeParse({ type: 'email', to: 'not an address' }).success).toBe(false)
    expect(ChannelRequest.safeParse({ type: 'email', url: 'https://x.example/' }).success).toBe(false)
  })

  it('masks the address to its first letter and domain, with no signing secret', () => {
    expect(view({ type: 'email', to: 'ops@example.com' }).target).toBe('o…@example.com')
    expect(record({ type: 'email', to: 'ops@example.com' }).secret).toBeUndefined()
  })

  it('sends the title as subject and the change as text through SMTP', async () => {
    const { delivery, mails } = await sendToSmtp({ type: 'email', to: 'ops@example.com' })
    expect(delivery.status).toBe('delivered')
    expect(mails).toHaveLength(1)
    expect(mails[0]).toMatch(/^RCPT ops@example\.com/)
    expect(mails[0]).toMatch(/Subject: \[sitehealth\] monitor\.down: shop/)
    expect(mails[0]).toMatch(/Monitor: shop \(https:\/\/shop\.example\/\)/)
  })
})
