// The pagespeed signal with a lab run (docs/decisions.md#performance-lab-and-estimate): Lighthouse's score and metrics with the estimate
// beside them ("measured"), or the estimate with the reason the lab could not measure ("estimated").
import { describe, expect, it } from 'vitest'
import { pagespeed } from '../../../src/checks/signals/pagespeed.js'
import type { LabOutcome } from '../../../src/checks/lab-outcome.js'
import { healthyProbe, NOW } from '../probe-builder.js'

const measured: LabOutcome = {
  method: 'lab',
  lighthouseVersion: '12.8.2',
  score: 42,
  metrics: { fcp: 2100, lcp: 6400, tbt: 900, cls: 0.31, si: 4800 },
  finalUrl: 'https://example.com/',
  durationMs: 9000,
  queuedMs: 0,
}

describe('pagespeed with a lab run', () => {
  it('without one, says estimated and reports method estimate', () => {
    const s = pagespeed(healthyProbe(), NOW)
    expect(s.details.method).toBe('estimate')
    expect(s.message).toMatch(/estimated/)
    expect(s.details.lab).toBeNull()
  })

  it("with a measurement, scores Lighthouse's number, says measured, and keeps the estimate beside it", () => {
    const estimate = pagespeed(healthyProbe(), NOW)
    const s = pagespeed({ ...healthyProbe(), lab: measured }, NOW)
    expect(s.score).toBe(42)
    expect(s.status).toBe('needs_review')
    expect(s.message).toMatch(/measured by Lighthouse 12\.8\.2/)
    expect(s.details).toMatchObject({
      method: 'lab',
      lighthouseVersion: '12.8.2',
      performanceScore: 42,
      metrics: measured.metrics,
      estimate: { performanceScore: estimate.score },
    })
    expect(s.findings.some((f) => f.message.startsWith('Estimate beside the measurement'))).toBe(true)
  })

  it.each([
    ['timeout', 'the lab run timed out'],
    ['crashed', 'the lab run crashed the browser'],
    ['failed', 'the lab run failed'],
    ['busy', 'the lab browser was busy'],
  ] as const)('a lab run that %s falls back to the estimate and says so', (fallback, words) => {
    const estimate = pagespeed(healthyProbe(), NOW)
    const s = pagespeed(
      { ...healthyProbe(), lab: { method: 'estimate', fallback, reason: 'why', durationMs: 1, queuedMs: 0 } },
      NOW,
    )
    expect(s.score).toBe(estimate.score)
    expect(s.details.method).toBe('estimate')
    expect(s.message).toContain(`${words}, so this is the estimate`)
    expect(s.details.lab).toMatchObject({ fallback })
  })
})
