/**
 * Small helpers every signal shares: how dates, durations and sizes read in a message, how findings
 * rank, and the two shapes a Signal takes (judged or unavailable).
 */
import type { Finding, ProbeResult, Signal } from '../types.js'
import { statusForScore } from '../thresholds.js'

export { fmtBytes, fmtDuration } from '../../shared/index.js'

export type SignalFn = (probe: ProbeResult, now: Date) => Signal

export const DAY_MS = 86_400_000
export const HOUR_MS = 3_600_000

/** Severity order, most severe last (so a higher rank sorts first when descending). */
export const SEVERITY_RANK: Record<Finding['severity'], number> = { info: 0, low: 1, medium: 2, high: 3 }

/** YYYY-MM-DD (UTC). */
export function fmtDate(value: string | Date): string {
  const d = typeof value === 'string' ? new Date(value) : value
  return Number.isNaN(d.getTime()) ? 'an unknown date' : d.toISOString().slice(0, 10)
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`
}

/**
 * A site-supplied value as it may appear in a message: quoted, at most `max` characters, control,
 * format (bidi overrides, zero-width) and other non-printable characters dropped, whitespace runs
 * collapsed, an ellipsis when cut. Text chosen by the checked site reaches people and AI agents
 * through our messages (issue 16: a prompt-injection channel), so no message quotes more of it.
 */
export function excerpt(value: string, max = 40): string {
  const clean = printable(value)
  const chars = Array.from(clean)
  const cut =
    chars.length > max
      ? `${chars
          .slice(0, Math.max(1, max - 1))
          .join('')
          .trimEnd()}…`
      : clean
  return `"${cut.replace(/["\\]/g, (c) => `\\${c}`)}"`
}

/** The printable text of a value: no control/format/unassigned characters, whitespace runs collapsed. */
export function printable(value: string): string {
  return value
    .replace(/[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}]/gu, (c) => (/\s/.test(c) ? ' ' : ''))
    .replace(/[\s\p{Zl}\p{Zp}]+/gu, ' ')
    .trim()
}

/**
 * A URL the site chose (a redirect target, the final URL) as it may appear in a message: URLs are
 * already serialised (percent-encoded, so printable), but their path and query can carry any
 * amount of text, so a long one keeps its origin and the start of its path.
 */
export function shortUrl(url: string, max = 80): string {
  let href: string
  try {
    href = new URL(url).href
  } catch {
    return excerpt(url, max)
  }
  if (href.length <= max) return href
  return `${href.slice(0, max - 1)}…`
}

/**
 * A site-supplied name (a certificate's issuer, a DNS name, a content coding) in a message: as it is
 * when it is short and made of plain name characters, else an `excerpt` of it.
 */
export function plainName(value: string, max = 40): string {
  return value.length <= max && /^[\w .,:()&'*/+@=-]*$/.test(value) ? value : excerpt(value, max)
}

/** A site-supplied string as `details` may store it: printable and at most `max` characters (unquoted). */
export function clip(value: string, max = 200): string {
  const chars = Array.from(printable(value))
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : chars.join('')
}

/** Host (with a non-default port) of a URL, or the string itself when it does not parse. */
export function hostOf(url: string): string {
  try {
    return new URL(url).host
  } catch {
    return url
  }
}

/** The most severe finding; ties keep the earlier one (signals list their findings by importance). */
export function worstFinding(findings: readonly Finding[]): Finding | undefined {
  let worst: Finding | undefined
  for (const f of findings) if (!worst || SEVERITY_RANK[f.severity] > SEVERITY_RANK[worst.severity]) worst = f
  return worst
}

export function judged(
  score: number,
  message: string,
  findings: Finding[],
  details: Record<string, unknown>,
): Signal {
  const s = Math.round(Math.min(100, Math.max(0, score)))
  return { status: statusForScore(s), message, score: s, findings, details }
}

export function unavailable(message: string, details: Record<string, unknown> = {}): Signal {
  return { status: 'unavailable', message, score: null, findings: [], details }
}

/** Whether the probe got an HTTP answer at all (the probe throws when it does not; guard anyway). */
export function hasResponse(probe: ProbeResult): boolean {
  const status = probe.response?.status
  return Number.isInteger(status) && status >= 100 && status <= 599
}
