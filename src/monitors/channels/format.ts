/**
 * What each channel type receives for an event, as pure functions: the signed webhook of
 * docs/decisions.md#monitors-and-alerts, and the incoming-webhook message formats of Slack (`text`), Discord (`content`)
 * and Microsoft Teams (an Adaptive Card message, the format Teams Workflows webhooks take), and
 * an email's subject and text.
 */
import { createHmac } from 'node:crypto'
import type { ChannelType, WebhookPayload } from '../../contract/monitors.js'

export interface OutboundRequest {
  body: string
  headers: Record<string, string>
}

/** `sha256=<hex HMAC-SHA256 of "<timestamp>.<body>">`, the X-Sitehealth-Signature value. */
export function signature(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`
}

function title(p: WebhookPayload): string {
  return `[sitehealth] ${p.event}: ${p.monitor.name}`
}

function line(p: WebhookPayload): string {
  const score = p.check ? ` Health ${p.check.health_score}/100.` : ''
  return `${p.message}.${score} State ${p.previous_state} → ${p.state}.`
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

export function chatRequest(
  type: Exclude<ChannelType, 'webhook' | 'email'>,
  p: WebhookPayload,
): OutboundRequest {
  let payload: unknown
  if (type === 'slack') payload = { text: `*${title(p)}*\n${line(p)}\n<${p.monitor.url}>` }
  else if (type === 'discord')
    payload = {
      username: 'sitehealth',
      content: `**${title(p)}**\n${line(p)}\n<${p.monitor.url}>`.slice(0, 2000),
      allowed_mentions: { parse: [] },
    }
  else
    payload = {
      type: 'message',
      attachments: [
        {
          contentType: 'application/vnd.microsoft.card.adaptive',
          contentUrl: null,
          content: {
            $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
            type: 'AdaptiveCard',
            version: '1.4',
            body: [
              { type: 'TextBlock', text: title(p), weight: 'Bolder', size: 'Medium', wrap: true },
              { type: 'TextBlock', text: line(p), wrap: true },
            ],
            actions: [{ type: 'Action.OpenUrl', title: 'Open the site', url: p.monitor.url }],
          },
        },
      ],
    }
  return { body: JSON.stringify(payload), headers: { 'content-type': 'application/json' } }
}

export function emailMessage(p: WebhookPayload): { subject: string; text: string } {
  return {
    subject: title(p),
    text: `${line(p)}\n\nMonitor: ${p.monitor.name} (${p.monitor.url})\nEvent: ${p.event} at ${p.occurred_at}\n`,
  }
}

/** A channel target as shown in API answers: enough to recognise, not enough to use. */
export function maskTarget(type: ChannelType, target: string): string {
  if (type === 'email') {
    const at = target.lastIndexOf('@')
    return at > 0 ? `${target[0]}…${target.slice(at)}` : '…'
  }
  try {
    const u = new URL(target)
    const rest = `${u.pathname}${u.search}`
    return rest.length > 1 ? `${u.origin}/…${rest.slice(-4)}` : u.origin
  } catch {
    return '…'
  }
}
