/** Small shared pieces of the human views: status colours, times, aligned label/value lines. */
import type { Style } from '../style.js'
import type { View } from './view.js'
import { hanging } from './wrap.js'

/** Signal and overall statuses: the word always carries the meaning, colour only repeats it. */
export function paintStatus(style: Style, status: string): string {
  switch (status) {
    case 'ok':
      return style.green(status)
    case 'warning':
      return style.yellow(status)
    case 'needs_review':
      return style.red(status)
    default:
      return style.dim(status)
  }
}

export function paintRisk(style: Style, risk: string): string {
  switch (risk) {
    case 'low':
      return style.green(risk)
    case 'medium':
      return style.yellow(risk)
    case 'high':
    case 'needs_review':
      return style.red(risk)
    default:
      return style.dim(risk)
  }
}

export function paintScore(style: Style, score: number, text = `${score}/100`): string {
  return score >= 80 ? style.green(text) : score >= 50 ? style.yellow(text) : style.red(text)
}

/** `2025-03-01T10:20:30.123Z` -> `2025-03-01 10:20:30 UTC`; anything unparsable as given. */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '-'
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return iso
  return `${d.toISOString().slice(0, 19).replace('T', ' ')} UTC`
}

/** Pad to `width` before painting, so escape codes never skew the columns. */
export function padPaint(text: string, width: number, paint: (s: string) => string = (s) => s): string {
  return paint(text) + ' '.repeat(Math.max(0, width - text.length))
}

/** `label  value` lines with the labels in one column; long values wrap under themselves. */
export function fields(view: View, rows: Array<[string, string]>, indent = '  '): string[] {
  const width = Math.max(...rows.map(([label]) => label.length))
  return rows.map(([label, value]) =>
    hanging(`${indent}${padPaint(label, width, view.style.dim)}  `, value, view.width, {
      hang: indent.length + width + 2,
      fallbackHang: indent.length + 2,
    }),
  )
}
