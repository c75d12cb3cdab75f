/** Pieces the monitor list and a monitor's page share: state, the bar of recent runs, uptime, times. */
import { isFailing, type MonitorRunView, type MonitorView } from '../views.js'
import { fmtDate, html } from './html.js'

export const State = ({ state }: { state: string }) =>
  html`<span class=${`badge st-${state}`}>${state}</span>`

/** "2026-11-26 00:49 UTC": minutes are enough in tables, and the column stays narrow. */
export const fmtMinute = (iso: string | null | undefined) => fmtDate(iso).replace(/:\d\d UTC$/, ' UTC')

export const pct = (p: number | null | undefined) =>
  p === null || p === undefined ? '—' : `${Number.isInteger(p) ? p : p.toFixed(2)} %`

/** "3 h 20 min", "4 min", "45 s". */
export function span(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000))
  const d = Math.floor(s / 86_400)
  const h = Math.floor((s % 86_400) / 3600)
  const m = Math.floor((s % 3600) / 60)
  if (d > 0) return h > 0 ? `${d} d ${h} h` : `${d} d`
  if (h > 0) return m > 0 ? `${h} h ${m} min` : `${h} h`
  if (m > 0) return `${m} min`
  return `${s} s`
}

/**
 * The newest runs as a bar, oldest on the left: green for a run that held, red for one that
 * failed. Each mark carries its time and outcome as text for assistive technology, and the bar
 * sums them up in words, so colour is never the only signal.
 */
export function RunsBar({ runs, name }: { runs: MonitorRunView[]; name: string }) {
  if (runs.length === 0) return html`<span class="muted">no runs yet</span>`
  const oldestFirst = [...runs].reverse()
  const failed = runs.filter(isFailing).length
  return html`<ol
    class="runbar"
    aria-label=${`Last ${runs.length} runs of ${name}, oldest first: ${failed} failed`}
  >
    ${oldestFirst.map((r) => {
      const bad = isFailing(r)
      return html`<li class=${bad ? 'fail' : 'ok'}>
        <span class="sr">${fmtMinute(r.started_at)}: ${bad ? 'failed' : 'ok'}</span>
      </li>`
    })}
  </ol>`
}

/** Uptime over 24 h and 30 d (7 d too where there is room). */
export function Uptime({ m, wide = false }: { m: MonitorView; wide?: boolean }) {
  return wide
    ? html`<dl class="uptime">
        <dt>24 h</dt>
        <dd>${pct(m.uptime['24h'])}</dd>
        <dt>7 d</dt>
        <dd>${pct(m.uptime['7d'])}</dd>
        <dt>30 d</dt>
        <dd>${pct(m.uptime['30d'])}</dd>
      </dl>`
    : html`${pct(m.uptime['24h'])} <span class="muted">/</span> ${pct(m.uptime['30d'])}`
}
