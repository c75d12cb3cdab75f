import { createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import type { WebhookPayload } from '../../src/contract/monitors.js'
import { chatRequest, maskTarget, webhookRequest } from '../../src/monitors/channels/format.js'
import { secretBox } from '../../src/shared/secret-box.js'
import { parseEvery, intervalProblem } from '../../src/monitors/interval.js'

const payload: WebhookPayload = {
  event: 'monitor.down',
  occurred_at: '2026-01-01T00:00:00.000Z',
  monitor: { id: '01a2084a-9dd6-76a2-9367-c897e9bd68ee', name: 'shop', url: 'https://shop.example/' },
  check: null,
  previous_state: 'up',
  state: 'down',
  message: 'https://shop.example/ is down',
}

describe('channels', () => {
  it('signs a webhook as HMAC-SHA256 of "<timestamp>.<body>"', () => {
    const req = webhookRequest(payload, 'whsec_test', 1_700_000_000_000)
    expect(req.headers['x-sitehealth-timestamp']).toBe('1700000000')
    expect(req.headers['x-sitehealth-event']).toBe('monitor.down')
    const want = createHmac('sha256', 'whsec_test').update(`1700000000.${req.body}`).digest('hex')
    expect(req.headers['x-sitehealth-signature']).toBe(`sha256=${want}`)
    expect(JSON.parse(req.body)).toEqual(payload)
  })

  it('speaks Slack, Discord and Teams incoming-webhook formats', () => {
    expect(JSON.parse(chatRequest('slack', payload).body).text).toMatch(/monitor\.down.*shop/)
    const discord = JSON.parse(chatRequest('discord', payload).body)
    expect(discord.content).toMatch(/shop/)
    expect(discord.allowed_mentions).toEqual({ parse: [] })
    const teams = JSON.parse(chatRequest('teams', payload).body)
    expect(teams.type).toBe('message')
    expect(teams.attachments[0].contentType).toBe('application/vnd.microsoft.card.adaptive')
    expect(teams.attachments[0].content.type).toBe('AdaptiveCard')
  })

  it('masks channel targets', () => {
    expect(maskTarget('slack', 'https://hooks.slack.com/services/T000/B000/XXXXsecret')).toBe(
      'https://hooks.slack.com/…cret',
    )
    expect(maskTarget('email', 'ops@example.com')).toBe('o…@example.com')
  })

  it('seals secrets so that only the same key opens them, and tampering fails', () => {
    const box = secretBox('k1')
    const sealed = box.seal('whsec_abc')
    expect(sealed).not.toContain('whsec_abc')
    expect(box.open(sealed)).toBe('whsec_abc')
    expect(() => secretBox('k2').open(sealed)).toThrow()
    expect(() => box.open(sealed.slice(0, -2) + (sealed.endsWith('A') ? 'BB' : 'AA'))).toThrow()
  })

  it('reads --every and bounds intervals', () => {
    expect([
      parseEvery('90'),
      parseEvery('90s'),
      parseEvery('5m'),
      parseEvery('1h'),
      parseEvery('1d'),
    ]).toEqual([90, 90, 300, 3600, 86_400])
    expect(parseEvery('5 minutes')).toBeUndefined()
    expect(parseEvery('0')).toBeUndefined()
    expect(intervalProblem(59)).toMatch(/60/)
    expect(intervalProblem(60)).toBeNull()
    expect(intervalProblem(86_401)).toMatch(/86400/)
    expect(intervalProblem(1, 1)).toBeNull()
  })
})
