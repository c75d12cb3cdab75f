/**
 * The running grade of the security_headers signal: Observatory modifiers as the tests find them,
 * the headers that are missing (absent, or present with a value browsers ignore), weak values, and
 * the findings. Each test module (csp, hsts, frame, …) adds to one Grade.
 */
import { SECURITY_HEADERS } from '../../thresholds.js'
import type { Finding, ProbeResponse } from '../../types.js'

export type HeaderName = (typeof SECURITY_HEADERS.order)[number]
export type Severity = Finding['severity']

export interface WeakHeader {
  header: HeaderName
  problem: string
}

/** A header that is present but that browsers ignore: it counts exactly as missing. */
export interface IgnoredHeader {
  header: HeaderName
  reason: string
}

/** How much a header's absence matters, for the severity of the "Missing …" finding. */
export const MISSING_SEVERITY: Record<HeaderName, Severity> = {
  'content-security-policy': 'medium',
  'strict-transport-security': 'medium',
  'x-content-type-options': 'low',
  'x-frame-options': 'medium',
  'referrer-policy': 'low',
  'permissions-policy': 'low',
}

export class Grade {
  /** Absent from the response. */
  readonly absent = new Set<HeaderName>()
  readonly ignored: IgnoredHeader[] = []
  readonly weak: WeakHeader[] = []
  readonly findings: Finding[] = []
  penalties = 0
  bonuses = 0

  add(points: number) {
    if (points < 0) this.penalties += points
    else this.bonuses += points
  }
  lack(header: HeaderName, points: number) {
    this.absent.add(header)
    this.add(points)
  }
  /** Present, but browsers ignore it: the same points as `lack`, and a finding saying why. */
  ignore(header: HeaderName, reason: string, points: number, message: string) {
    this.ignored.push({ header, reason })
    this.findings.push({ severity: MISSING_SEVERITY[header], message })
    this.add(points)
  }
  weaken(header: HeaderName, problem: string, points: number, severity: Severity, message: string) {
    this.weak.push({ header, problem })
    this.findings.push({ severity, message })
    this.add(points)
  }
  note(severity: Severity, message: string, points = 0) {
    this.findings.push({ severity, message })
    this.add(points)
  }
}

/**
 * Each line of a response header as sent (RFC 9110 §5.3: repeated lines may be combined with
 * commas, so the joined value is one line when the probe did not record them apart).
 */
export function headerLines(response: ProbeResponse, name: string): string[] {
  const lines = response.repeatedHeaders?.[name]
  if (lines && lines.length > 0) return lines
  const value = response.headers[name]
  return value === undefined ? [] : [value]
}

/** Fetch "get, decode, and split": every comma-separated value of every line, trimmed. */
export function headerValues(response: ProbeResponse, name: string): string[] {
  return headerLines(response, name).flatMap((line) => line.split(',').map((v) => v.trim()))
}
