/** From the engine's report to the wire shapes (spec §2.4 and §2.5). */
import type { CheckReport } from '../checks/types.js'
import { SIGNAL_NAMES, type RunResult, type SavedCheck } from '../contract/schemas.js'
import type { CheckRecord } from '../store/types.js'

export function toSavedSignals(report: CheckReport): SavedCheck['checks'] {
  const out = {} as SavedCheck['checks']
  for (const name of SIGNAL_NAMES) {
    const s = report.signals[name]
    out[name] = {
      status: s.status,
      message: s.message,
      details: { ...s.details, score: s.score, findings: s.findings },
    }
  }
  return out
}

/** What the store saves of a finished check (it adds the id and `created_at`). */
export function toCheckRecord(report: CheckReport): Omit<CheckRecord, 'id' | 'created_at' | 'user_id'> {
  return {
    url: report.url,
    status: 'completed',
    health_score: report.healthScore,
    risk_level: report.riskLevel,
    summary: report.summary,
    checks: toSavedSignals(report),
  }
}

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
        pagespeed: { ...sig('pagespeed'), performanceScore: report.performanceScore },
      },
      summary: check.summary,
      createdAt: check.created_at,
    },
    credits: { used: 1, remaining },
  }
}
