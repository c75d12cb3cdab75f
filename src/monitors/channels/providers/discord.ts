/** Discord webhooks: `content` (at most 2,000 characters), no mentions parsed. */
import type { WebhookPayload } from '../../../contract/monitors.js'
import type { OutboundRequest, Provider } from './provider.js'
import { json, line, title } from './text.js'
import { checkUrl, maskUrl } from './url.js'

export function discordRequest(p: WebhookPayload): OutboundRequest {
  return json({
    username: 'sitehealth',
    content: `**${title(p)}**\n${line(p)}\n<${p.monitor.url}>`.slice(0, 2000),
    allowed_mentions: { parse: [] },
  })
}

export const discord: Provider = {
  type: 'discord',
  check: (f, ctx) => checkUrl('discord', 'url', f.url, ctx),
  mask: (f) => maskUrl(f.url),
  send: (ch, p, t) => t.post(ch.fields.url, discordRequest(p)),
}
