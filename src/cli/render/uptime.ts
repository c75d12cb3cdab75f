/** The human view of a monitor's uptime (`sitehealth monitors uptime`). */
import type { UptimeReport, UptimeWindows } from '../../contract/monitoring.js'
import type { Style } from '../style.js'
import { fields } from './format.js'
import { renderTable } from './table.js'
import type { View } from './view.js'

/** 99.95 → "99.95%", null → "-". */
export const pct = (p: number | null): string => (p === null ? '-' : `${p}%`)

const paintPct = (style: Style, p: number | null): string =>
  p === null
    ? style.dim('-')
    : p >= 99.9
      ? style.green(pct(p))
      : p >= 99
        ? style.yellow(pct(p))
        : style.red(pct(p))

/** "24h 100% · 7d 99.93% · 30d 99.71%". */
export function uptimeLine(style: Style, u: UptimeWindows): string {
  return (['24h', '7d', '30d'] as const).map((w) => `${w} ${paintPct(style, u[w])}`).join(' · ')
}

function duration(seconds: number): string {
  if (seconds === 0) return '0s'
  const d = Math.floor(seconds / 86_400)
  const h = Math.floor((seconds % 86_400) / 3600)
  const m = Math.floor((seconds % 3600) / 60)
  const s = seconds % 60
  return [d && `${d}d`, h && `${h}h`, m && `${m}m`, !d && !h && s && `${s}s`].filter(Boolean).join(' ')
}

export function renderUptime(view: View, r: UptimeReport): string {
  const { style } = view
  const daily =
    r.buckets.length > 1 && Date.parse(r.buckets[1].start) - Date.parse(r.buckets[0].start) >= 86_400_000
  const table = renderTable(
    view,
    [
      { header: 'start' },
      { header: 'uptime' },
      { header: 'runs' },
      { header: 'failed' },
      { header: 'avg response', dropOrder: 1 },
      { header: 'avg score', dropOrder: 2 },
    ],
    r.buckets.map((b) => [
      {
        text: view.tty ? (daily ? b.start.slice(0, 10) : b.start.slice(0, 16).replace('T', ' ')) : b.start,
        full: b.start,
      },
      { text: pct(b.uptime_percent), paint: b.failed_runs > 0 ? style.red : undefined },
      String(b.runs),
      String(b.failed_runs),
      b.avg_response_time_ms === null ? '-' : `${Math.round(b.avg_response_time_ms)} ms`,
      b.avg_health_score === null ? '-' : String(Math.round(b.avg_health_score)),
    ]),
  )
  if (!view.tty) return table
  const head = fields(view, [
    ['window', `${r.from} → ${r.to}`],
    ['uptime', paintPct(style, r.uptime_percent)],
    ['runs', `${r.runs} (${r.failed_runs} failed)`],
    ['downtime', duration(r.downtime_seconds)],
    [
      'response',
      r.response_time_ms.p50 === null
        ? '-'
        : `p50 ${Math.round(r.response_time_ms.p50)} ms, p95 ${Math.round(r.response_time_ms.p95 ?? 0)} ms`,
    ],
  ])
  return [...head, '', r.buckets.length > 0 ? table : style.dim('No runs in this window.')].join('\n')
}
