/**
 * A judgement of the HTTPS signal: one finding with the score cap it sets (the sub-score is the
 * lowest cap), and the small wording helpers the judgements share.
 */
import { HTTPS } from '../../thresholds.js'
import type { CertificateInfo, Finding } from '../../types.js'
import { DAY_MS, HOUR_MS, plainName, plural } from '../format.js'

export interface Judgement {
  cap: number
  finding: Finding
}

export const urgent = (message: string): Judgement => ({
  cap: HTTPS.scores.urgent,
  finding: { severity: 'high', message },
})
export const capped = (cap: number, severity: Finding['severity'], message: string): Judgement => ({
  cap,
  finding: { severity, message },
})
export const issuerName = (cert: CertificateInfo) =>
  cert.issuer ? plainName(cert.issuer) : 'an unnamed issuer'
export const warn = (message: string): Judgement => ({
  cap: HTTPS.scores.warning,
  finding: { severity: 'medium', message },
})

/** Whole days (floored) between two instants, never negative. */
export const daysBetween = (from: Date, to: Date) =>
  Math.max(0, Math.floor((to.getTime() - from.getTime()) / DAY_MS))

/** 6.4 days → "6 days"; under a day in hours; under an hour "less than an hour". */
export function span(ms: number): string {
  if (ms >= DAY_MS) return plural(Math.floor(ms / DAY_MS), 'day')
  if (ms >= HOUR_MS) return plural(Math.floor(ms / HOUR_MS), 'hour')
  return 'less than an hour'
}
