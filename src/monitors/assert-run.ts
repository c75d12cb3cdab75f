/**
 * A monitor's assertions judged on its run (docs/decisions.md#monitoring-depth): on the answer the
 * check already fetched (status, headers, the body as the probe kept it) and the check's own
 * figures, never a second request. A failed check has no answer: every assertion is judged on
 * nothing and the run fails anyway.
 */
import {
  describeResult,
  evaluateAssertions,
  firstFailure,
  type AssertionSubject,
} from '../assertions/index.js'
import type { CheckReport } from '../checks/index.js'
import type { Assertion, AssertionResult } from '../contract/monitoring.js'
import type { LastCheck } from '../contract/monitors.js'

export interface AssertionVerdict {
  results: AssertionResult[]
  /** The first failed assertion and what it saw, in words; null when all held. */
  failed: string | null
}

export function judgeAssertions(
  list: readonly Assertion[] | undefined,
  run: {
    report: CheckReport
    last: Pick<LastCheck, 'health_score' | 'response_time_ms'>
    certDays: number | null
  } | null,
): AssertionVerdict | undefined {
  if (!list || list.length === 0) return undefined
  const subject: AssertionSubject = run
    ? {
        status_code: run.report.answer?.status ?? null,
        response_time_ms: run.last.response_time_ms ?? null,
        body: run.report.answer?.body ?? null,
        headers: run.report.answer?.headers ?? {},
        health_score: run.last.health_score,
        certificate_days: run.certDays,
      }
    : {
        status_code: null,
        response_time_ms: null,
        body: null,
        headers: {},
        health_score: null,
        certificate_days: null,
      }
  const results = evaluateAssertions(list, subject)
  const first = firstFailure(results)
  return { results, failed: first ? describeResult(first) : null }
}

/**
 * Assertions judged on a run that keeps no check (tcp, tls, and the types after them): on the
 * figures its probe saw (`response_time` for every type; a type adds its own, such as
 * `certificate_days`); null when the probe failed, so every assertion is judged on nothing.
 */
export function judgeProbe(
  list: readonly Assertion[] | undefined,
  seen: Partial<AssertionSubject> | null,
): AssertionVerdict | undefined {
  if (!list || list.length === 0) return undefined
  const subject: AssertionSubject = { ...NOTHING, ...seen }
  const results = evaluateAssertions(list, subject)
  const first = firstFailure(results)
  return { results, failed: first ? describeResult(first) : null }
}

const NOTHING: AssertionSubject = {
  status_code: null,
  response_time_ms: null,
  body: null,
  headers: {},
  health_score: null,
  certificate_days: null,
}

/**
 * Assertions judged on a one-off check (the run route's `assertions`, which `sitehealth test`
 * sends), exactly as a monitor's run judges them.
 */
export function judgeReport(
  list: readonly Assertion[],
  report: CheckReport,
  healthScore: number,
): AssertionResult[] {
  const https = (report.signals.https_ssl.details ?? {}) as { scheme?: unknown; daysLeft?: unknown }
  const certDays = https.scheme !== 'http' && typeof https.daysLeft === 'number' ? https.daysLeft : null
  const last = { health_score: healthScore, response_time_ms: Math.round(report.responseTimeMs) }
  return judgeAssertions(list, { report, last, certDays })?.results ?? []
}
