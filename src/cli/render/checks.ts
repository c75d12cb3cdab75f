/**
 * Human views of check results: a run result (`check`), a saved check (`get`), a page (`recent`).
 * `check` and `get` show the same check with the same labels and layout, although the two API
 * bodies name things differently (`healthScore`/`https` vs `health_score`/`https_ssl`, fixed by
 * the spec); `get` adds what was measured.
 */
import type { RecentChecks, RunResult, SavedCheck } from '../../contract/index.js'
import { fields, formatTime, padPaint, paintRisk, paintScore, paintStatus } from './format.js'
import { measuredLines } from './measured.js'
import { idCell, renderTable } from './table.js'
import type { View } from './view.js'
import { hanging } from './wrap.js'

interface SignalLine {
  label: string
  status: string
  message: string
  /** Extra lines under the signal (missing headers, measurements). */
  more?: string[]
}

/** One label per signal, the same in every view. */
export const SIGNAL_LABELS = {
  reachability: 'reachability',
  https: 'https',
  responseTime: 'response time',
  securityHeaders: 'security headers',
  pagespeed: 'pagespeed',
} as const

const LABEL_WIDTH = 'security headers'.length
const STATUS_WIDTH = 'needs_review'.length
const MESSAGE_COLUMN = 2 + LABEL_WIDTH + 2 + STATUS_WIDTH + 2

/** Below this many columns for the message, it goes under its label instead of beside it. */
const MIN_MESSAGE_COLUMNS = 40

function signalLines(view: View, signals: SignalLine[]): string[] {
  const { style } = view
  const narrow = view.width !== undefined && view.width - MESSAGE_COLUMN < MIN_MESSAGE_COLUMNS
  const indent = ' '.repeat(narrow ? 4 : MESSAGE_COLUMN)
  const lines: string[] = []
  for (const s of signals) {
    const head = `  ${padPaint(s.label, LABEL_WIDTH)}  ${padPaint(s.status, STATUS_WIDTH, (t) => paintStatus(style, t))}`
    if (narrow) lines.push(head.trimEnd(), hanging(indent, s.message, view.width))
    else lines.push(hanging(`${head}  `, s.message, view.width, { hang: MESSAGE_COLUMN }))
    for (const extra of s.more ?? []) lines.push(hanging(indent, style.dim(extra), view.width))
  }
  return lines
}

function heading(view: View, url: string, status?: string): string {
  return hanging(
    '',
    `${view.style.bold(url)}${status ? `  ${paintStatus(view.style, status)}` : ''}`,
    view.width,
  )
}

export function renderRunResult(view: View, result: RunResult, bin = 'sitehealth'): string {
  const { data, credits } = result
  const c = data.checks
  const signals: SignalLine[] = [
    { label: SIGNAL_LABELS.reachability, status: c.reachability.status, message: c.reachability.message },
    { label: SIGNAL_LABELS.https, status: c.https.status, message: c.https.message },
    { label: SIGNAL_LABELS.responseTime, status: c.responseTime.status, message: c.responseTime.message },
    {
      label: SIGNAL_LABELS.securityHeaders,
      status: c.securityHeaders.status,
      message: c.securityHeaders.message,
      // the server's message may already name them; repeat only what it leaves out
      more: c.securityHeaders.missing.some((h) => !c.securityHeaders.message.includes(h))
        ? [`missing: ${c.securityHeaders.missing.join(', ')}`]
        : [],
    },
    {
      label: SIGNAL_LABELS.pagespeed,
      status: c.pagespeed.status,
      message: c.pagespeed.message,
      more: c.pagespeed.status !== 'unavailable' ? performanceLines(c.pagespeed) : [],
    },
  ]
  return [
    heading(view, data.url, data.status),
    ...signalLines(view, signals),
    '',
    ...fields(view, [
      ['score', paintScore(view.style, data.healthScore)],
      ['risk', paintRisk(view.style, data.riskLevel)],
      ['summary', data.summary],
      ['check id', `${data.id}  ${view.style.dim(`(${bin} get ${data.id})`)}`],
      ['created', formatTime(data.createdAt)],
      ['credits', `${credits.remaining} left (${credits.used} used)`],
    ]),
  ].join('\n')
}

