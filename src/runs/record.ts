/** The run record: what the store saves of a finished check (docs/api.md#routes). */
import type { CheckReport } from '../checks/index.js'
import { SIGNAL_NAMES, type SavedCheck } from '../contract/schemas.js'
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
