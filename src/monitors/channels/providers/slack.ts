/** Slack incoming webhooks: `{text}` in Slack's mrkdwn, the title bold and the site linked. */
import type { WebhookPayload } from '../../../contract/monitors.js'
import type { OutboundRequest, Provider } from './provider.js'
import { json, line, title } from './text.js'
import { checkUrl, maskUrl } from './url.js'

export function slackRequest(p: WebhookPayload): OutboundRequest {
  return json({ text: `*${title(p)}*\n${line(p)}\n<${p.monitor.url}>` })
}

export const slack: Provider = {
  type: 'slack',
  check: (f, ctx) => checkUrl('slack', 'url', f.url, ctx),
  mask: (f) => maskUrl(f.url),
  send: (ch, p, t) => t.post(ch.fields.url, slackRequest(p)),
}
