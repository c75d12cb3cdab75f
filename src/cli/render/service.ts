/** Human views of the account and the service: `credits` and `status`. */
import type { CreditBalance, Health, Meta } from '../../contract/index.js'
import { fields } from './format.js'
import type { View } from './view.js'
import { paragraph } from './wrap.js'

export function renderCredits(view: View, balance: CreditBalance): string {
  const { style } = view
  return [
    `${style.bold(String(balance.credits_remaining))} credit${balance.credits_remaining === 1 ? '' : 's'} remaining`,
    ...fields(view, [
      ['plan', balance.plan ?? 'none'],
      ['usage', balance.usage_note],
    ]),
  ].join('\n')
}

export interface ServiceStatus {
  apiUrl: string
  health: Health
  meta: Meta
}

export function renderStatus(view: View, s: ServiceStatus): string {
  const { style } = view
  const up = s.health.ok ? style.green('up') : style.red('down')
  return [
    paragraph(`${style.bold(s.health.service)} ${s.health.version} is ${up} at ${s.apiUrl}`, view.width),
    ...fields(view, [
      ['API URL', s.apiUrl],
      ['service', s.meta.service],
      ['version', s.health.version],
      ['about', s.meta.description],
      ['capabilities', s.meta.capabilities.join(', ')],
      ['for', s.meta.recommended_for.join(', ') || '-'],
      ['docs', s.meta.docs_url],
      ['openapi', s.meta.openapi_url],
    ]),
  ].join('\n')
}
