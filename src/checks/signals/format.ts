/**
 * Small helpers every signal shares: how dates, durations and sizes read in a message, how findings
 * rank, and the two shapes a Signal takes (judged or unavailable).
 */
import type { Finding, ProbeResult, Signal } from '../types.js'
import { statusForScore } from '../thresholds.js'

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

/** 2400 → "2.4 s", 800 → "0.8 s", 150 → "0.15 s", 12400 → "12 s", 4 → "4 ms" (never "0 s"). */
export function fmtDuration(ms: number): string {
  const s = Math.max(0, ms) / 1000
  if (s < 0.1) return `${Math.round(Math.max(0, ms))} ms`
  if (s >= 10) return `${Math.round(s)} s`
  if (s >= 1) return `${trimZeros(s.toFixed(1))} s`
  return `${trimZeros(s.toFixed(2))} s`
}

/** 950 → "950 B", 48000 → "48 KB", 3_200_000 → "3.2 MB" (decimal units, as browsers' devtools show). */
export function fmtBytes(bytes: number): string {
  if (bytes < 1000) return `${Math.round(bytes)} B`
  if (bytes < 1_000_000) return `${trimZeros((bytes / 1000).toFixed(bytes < 10_000 ? 1 : 0))} KB`
  return `${trimZeros((bytes / 1_000_000).toFixed(1))} MB`
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`
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

const trimZeros = (s: string) => (s.includes('.') ? s.replace(/\.?0+$/, '') : s)
