/**
 * README badges for monitors on a status page (docs/decisions.md#the-public-face), drawn by badge-maker, the
 * shields.io project's own renderer: the same two-part flat look, with text widths measured so a
 * label never clips, and `<title>` plus `role="img"`/`aria-label` for screen readers.
 */
import { makeBadge } from 'badge-maker'
import type { BadgeKind, BadgeWindow, PublicState } from '../contract/status-pages.js'
import { STATE_TEXT, pct } from './render.js'

const STATE_COLOR: Record<PublicState, string> = {
  up: 'brightgreen',
  down: 'red',
  degraded: 'yellow',
  maintenance: 'blue',
  paused: 'lightgrey',
  pending: 'lightgrey',
}

function uptimeColor(p: number | null): string {
  if (p === null) return 'lightgrey'
  if (p >= 99.9) return 'brightgreen'
  if (p >= 99) return 'green'
  if (p >= 97) return 'yellowgreen'
  if (p >= 95) return 'yellow'
  if (p >= 90) return 'orange'
  return 'red'
}

function scoreColor(s: number | null): string {
  if (s === null) return 'lightgrey'
  if (s >= 90) return 'brightgreen'
  if (s >= 75) return 'green'
  if (s >= 50) return 'yellow'
  return 'red'
}

/** A monitor name fit for a label: one line, at most 40 characters. */
const labelOf = (name: string) => {
  const one = name.replace(/\s+/g, ' ').trim()
  return one.length > 40 ? `${one.slice(0, 39)}…` : one
}

export interface BadgeInput {
  name: string
  state: PublicState
  uptime: Record<BadgeWindow, number | null>
  score: number | null
}

export function drawBadge(kind: BadgeKind, m: BadgeInput, window: BadgeWindow): string {
  switch (kind) {
    case 'status':
      return makeBadge({
        label: labelOf(m.name),
        message: STATE_TEXT[m.state].toLowerCase(),
        color: STATE_COLOR[m.state],
      })
    case 'uptime':
      return makeBadge({
        label: `uptime ${window}`,
        message: pct(m.uptime[window]),
        color: uptimeColor(m.uptime[window]),
      })
    case 'score':
      return makeBadge({
        label: 'health score',
        message: m.score === null ? 'no data' : `${m.score}/100`,
        color: scoreColor(m.score),
      })
  }
}
