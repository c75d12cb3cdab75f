/**
 * The audit half of the engine: a ProbeResult in, a report out. Pure: no network, no clock of its
 * own (certificate days are counted against `now`), so every verdict is reproducible from a probe.
 */
import { SIGNAL_NAMES } from '../contract/schemas.js'
import { score } from './scoring.js'
import { SIGNALS } from './signals/index.js'
import type { CheckReport, ProbeResult, Signals } from './types.js'

export function evaluate(
  probe: ProbeResult,
  now = new Date(),
): Omit<CheckReport, 'startedAt' | 'durationMs'> {
  const signals = Object.fromEntries(SIGNAL_NAMES.map((name) => [name, SIGNALS[name](probe, now)])) as Signals
  const verdict = score(signals, probe)
  const missing = signals.security_headers.details.missing
  return {
    url: probe.inputUrl,
    finalUrl: probe.finalUrl,
    ...verdict,
    signals,
    responseTimeMs: Math.max(0, Math.round(probe.timings.ttfbMs)),
    missingHeaders: Array.isArray(missing) ? missing.map(String) : [],
    performanceScore: signals.pagespeed.score ?? 0,
  }
}
