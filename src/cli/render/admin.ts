/** Human views of the admin commands: keys and credit grants. Never a secret except at creation. */
import type { CreditGrantResult, KeyCreated, KeyList, KeyRevoked } from '../../contract/index.js'
import { fields, formatTime } from './format.js'
import { idCell, renderTable } from './table.js'
import type { View } from './view.js'
import { paragraph } from './wrap.js'

export function renderKeyCreated(view: View, key: KeyCreated, savedTo?: string): string {
  const { style } = view
  return [
    paragraph(`Created API key ${style.bold(key.name)} for user ${style.bold(key.user_id)}.`, view.width),
    '',
    // never wrapped: the secret must stay one copyable word
    `  ${style.bold(key.key)}`,
    '',
    paragraph(
      style.yellow('Copy this key now: it will not be shown again (only its hash is stored).'),
      view.width,
    ),
    ...fields(view, [
      ['id', key.id],
      ['prefix', key.prefix],
      ['created', formatTime(key.created_at)],
    ]),
    ...(savedTo ? ['', paragraph(`Saved the key and the API URL to ${savedTo}.`, view.width)] : []),
  ].join('\n')
}

/** The rows of `keys list`: a fitted table on a terminal, tab-separated lines in a pipe. */
export function renderKeyList(view: View, list: KeyList, o: { wide?: boolean } = {}): string {
  const { style } = view
  return renderTable(
    view,
    [
      { header: 'id' },
      { header: 'name', shrink: !o.wide, minWidth: 6 },
      { header: 'prefix' },
      { header: 'user', shrink: !o.wide, minWidth: 6 },
      { header: 'created', dropOrder: 2 },
      { header: 'last used', dropOrder: 1 },
      { header: 'state' },
    ],
    list.keys.map((k) => [
      idCell(k.id, o.wide),
      k.name,
      k.prefix,
      k.user_id,
      { text: formatDate(k.created_at), full: k.created_at },
      { text: formatDate(k.last_used_at), full: k.last_used_at ?? '' },
      k.revoked_at
        ? { text: 'revoked', full: `revoked ${k.revoked_at}`, paint: style.red }
        : { text: 'active', paint: style.green },
    ]),
  )
}

export function keyListFooter(list: KeyList, bin = 'sitehealth'): string {
  if (list.keys.length === 0) return `No API keys yet. Create one with \`${bin} keys create --name NAME\`.`
  return `${list.keys.length} key${list.keys.length === 1 ? '' : 's'}.`
}

/** A date without the time: a table column that must fit 80 columns. */
function formatDate(iso: string | null): string {
  return iso ? formatTime(iso).slice(0, 10) : '-'
}

export function renderKeyRevoked(view: View, r: KeyRevoked): string {
  return paragraph(
    `Revoked API key ${r.id} at ${formatTime(r.revoked_at)}. Requests with it now fail with revoked_api_key.`,
    view.width,
  )
}

export function renderCreditGrant(view: View, r: CreditGrantResult, amount: number): string {
  return paragraph(
    `Granted ${amount} credit${amount === 1 ? '' : 's'} to ${view.style.bold(r.user_id)}: ${r.credits_remaining} now available.`,
    view.width,
  )
}