/**
 * The performance score and how it was judged (measured in the lab browser, or estimated), each
 * only when the server's message does not already say it.
 */
function performanceLines(p: RunResult['data']['checks']['pagespeed']): string[] {
  const how =
    p.method === 'lab'
      ? 'measured (Lighthouse in Chromium)'
      : p.method === 'estimate'
        ? 'estimated (no browser run)'
        : null
  const saysHow = /\b(measured|estimated)\b/.test(p.message)
  if (!p.message.includes(`${p.performanceScore}/100`))
    return [`performance score: ${p.performanceScore}/100${how && !saysHow ? `, ${how}` : ''}`]
  return how && !saysHow ? [`performance: ${how}`] : []
}

/** The overall status of a saved check: the worst signal, as the run result's `status` is. */
function worstStatus(checks: SavedCheck['checks']): string {
  const order = ['needs_review', 'warning', 'ok', 'unavailable']
  const statuses = Object.values(checks).map((s) => s.status as string)
  return order.find((s) => statuses.includes(s)) ?? 'unavailable'
}

export function renderSavedCheck(view: View, check: SavedCheck): string {
  const c = check.checks
  const measured = measuredLines(c)
  const signals: SignalLine[] = [
    { label: SIGNAL_LABELS.reachability, ...c.reachability, more: measured.reachability },
    { label: SIGNAL_LABELS.https, ...c.https_ssl, more: measured.https_ssl },
    { label: SIGNAL_LABELS.responseTime, ...c.response_time, more: measured.response_time },
    { label: SIGNAL_LABELS.securityHeaders, ...c.security_headers, more: measured.security_headers },
    { label: SIGNAL_LABELS.pagespeed, ...c.pagespeed, more: measured.pagespeed },
  ]
  return [
    heading(view, check.url, worstStatus(c)),
    ...signalLines(view, signals),
    '',
    ...fields(view, [
      ['score', paintScore(view.style, check.health_score)],
      ['risk', paintRisk(view.style, check.risk_level)],
      ['summary', check.summary],
      ['check id', check.id],
      ['created', formatTime(check.created_at)],
    ]),
  ].join('\n')
}

export interface RecentView {
  /** The flags to repeat in the next-page hint (e.g. a non-default --limit). */
  limit?: number
  /** True when the page is everything (`--all`): no next-page hint. */
  all?: boolean
  /** Full ids and untruncated URLs. */
  wide?: boolean
}

/** The rows of `recent`: a fitted table on a terminal, tab-separated lines in a pipe. */
export function renderRecent(view: View, page: RecentChecks, o: RecentView = {}): string {
  return renderTable(
    view,
    [
      { header: 'id' },
      { header: 'url', shrink: !o.wide, minWidth: 16 },
      { header: 'score' },
      { header: 'risk' },
      { header: 'created (utc)' },
    ],
    page.checks.map((item) => [
      idCell(item.id, o.wide),
      item.url,
      {
        text: `${item.health_score}/100`,
        full: String(item.health_score),
        paint: (t) => paintScore(view.style, item.health_score, t),
      },
      { text: item.risk_level, paint: (t) => paintRisk(view.style, t) },
      { text: formatTime(item.created_at).slice(0, 16), full: item.created_at },
    ]),
  )
}

/** What `recent` says around its rows (on stderr when stdout is a pipe, so the rows stay clean). */
export function recentFooter(page: RecentChecks, o: RecentView = {}, bin = 'sitehealth'): string {
  if (page.checks.length === 0)
    return `No saved checks${o.all ? '' : ' on this page'}. Run one with \`${bin} check https://example.com\`.`
  const count = `${page.checks.length} check${page.checks.length === 1 ? '' : 's'}`
  if (!page.next_cursor) return `${count}. No more checks.`
  const limit = o.limit !== undefined ? ` --limit ${o.limit}` : ''
  return `${count}. Next page: ${bin} recent${limit} --cursor ${page.next_cursor}`
}
