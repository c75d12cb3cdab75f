/**
 * From five signals to one verdict: a weighted health score with SSL-Labs-style caps, a risk level,
 * the overall status (the worst judged signal) and a one-sentence summary. The summary's lead problem
 * is derived, never written per case: the worst signal status first, then the finding's severity,
 * then the signal's weight.
 */
import { SIGNAL_NAMES, type RiskLevel, type SignalName, type SignalStatus } from '../contract/schemas.js'
import { HEALTH_CAPS, RISK, WEIGHTS } from './thresholds.js'
import type { Finding, ProbeResult, Signals } from './types.js'
import { hostOf, plural, SEVERITY_RANK } from './signals/format.js'

export interface Verdict {
  healthScore: number
  status: SignalStatus
  riskLevel: RiskLevel
  summary: string
}

const STATUS_RANK: Record<SignalStatus, number> = { unavailable: -1, ok: 0, warning: 1, needs_review: 2 }

/** How a signal is named in a summary sentence. */
const LABELS: Record<SignalName, string> = {
  reachability: 'reachability',
  https_ssl: 'HTTPS',
  response_time: 'response time',
  security_headers: 'security headers',
  pagespeed: 'pagespeed',
}

export function score(signals: Signals, probe: ProbeResult): Verdict {
  const healthScore = health(signals)
  const status = overallStatus(signals)
  const riskLevel = risk(signals, healthScore)
  return {
    healthScore,
    status,
    riskLevel,
    summary: summarize(signals, probe, { healthScore, status, riskLevel }),
  }
}

/** Names of the signals that could be judged, heaviest first. */
function judgedSignals(signals: Signals): SignalName[] {
  return [...SIGNAL_NAMES]
    .filter((name) => signals[name].status !== 'unavailable' && signals[name].score !== null)
    .sort((a, b) => WEIGHTS[b] - WEIGHTS[a])
}

function health(signals: Signals): number {
  if (signals.reachability.status === 'unavailable') return HEALTH_CAPS.reachabilityUnavailable
  const judged = judgedSignals(signals)
  const totalWeight = judged.reduce((sum, name) => sum + WEIGHTS[name], 0)
  if (totalWeight === 0) return 0
  let h = Math.round(
    judged.reduce((sum, name) => sum + WEIGHTS[name] * (signals[name].score ?? 0), 0) / totalWeight,
  )
  if (signals.reachability.status === 'needs_review') h = Math.min(h, HEALTH_CAPS.reachabilityNeedsReview)
  if (signals.https_ssl.score === 0) h = Math.min(h, HEALTH_CAPS.httpsZero)
  return Math.max(0, Math.min(100, h))
}

function overallStatus(signals: Signals): SignalStatus {
  if (signals.reachability.status === 'unavailable') return 'unavailable'
  const judged = judgedSignals(signals)
  if (judged.length === 0) return 'unavailable'
  return judged
    .map((name) => signals[name].status)
    .reduce((a, b) => (STATUS_RANK[b] > STATUS_RANK[a] ? b : a))
}

function risk(signals: Signals, healthScore: number): RiskLevel {
  if (signals.reachability.status === 'unavailable' || judgedSignals(signals).length < RISK.minJudgedSignals)
    return 'unknown'
  const needsReview = SIGNAL_NAMES.filter((name) => signals[name].status === 'needs_review')
  if (healthScore < RISK.highBelow || needsReview.some((name) => RISK.criticalSignals.includes(name)))
    return 'high'
  if (healthScore < RISK.lowMin || needsReview.length > 0) return 'medium'
  return 'low'
}

interface Ranked {
  finding: Finding
  signal: SignalName
}

/** Every non-info finding of the judged signals, most important first. */
export function rankFindings(signals: Signals): Ranked[] {
  const ranked: Array<Ranked & { order: number }> = []
  for (const signal of judgedSignals(signals)) {
    for (const finding of signals[signal].findings) {
      if (finding.severity !== 'info') ranked.push({ finding, signal, order: ranked.length })
    }
  }
  return ranked
    .sort(
      (a, b) =>
        STATUS_RANK[signals[b.signal].status] - STATUS_RANK[signals[a.signal].status] ||
        SEVERITY_RANK[b.finding.severity] - SEVERITY_RANK[a.finding.severity] ||
        WEIGHTS[b.signal] - WEIGHTS[a.signal] ||
        a.order - b.order,
    )
    .map(({ finding, signal }) => ({ finding, signal }))
}

const VERDICTS: Record<SignalStatus, string> = {
  ok: 'looks healthy',
  warning: 'needs attention',
  needs_review: 'needs review',
  unavailable: 'could not be checked',
}

function summarize(signals: Signals, probe: ProbeResult, v: Omit<Verdict, 'summary'>): string {
  const host = hostOf(probe.inputUrl)
  const riskText = v.riskLevel === 'unknown' ? 'risk unknown' : `${v.riskLevel} risk`
  const head = `${host} ${VERDICTS[v.status]} (health ${v.healthScore}/100, ${riskText})`

  if (v.status === 'unavailable') return `${head}: ${sentenceCase(signals.reachability.message)}.`

  const ranked = rankFindings(signals)
  const notJudged = SIGNAL_NAMES.filter((name) => signals[name].status === 'unavailable').map(
    (name) => LABELS[name],
  )
  const notJudgedNote = notJudged.length > 0 ? `not judged: ${notJudged.join(', ')}` : null

  if (v.status === 'ok') {
    const notes = [
      ranked[0] ? `minor: ${sentenceCase(ranked[0].finding.message)}` : null,
      notJudgedNote,
    ].filter(Boolean)
    return `${head}; nothing urgent to fix${notes.length > 0 ? ` (${notes.join('; ')})` : ''}.`
  }

  const [lead, ...rest] = ranked
  const leadText = lead ? lead.finding.message : worstSignalMessage(signals)
  const more = rest.filter((r) => SEVERITY_RANK[r.finding.severity] >= SEVERITY_RANK.medium).length
  const notes = [more > 0 ? `and ${plural(more, 'more issue')}` : null, notJudgedNote].filter(Boolean)
  return `${head}: ${sentenceCase(leadText)}${notes.length > 0 ? ` (${notes.join('; ')})` : ''}.`
}

function worstSignalMessage(signals: Signals): string {
  const [worst] = judgedSignals(signals).sort(
    (a, b) => STATUS_RANK[signals[b].status] - STATUS_RANK[signals[a].status],
  )
  return worst ? signals[worst].message : ''
}

/** Lower-cases the first letter of a message so it reads inside a sentence ("Certificate…" → "certificate…"), leaving acronyms ("HTML…") alone. */
function sentenceCase(message: string): string {
  const text = message.trim().replace(/\.+$/, '')
  return /^[A-Z][a-z]/.test(text) ? text[0].toLowerCase() + text.slice(1) : text
}
