/**
 * `check`'s work: run the URLs in order, one at a time (the run limit is per key, so parallel
 * requests would only queue on 429s). A failure of one URL (invalid_url, check_failed) does not
 * stop the others; a failure that every later URL would repeat (authentication, credits, rate
 * limit, the server unreachable) does.
 */
import { ApiError, type SitehealthClient } from '../client/client.js'
import type { RunResult } from '../contract/index.js'
import { EXIT, exitCodeFor } from './exit-codes.js'

export type CheckOutcome =
  { url: string; result: RunResult; error?: undefined } | { url: string; result?: undefined; error: ApiError }

const BATCH_STOPPING = new Set<number>([EXIT.auth, EXIT.insufficientCredits, EXIT.rateLimited])

export function stopsBatch(err: ApiError): boolean {
  return (
    BATCH_STOPPING.has(exitCodeFor(err)) || err.code === 'network_error' || err.code === 'invalid_response'
  )
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
