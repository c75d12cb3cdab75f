/** Human views of monitors (`sitehealth monitors …`); kept apart so the renderers can be switched. */
import type { Monitor, MonitorEvents, MonitorList, MonitorRuns } from '../../contract/monitors.js'
import { targetText, typeFace } from '../../contract/monitor-types/index.js'
import { describeAssertion, describeResult } from '../../assertions/index.js'
import { formatEvery } from '../../contract/durations.js'
import type { Paint, Style } from '../style.js'
import { fields, formatTime, paintScore } from './format.js'
import { idCell, renderTable } from './table.js'
import { uptimeLine } from './uptime.js'
import type { View } from './view.js'

export function paintState(style: Style, state: string): string {
  switch (state) {
    case 'up':
      return style.green(state)
    case 'degraded':
      return style.yellow(state)
    case 'down':
      return style.red(state)
    default:
      return style.dim(state)
  }
}

export function renderMonitor(view: View, m: Monitor, bin = 'sitehealth'): string {
  const { style } = view
  const lines = [
    `${style.bold(m.name)}  ${paintState(style, m.state)}`,
    ...fields(view, [
      ['ref', m.ref ?? '-'],
      ['tags', m.tags?.length ? m.tags.join(' ') : '-'],
      ['url', m.url ?? `- (${typeFace(m.type).noun})`],
      ...(typeFace(m.type).host ? [['target', targetText(m)] as [string, string]] : []),
      [
        'every',
        formatEvery(m.interval_seconds) +
          (m.grace_seconds !== null
            ? ` (grace ${m.grace_seconds === 0 ? '0s' : formatEvery(m.grace_seconds)})`
            : ''),
      ],
      ['state', paintState(style, m.state) + (m.paused_reason === 'credits' ? ' (out of credits)' : '')],
      [
        'last check',
        m.last_check
          ? `${paintScore(style, m.last_check.health_score)} ${m.last_check.risk_level} risk, ${formatTime(m.last_check.created_at)}  ${style.dim(`(${bin} get ${m.last_check.id})`)}`
          : '-',
      ],
      ['next run', formatTime(m.next_run_at)],
      ['uptime', uptimeLine(style, m.uptime)],
      [
        'alerts',
        `down after ${m.alerts.down_after} failed run${m.alerts.down_after === 1 ? '' : 's'}` +
          (m.alerts.recover_after > 1 ? `, up after ${m.alerts.recover_after} good runs` : '') +
          (m.alerts.remind_every_minutes !== null
            ? `, reminded every ${formatEvery(m.alerts.remind_every_minutes * 60)}`
            : '') +
          (m.alerts.min_score !== null ? `, score below ${m.alerts.min_score}` : ''),
      ],
      ['created', formatTime(m.created_at)],
      ['monitor id', m.id],
    ]),
  ]
  if (m.assertions.length > 0) {
    lines.push('  ' + style.dim('assertions'))
    for (const a of m.assertions) lines.push(`    ${describeAssertion(a)}`)
  }
  if (m.channels.length > 0) {
    lines.push('  ' + style.dim('channels'))
    for (const c of m.channels)
      lines.push(`    ${c.type.padEnd(8)} ${c.name ? `${c.name} ` : ''}${c.target}  ${style.dim(c.id)}`)
  }
  const secrets = m.channels.filter((c) => c.secret)
  for (const c of secrets)
    lines.push(
      '',
      `${style.bold('Webhook signing secret')} for ${c.target} (shown once, store it now):`,
      `  ${c.secret}`,
    )
  if (m.push_url)
    lines.push(
      '',
      `${style.bold('Push URL')} (shown once, store it now): GET or POST it from your job; add ?status=down&msg=… to report a failure`,
      `  ${m.push_url}`,
    )
  return lines.join('\n')
}

const stateColour = (style: Style, state: string): Paint | undefined =>
  state === 'up'
    ? style.green
    : state === 'degraded'
      ? style.yellow
      : state === 'down'
        ? style.red
        : style.dim

