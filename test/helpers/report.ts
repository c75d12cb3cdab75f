/** A finished engine report for tests that inject the check instead of probing a site. */
import type { CheckReport, Signal } from '../../src/checks/types.js'

const signal = (message: string, score = 95): Signal => ({
  status: 'ok',
  message,
  score,
  findings: [],
  details: {},
})

export function fakeReport(url: string, healthScore = 92): CheckReport {
  return {
    url,
    finalUrl: url,
    healthScore,
    status: 'ok',
    riskLevel: 'low',
    summary: `${new URL(url).host} is healthy (health ${healthScore}/100, low risk).`,
    signals: {
      reachability: signal('Responded 200 in 120 ms.'),
      https_ssl: signal('Valid certificate, expires in 80 days.'),
      response_time: signal('Fast first byte: 0.12 s.'),
      security_headers: signal('All the security headers checked are present.'),
      pagespeed: signal('Performance 95/100 (estimated).'),
    },
    responseTimeMs: 120,
    missingHeaders: [],
    performanceScore: 95,
    startedAt: new Date().toISOString(),
    durationMs: 150,
  }
}
