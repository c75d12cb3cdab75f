/**
 * What a lab run (src/lab/) gives the pagespeed signal, which reads it off the probe. The engine
 * only knows the LabRunner shape; the lab itself (Chromium, Lighthouse) lives behind src/lab/.
 */

export interface LabMetrics {
  /** First contentful paint, ms. */
  fcp: number
  /** Largest contentful paint, ms. */
  lcp: number
  /** Total blocking time, ms. */
  tbt: number
  /** Cumulative layout shift (unitless). */
  cls: number
  /** Speed index, ms. */
  si: number
}

export interface LabMeasured {
  method: 'lab'
  /** Lighthouse's own version string (lhr.lighthouseVersion). */
  lighthouseVersion: string
  /** Lighthouse's performance score, 0-100. */
  score: number
  metrics: LabMetrics
  /** The URL Lighthouse ended on (after redirects). */
  finalUrl: string
  /** Wall time of the run, queue wait excluded, ms. */
  durationMs: number
  /** Time spent waiting for a free lab slot, ms. */
  queuedMs: number
}

/**
 * Why a lab run gave no measurement; the signal falls back to the estimate and says so. `busy`:
 * no slot was free within the wait bound, or the account already had its share of runs waiting.
 */
export type LabFallbackReason = 'timeout' | 'crashed' | 'failed' | 'busy'

export interface LabFallback {
  method: 'estimate'
  fallback: LabFallbackReason
  /** One sentence for the signal's finding (no stack, no internal detail). */
  reason: string
  durationMs: number
  queuedMs: number
}

export type LabOutcome = LabMeasured | LabFallback

/**
 * What the engine needs from the lab: measure a URL, never reject. `owner` is the account the check
 * is for: the lab shares its slots fairly between owners (src/lab/fair-share.ts).
 */
export interface LabRunner {
  measure(url: string, owner?: string): Promise<LabOutcome>
}

export interface LabOptions {
  /** A Chromium/Chrome executable, or 'auto' to find one. */
  browser: string
  /** Lab runs at once (default 1); further runs queue. */
  concurrency?: number
  /** One run's budget, ms (default 45,000); past it the run is stopped and the estimate is used. */
  timeoutMs?: number
  /** Slots one account holds at once (default: all but one, at least 1). */
  perUser?: number
  /** Runs one account may have waiting for a slot (default 3); past it a check uses the estimate at once. */
  queuePerUser?: number
  /** The longest a run waits for a slot, ms (default: the run's timeout + 15 s); then the estimate. */
  queueWaitMs?: number
  /** Lift the SSRF guard for the browser's requests too (intranet self-hosting, tests). */
  allowPrivateTargets?: boolean
  log?: (line: string) => void
}

export const LAB_DEFAULTS = {
  concurrency: 1,
  timeoutMs: 45_000,
  queuePerUser: 3,
  queueWaitMarginMs: 15_000,
} as const
