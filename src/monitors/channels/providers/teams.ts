/** Microsoft Teams: an Adaptive Card message, the format Teams Workflows webhooks take. */
import type { WebhookPayload } from '../../../contract/monitors.js'
import type { OutboundRequest, Provider } from './provider.js'
import { json, line, title } from './text.js'
import { checkUrl, maskUrl } from './url.js'

export function teamsRequest(p: WebhookPayload): OutboundRequest {
  return json({
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
  })
}

export const teams: Provider = {
  type: 'teams',
  check: (f, ctx) => checkUrl('teams', 'url', f.url, ctx),
  mask: (f) => maskUrl(f.url),
  send: (ch, p, t) => t.post(ch.fields.url, teamsRequest(p)),
}
