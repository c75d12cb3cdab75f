/** The words every provider's message is made of: a title and one line about the change. */
import type { WebhookPayload } from '../../../contract/monitors.js'

export function title(p: WebhookPayload): string {
  return `[sitehealth] ${p.event}: ${p.monitor.name}`
}

export function line(p: WebhookPayload): string {
  const score = p.check ? ` Health ${p.check.health_score}/100.` : ''
  return `${p.message}.${score} State ${p.previous_state} → ${p.state}.`
}

/** A JSON POST body. */
export function json(payload: unknown): { body: string; headers: Record<string, string> } {
  return { body: JSON.stringify(payload), headers: { 'content-type': 'application/json' } }
}
