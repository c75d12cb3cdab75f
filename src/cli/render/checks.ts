/** Human views of check results: a run result (`check`), a saved check (`get`), a page (`recent`). */
import type { RecentChecks, RunResult, SavedCheck } from '../../contract/index.js'
import type { Style } from '../style.js'
import { fields, formatTime, padPaint, paintRisk, paintScore, paintStatus, table } from './format.js'

interface SignalLine {
  label: string
  status: string
  message: string
  /** Extra lines under the signal (missing headers). */
  more?: string[]
}

const LABEL_WIDTH = 'security headers'.length
const STATUS_WIDTH = 'needs_review'.length

function signalLines(style: Style, signals: SignalLine[]): string[] {
  const lines: string[] = []
  for (const s of signals) {
    lines.push(
      `  ${padPaint(s.label, LABEL_WIDTH)}  ${padPaint(s.status, STATUS_WIDTH, (t) => paintStatus(style, t))}  ${s.message}`,
    )
    const indent = ' '.repeat(2 + LABEL_WIDTH + 2 + STATUS_WIDTH + 2)
    for (const extra of s.more ?? []) lines.push(`${indent}${style.dim(extra)}`)
  }
  return lines
}

export function renderRunResult(style: Style, result: RunResult, bin = 'sitehealth'): string {
  const { data, credits } = result
  const c = data.checks
  const signals: SignalLine[] = [
    { label: 'reachability', status: c.reachability.status, message: c.reachability.message },
    { label: 'https', status: c.https.status, message: c.https.message },
    { label: 'response time', status: c.responseTime.status, message: c.responseTime.message },
    {
      label: 'security headers',
      status: c.securityHeaders.status,
      message: c.securityHeaders.message,
      // the server's message may already name them; repeat only what it leaves out
      more: c.securityHeaders.missing.some((h) => !c.securityHeaders.message.includes(h))
        ? [`missing: ${c.securityHeaders.missing.join(', ')}`]
        : [],
    },
    {
      label: 'pagespeed',
      status: c.pagespeed.status,
      message: c.pagespeed.message,
      more:
        c.pagespeed.status !== 'unavailable' &&
        !c.pagespeed.message.includes(`${c.pagespeed.performanceScore}/100`)
          ? [`performance score: ${c.pagespeed.performanceScore}/100`]
          : [],
    },
  ]
  return [
    `${style.bold(data.url)}  ${paintStatus(style, data.status)}`,
    ...signalLines(style, signals),
    '',
    ...fields(style, [
      ['score', paintScore(style, data.healthScore)],
      ['risk', paintRisk(style, data.riskLevel)],
      ['summary', data.summary],
      ['check id', `${data.id}  ${style.dim(`(${bin} get ${data.id})`)}`],
      ['credits', `${credits.remaining} left (${credits.used} used)`],
    ]),
  ].join('\n')
}

export function renderSavedCheck(style: Style, check: SavedCheck): string {
  const c = check.checks
  const signals: SignalLine[] = [
    { label: 'reachability', ...c.reachability },
    { label: 'https / ssl', ...c.https_ssl },
    { label: 'response time', ...c.response_time },
    { label: 'security headers', ...c.security_headers },
    { label: 'pagespeed', ...c.pagespeed },
  ]
  return [
    `${style.bold(check.url)}`,
    ...signalLines(style, signals),
    '',
    ...fields(style, [
      ['score', paintScore(style, check.health_score)],
      ['risk', paintRisk(style, check.risk_level)],
      ['summary', check.summary],
      ['status', check.status],
      ['created', formatTime(check.created_at)],
      ['check id', check.id],
    ]),
  ].join('\n')
}

export interface RecentView {
  /** The flags to repeat in the next-page hint (e.g. a non-default --limit). */
  limit?: number
  /** True when the page is everything (`--all`): no next-page hint. */
  all?: boolean
}

export function renderRecent(
  style: Style,
  page: RecentChecks,
  view: RecentView = {},
  bin = 'sitehealth',
): string {
  if (page.checks.length === 0) {
    return `No saved checks${view.all ? '' : ' on this page'}. Run one with \`${bin} check https://example.com\`.`
  }
  const t = table(style, ['id', 'url', 'score', 'risk', 'created'])
  for (const item of page.checks) {
    t.push([
      item.id,
      item.url,
      paintScore(style, item.health_score),
      paintRisk(style, item.risk_level),
      formatTime(item.created_at),
    ])
  }
  const lines = [t.toString()]
  const count = `${page.checks.length} check${page.checks.length === 1 ? '' : 's'}`
  if (page.next_cursor) {
    const limit = view.limit !== undefined ? ` --limit ${view.limit}` : ''
    lines.push(`${count}. Next page: ${bin} recent${limit} --cursor ${page.next_cursor}`)
  } else {
    lines.push(`${count}. No more checks.`)
  }
  return lines.join('\n')
}
