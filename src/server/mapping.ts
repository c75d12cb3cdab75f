/** From a saved check and the engine's report to the wire's run result (docs/api.md#routes; /openapi.json's RunResult). */
import type { CheckReport } from '../checks/index.js'
import type { RunResult } from '../contract/schemas.js'
import type { CheckRecord } from '../store/types.js'

export function toRunResult(check: CheckRecord, report: CheckReport, remaining: number): RunResult {
  const sig = (name: keyof CheckReport['signals']) => ({
    status: report.signals[name].status,
    message: report.signals[name].message,
  })
  return {
    ok: true,
    data: {
      id: check.id,
      url: check.url,
      healthScore: check.health_score,
      status: report.status,
      riskLevel: report.riskLevel,
      checks: {
        reachability: { ...sig('reachability'), responseTimeMs: report.responseTimeMs },
        https: sig('https_ssl'),
        responseTime: { ...sig('response_time'), responseTimeMs: report.responseTimeMs },
        securityHeaders: { ...sig('security_headers'), missing: report.missingHeaders },
        pagespeed: {
          ...sig('pagespeed'),
          performanceScore: report.performanceScore,
          ...pagespeedMethod(report),
        },
      },
      summary: check.summary,
      createdAt: check.created_at,
    },
    credits: { used: 1, remaining },
  }
}

/** Whether performance was measured in the lab browser or estimated (absent when unavailable). */
function pagespeedMethod(report: CheckReport): { method?: 'lab' | 'estimate' } {
  const method = report.signals.pagespeed.details.method
  return method === 'lab' || method === 'estimate' ? { method } : {}
}
