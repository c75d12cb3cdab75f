/**
 * The pagespeed signal when a lab run was asked for (docs/decisions.md#performance-lab-and-estimate): Lighthouse's own score and
 * metrics replace the estimate's, the estimate stays beside them in `details.estimate`, and the
 * message says "measured". A lab run that failed, crashed or timed out leaves the estimate in
 * place and says so in the message and a finding; it never fails the check.
 */
import type { LabOutcome } from '../lab-outcome.js'
import type { Signal } from '../types.js'
import { fmtDuration, judged } from './format.js'

/** `estimated` is the estimate's signal; `lab` the lab run's outcome, when one was asked for. */
export function withLab(estimated: Signal, lab: LabOutcome | undefined): Signal {
  const d = estimated.details
  const estimate = { performanceScore: d.performanceScore, metrics: d.metrics }
  if (!lab) return { ...estimated, details: { ...d, method: 'estimate', estimate, lab: null } }

  if (lab.method === 'estimate') {
    return {
      ...estimated,
      message: `${estimated.message}; ${FALLBACK_WORDS[lab.fallback]}, so this is the estimate`,
      findings: [
        ...estimated.findings,
        {
          severity: 'info',
          message: `Not measured in the lab browser: ${lab.reason}; the score is estimated`,
        },
      ],
      details: {
        ...d,
        method: 'estimate',
        estimate,
        lab: {
          fallback: lab.fallback,
          reason: lab.reason,
          durationMs: lab.durationMs,
          queuedMs: lab.queuedMs,
        },
      },
    }
  }

  const m = lab.metrics
  const metrics = `first paint ${fmtDuration(m.fcp)}, largest paint ${fmtDuration(m.lcp)}, blocking time ${fmtDuration(m.tbt)}, layout shift ${m.cls.toFixed(2)}, speed index ${fmtDuration(m.si)}`
  const message = `Performance ${lab.score}/100 (measured by Lighthouse ${lab.lighthouseVersion} in Chromium, simulated mobile): ${metrics}`
  const estimateMetrics = d.metrics as { fcp: number; lcp: number } | undefined
  const beside = `Estimate beside the measurement: ${String(d.performanceScore)}/100${estimateMetrics ? ` (first paint ${fmtDuration(estimateMetrics.fcp)}, largest paint ${fmtDuration(estimateMetrics.lcp)})` : ''}`
  // the estimate's costs still name the likely causes; their points are the estimate's
  const findings = [...estimated.findings, { severity: 'info' as const, message: beside }]
  const { unmeasured: _unmeasured, metricScores: _scores, ...rest } = d
  return judged(lab.score, message, findings, {
    ...rest,
    performanceScore: lab.score,
    method: 'lab',
    lighthouseVersion: lab.lighthouseVersion,
    metrics: lab.metrics,
    estimate,
    lab: { durationMs: lab.durationMs, queuedMs: lab.queuedMs, finalUrl: lab.finalUrl },
  })
}

const FALLBACK_WORDS = {
  timeout: 'the lab run timed out',
  crashed: 'the lab run crashed the browser',
  failed: 'the lab run failed',
  busy: 'the lab browser was busy',
} as const
