/** Why a run was not made or not paid for: the callers turn a RunRefused into their own answer. */
import { CheckError, asSentence } from '../checks/index.js'

export type RefusalCode =
  'invalid_url' | 'rate_limited' | 'insufficient_credits' | 'server_busy' | 'check_failed'

/** Nothing was charged. `invalid_url` and `check_failed` are the URL's fault; the rest are not. */
export class RunRefused extends Error {
  override readonly name = 'RunRefused'
  constructor(
    readonly code: RefusalCode,
    message: string,
    /** For rate_limited and server_busy. */
    readonly retryAfterSec?: number,
  ) {
    super(message)
  }
}

/** A busy server asks for a short pause: checks take seconds, so slots free within a few. */
export const BUSY_RETRY_AFTER_SEC = 5

export const NO_CREDITS = 'Not enough credits to run a check. Ask your administrator for more credits.'

/**
 * The engine's CheckError as a RunRefused (anything else unchanged). What the caller must not see
 * (e.g. which address a blocked name resolved to) goes to the log: one line, an outcome, not a fault.
 */
export function refusalOf(err: unknown, log?: (line: string) => void, requestId?: string): unknown {
  if (!(err instanceof CheckError)) return err
  if (err.detail && log) log(`info ${requestId ?? '-'}: ${err.code} detail: ${err.detail.split('\n')[0]}`)
  return new RunRefused(err.code === 'invalid_url' ? 'invalid_url' : 'check_failed', asSentence(err.message))
}
