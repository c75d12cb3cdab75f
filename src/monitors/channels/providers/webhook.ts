/**
 * The signed webhook (docs/decisions.md#monitors-and-alerts): the event as JSON, with
 * X-Sitehealth-Timestamp and an HMAC-SHA256 X-Sitehealth-Signature under the channel's signing
 * secret, made when the channel was and shown once.
 */
import { createHmac } from 'node:crypto'
import type { WebhookPayload } from '../../../contract/monitors.js'
import { PermanentError, type OutboundRequest, type Provider } from './provider.js'
import { checkUrl, maskUrl } from './url.js'

/** `sha256=<hex HMAC-SHA256 of "<timestamp>.<body>">`, the X-Sitehealth-Signature value. */
export function signature(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`
}

export function webhookRequest(p: WebhookPayload, secret: string, now = Date.now()): OutboundRequest {
  const body = JSON.stringify(p)
  const timestamp = String(Math.floor(now / 1000))
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'x-sitehealth-event': p.event,
      'x-sitehealth-timestamp': timestamp,
      'x-sitehealth-signature': signature(secret, timestamp, body),
    },
  }
}

export const webhook: Provider = {
  type: 'webhook',
  check: (f, ctx) => checkUrl('webhook', 'url', f.url, ctx),
  mask: (f) => maskUrl(f.url),
  async send(ch, p, t) {
    if (!ch.signingSecret) throw new PermanentError('The webhook channel has no secret.')
    await t.post(ch.fields.url, webhookRequest(p, ch.signingSecret))
  },
}