export function renderMonitorList(
  view: View,
  page: MonitorList,
  bin = 'sitehealth',
  tags: string[] = [],
): string {
  const { style } = view
  if (page.monitors.length === 0)
    return tags.length
      ? `No monitors with ${tags.map((t) => `tag ${t}`).join(' and ')}.`
      : `No monitors. Create one with \`${bin} monitors create https://example.com\`.`
  const t = renderTable(
    view,
    [
      { header: 'id' },
      { header: 'name', shrink: true, minWidth: 6 },
      { header: 'url', shrink: true, minWidth: 12 },
      { header: 'every', dropOrder: 2 },
      { header: 'state' },
      { header: 'score' },
      { header: 'next run', dropOrder: 1 },
      // last, so scripts that cut the tab-separated columns before it keep working
      { header: 'ref', shrink: true, minWidth: 4, dropOrder: 3 },
      { header: 'tags', shrink: true, minWidth: 4, dropOrder: 4 },
    ],
    page.monitors.map((m) => [
      idCell(m.id),
      m.name,
      targetText(m),
      formatEvery(m.interval_seconds),
      { text: m.state, paint: stateColour(style, m.state) },
      m.last_check ? `${m.last_check.health_score}/100` : '-',
      { text: formatTime(m.next_run_at), full: m.next_run_at ?? '' },
      m.ref ?? '-',
      m.tags?.length ? m.tags.join(',') : '-',
    ]),
  )
  if (!view.tty) return t
  const n = `${page.monitors.length} monitor${page.monitors.length === 1 ? '' : 's'}`
  return [
    t,
    page.next_cursor
      ? `${n}. Next page: ${bin} monitors list --cursor ${page.next_cursor}${tags.map((t) => ` --tag ${t}`).join('')}`
      : `${n}.`,
  ].join('\n')
}

export function renderRuns(view: View, page: MonitorRuns, id: string, bin = 'sitehealth'): string {
  const { style } = view
  if (page.runs.length === 0) return 'No runs yet.'
  const t = renderTable(
    view,
    [
      { header: 'started' },
      { header: 'outcome' },
      { header: 'state' },
      { header: 'score' },
      { header: 'response', dropOrder: 1 },
      { header: 'check id / error', shrink: true, minWidth: 10 },
      // last, so scripts that cut the tab-separated columns before it keep working
      { header: 'assertions', shrink: true, minWidth: 10, dropOrder: 2 },
    ],
    page.runs.map((r) => [
      { text: formatTime(r.started_at), full: r.started_at },
      { text: r.outcome, paint: r.outcome === 'saved' || r.outcome === 'ok' ? style.green : style.red },
      { text: r.state, paint: stateColour(style, r.state) },
      r.health_score === null ? '-' : `${r.health_score}/100`,
      r.response_time_ms === null ? '-' : `${r.response_time_ms} ms`,
      r.check_id ?? r.error?.message ?? detailsText(r.details),
      runAssertions(style, r.assertions),
    ]),
  )
  if (!view.tty || !page.next_cursor) return t
  return [t, `Older: ${bin} monitors runs ${id} --cursor ${page.next_cursor}`].join('\n')
}

/** A run's findings in one cell (tls: `days_left 62, issuer R11, protocol TLSv1.3`); `-` when none. */
export function detailsText(details: Record<string, unknown> | null): string {
  if (!details) return '-'
  const shown = Object.entries(details).filter(
    ([k, v]) => k !== 'valid_to' && v !== null && typeof v !== 'object',
  )
  return shown.length ? shown.map(([k, v]) => `${k} ${String(v)}`).join(', ') : '-'
}

/** `3/3 held`, or the first that failed and what it saw: `1 of 3 failed: json_body $.status equals ok (saw nothing)`. */
function runAssertions(
  style: Style,
  list: MonitorRuns['runs'][number]['assertions'],
): string | { text: string; paint: Paint } {
  if (list.length === 0) return '-'
  const failed = list.filter((a) => !a.passed)
  if (failed.length === 0) return { text: `${list.length}/${list.length} held`, paint: style.green }
  return { text: `${failed.length} of ${list.length} failed: ${describeResult(failed[0])}`, paint: style.red }
}

export function renderEvents(view: View, page: MonitorEvents, id: string, bin = 'sitehealth'): string {
  const { style } = view
  if (page.events.length === 0) return 'No alerts raised yet.'
  const lines: string[] = []
  for (const e of page.events) {
    lines.push(`${formatTime(e.occurred_at)}  ${style.bold(e.event)}  ${e.message}`)
    for (const d of e.deliveries)
      lines.push(
        `    ${d.type.padEnd(8)} ${d.status === 'delivered' ? style.green(d.status) : d.status === 'failed' ? style.red(d.status) : style.yellow(d.status)} after ${d.attempts} attempt${d.attempts === 1 ? '' : 's'}${d.last_error ? style.dim(` (${d.last_error})`) : ''}`,
      )
  }
  if (page.next_cursor) lines.push(`Older: ${bin} monitors events ${id} --cursor ${page.next_cursor}`)
  return lines.join('\n')
}
