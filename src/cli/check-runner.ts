/**
 * `check`'s work: run the URLs in order, one at a time (the run limit is per key, so parallel
 * requests would only queue on 429s). A failure of one URL (invalid_url, check_failed) does not
 * stop the others; a failure that every later URL would repeat (authentication, credits, rate
 * limit, the API unreachable) does. Then one verdict for the whole batch: its exit code and the
 * closing summary line.
 */
import { ApiError, type SitehealthClient } from '../client/client.js'
import type { RunResult } from '../contract/index.js'
import { EXIT, exitCodeFor } from './exit-codes.js'

export type CheckOutcome =
  { url: string; result: RunResult; error?: undefined } | { url: string; result?: undefined; error: ApiError }

const BATCH_STOPPING = new Set<number>([EXIT.auth, EXIT.insufficientCredits, EXIT.rateLimited])

export function stopsBatch(err: ApiError): boolean {
  return BATCH_STOPPING.has(exitCodeFor(err)) || exitCodeFor(err) === EXIT.failure
}

export interface RunChecksHooks {
  /** Wraps each request (a spinner). */
  around?: <T>(url: string, index: number, work: () => Promise<T>) => Promise<T>
  /** Called with each outcome as soon as it is known (streamed human output). */
  onOutcome?: (outcome: CheckOutcome, index: number) => void
}

export async function runChecks(
  client: Pick<SitehealthClient, 'runCheck'>,
  urls: string[],
  hooks: RunChecksHooks = {},
): Promise<CheckOutcome[]> {
  const outcomes: CheckOutcome[] = []
  const around = hooks.around ?? ((_url, _i, work) => work())
  for (const [i, url] of urls.entries()) {
    let outcome: CheckOutcome
    try {
      outcome = { url, result: await around(url, i, () => client.runCheck(url)) }
    } catch (err) {
      if (!(err instanceof ApiError)) throw err
      outcome = { url, error: err }
    }
    outcomes.push(outcome)
    hooks.onOutcome?.(outcome, i)
    if (outcome.error && stopsBatch(outcome.error)) break
  }
  return outcomes
}

/** URLs whose score is below `threshold`. */
export function belowThreshold(
  outcomes: CheckOutcome[],
  threshold: number,
): Array<{ url: string; score: number }> {
  return outcomes.flatMap((o) =>
    o.result && o.result.data.healthScore < threshold
      ? [{ url: o.url, score: o.result.data.healthScore }]
      : [],
  )
}

const isTargetDown = (o: CheckOutcome) => o.error?.code === 'check_failed'

/**
 * The exit code of a batch. A failure of the checker or of the request (auth, credits, rate
 * limit, the API down, a bad URL) wins, as the first one met. A target that could not be reached
 * is "the site is down": 7, or under --fail-under a score of 0, so 3 like any site below the bar.
 * Then 3 for a score below --fail-under, else 0.
 */
export function batchExitCode(outcomes: CheckOutcome[], threshold?: number): number {
  const other = outcomes.find((o) => o.error && !isTargetDown(o))
  if (other) return exitCodeFor(other.error)
  if (outcomes.some(isTargetDown)) return threshold !== undefined ? EXIT.belowThreshold : EXIT.targetDown
  if (threshold !== undefined && belowThreshold(outcomes, threshold).length > 0) return EXIT.belowThreshold
  return EXIT.ok
}

/** "Checked 5 URLs: 3 passed, 1 below 80, 1 failed; 4 credits used, 96 left." */
export function batchSummary(outcomes: CheckOutcome[], total: number, threshold?: number): string {
  const results = outcomes.filter((o) => o.result)
  const failed = outcomes.length - results.length
  const parts: string[] = []
  if (threshold !== undefined) {
    const below = belowThreshold(outcomes, threshold).length
    parts.push(`${results.length - below} passed`, `${below} below ${threshold}`)
  } else {
    parts.push(`${results.length} checked`)
  }
  parts.push(`${failed} failed`)
  if (outcomes.length < total) parts.push(`${total - outcomes.length} not run`)
  const last = [...results].reverse()[0]?.result
  const credits = `${results.length} credit${results.length === 1 ? '' : 's'} used${last ? `, ${last.credits.remaining} left` : ''}`
  return `${total} URL${total === 1 ? '' : 's'}: ${parts.join(', ')}; ${credits}.`
}
