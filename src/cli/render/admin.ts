/** Human views of the admin commands: keys and credit grants. Never a secret except at creation. */
import type { CreditGrantResult, KeyCreated, KeyList, KeyRevoked } from '../../contract/index.js'
import type { Style } from '../style.js'
import { fields, formatTime, table } from './format.js'

export function renderKeyCreated(style: Style, key: KeyCreated, savedTo?: string): string {
  return [
    `Created API key ${style.bold(key.name)} for user ${style.bold(key.user_id)}.`,
    '',
    `  ${style.bold(key.key)}`,
    '',
    style.yellow('Copy this key now: it will not be shown again (only its hash is stored).'),
    ...fields(style, [
      ['id', key.id],
      ['prefix', key.prefix],
      ['created', formatTime(key.created_at)],
    ]),
    ...(savedTo ? ['', `Saved the key and the API URL to ${savedTo}.`] : []),
  ].join('\n')
}

export function renderKeyList(style: Style, list: KeyList): string {
  if (list.keys.length === 0) return 'No API keys yet. Create one with `sitehealth keys create --name NAME`.'
  const t = table(style, ['id', 'name', 'prefix', 'user', 'created', 'last used', 'state'])
  for (const k of list.keys) {
    t.push([
      k.id,
      k.name,
      k.prefix,
      k.user_id,
      formatTime(k.created_at),
      formatTime(k.last_used_at),
      k.revoked_at ? style.red(`revoked ${formatTime(k.revoked_at)}`) : style.green('active'),
    ])
  }
  return `${t.toString()}\n${list.keys.length} key${list.keys.length === 1 ? '' : 's'}.`
}

export function renderKeyRevoked(_style: Style, r: KeyRevoked): string {
  return `Revoked API key ${r.id} at ${formatTime(r.revoked_at)}. Requests with it now fail with revoked_api_key.`
}

export function renderCreditGrant(style: Style, r: CreditGrantResult, amount: number): string {
  return `Granted ${amount} credit${amount === 1 ? '' : 's'} to ${style.bold(r.user_id)}: ${r.credits_remaining} now available.`
}
