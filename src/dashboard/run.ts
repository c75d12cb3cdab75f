/**
 * Running a check for a signed-in user: the run route's steps (src/runs: URL guard, failure
 * budget, credit, a slot of the shared check capacity, engine, save), counted in the same run
 * window, keyed by user instead of by key. Refusals become a status and a sentence for the page.
 */
import { RunRefused as Refused, runForUser as run } from '../runs/index.js'
import type { ServerOptions } from '../server/context.js'
import type { FailureBudget } from '../runs/index.js'
import { DEFAULT_CAPACITY_WAIT_MS, REFUSAL_STATUS, runDeps } from '../server/guard.js'
import type { RateLimiter } from '../http/rate-limit.js'
import type { CheckRecord } from '../store/types.js'

export class RunRefused extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
  }
}

export async function runForUser(
  opts: ServerOptions,
  limiter: RateLimiter,
  inFlight: Set<Promise<unknown>>,
  userId: string,
  input: string,
  failures?: FailureBudget,
): Promise<CheckRecord> {
  const { limits } = opts
  const decision = await limiter.hit(`user:${userId}`, {
    name: 'run',
    limit: limits.runLimit,
    windowMs: limits.runWindowSec * 1000,
  })
  if (!decision.allowed)
    throw new RunRefused(
      429,
      `Too many checks: at most ${limits.runLimit} per ${limits.runWindowSec} s. Try again in ${decision.resetSec} s.`,
    )
  try {
    const done = await run(runDeps(opts), userId, input.trim(), {
      waitMs: opts.capacityWaitMs ?? DEFAULT_CAPACITY_WAIT_MS,
      budget: failures ? { failures, key: `user:${userId}` } : undefined,
      inFlight,
      pagespeed: 'lab',
    })
    return done.check
  } catch (err) {
    if (!(err instanceof Refused)) throw err
    const message = err.code === 'check_failed' ? `${err.message} Nothing was charged.` : err.message
    throw new RunRefused(REFUSAL_STATUS[err.code], message)
  }
}
