/** Email (serve --smtp-url): the title as subject, the change and the monitor in plain text. */
import type { WebhookPayload } from '../../../contract/monitors.js'
import type { MailMessage, Provider } from './provider.js'
import { line, title } from './text.js'

export function emailMessage(p: WebhookPayload): MailMessage {
  return {
    subject: title(p),
    text: `${line(p)}\n\nMonitor: ${p.monitor.name} (${p.monitor.url})\nEvent: ${p.event} at ${p.occurred_at}\n`,
  }
}

/** `o…@example.com`: the first letter and the domain. */
export function maskAddress(to: string): string {
  const at = to.lastIndexOf('@')
  return at > 0 ? `${to[0]}…${to.slice(at)}` : '…'
}

export const email: Provider = {
  type: 'email',
  // the schema checked the address; nothing else to refuse
  check: () => {},
  mask: (f) => maskAddress(f.to),
  send: (ch, p, t) => t.mail(ch.fields.to, emailMessage(p)),
}
