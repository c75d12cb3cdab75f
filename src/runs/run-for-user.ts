/**
 * Running one check for one user, the same way wherever it is asked for (the API's run route, a
 * monitor's run-now route, the scheduler, the dashboard's run page): check the URL, spend the
 * key's failure budget, reserve a credit, take a slot of the server's check capacity, run the
 * engine, then save the check (which consumes the credit) or give the credit back. Callers turn a
 * RunRefused into their own answer (the envelope, a dashboard page, a monitor's failed run).
 */
import { CapacityExceededError, type CheckCapacity, type Slot } from '../capacity/index.js'
import {
  CheckError,
  asSentence,
  assertTargetAllowed,
  parseTargetUrl,
  runCheck,
  type CheckReport,
} from '../checks/index.js'
import type { FailureBudget } from './failure-budget.js'
import { toCheckRecord } from './record.js'
import type { LabRunner } from '../checks/lab-outcome.js'
import type { CheckRecord, Store } from '../store/types.js'
import type { CheckOutcome } from '../metrics/index.js'

export interface RunDeps {
  store: Store
  capacity: CheckCapacity
  allowPrivateTargets: boolean
  /** Whole-check budget, ms. */
  checkTimeoutMs: number
  /** Replaces the engine (tests and benchmarks of the scheduler at scale). */
  check?: (url: string) => Promise<CheckReport>
  /** The lab browser (`serve --lab-browser`); runs that ask for `pagespeed: 'lab'` are measured there. */
  lab?: LabRunner
  /** Where a refusal's private detail goes (e.g. which address a blocked name resolved to). */
  log?: (line: string) => void
  /** Check durations and outcomes for /metrics. */
  metrics?: { observeCheck(outcome: CheckOutcome, seconds: number): void }
}

export interface RunHow {
  /** A slot already held (the scheduler waits for its own); it is released when the run ends. */
  slot?: Slot
  /** Without a held slot: how long to wait for one, ms (0 refuses at once). */
  waitMs?: number
  signal?: AbortSignal
  /** The API request this run answers, for the log line of a refusal's detail. */
  requestId?: string
  /** Free failures are counted per key (API keys; `user:<id>` for the dashboard). */
  budget?: { failures: FailureBudget; key: string }
  /**
   * 'lab': measure performance in the lab browser when the server has one (on-demand checks and
   * monitors that ask for it); 'estimate' (the default): the estimate only. Still one credit.
   */
  pagespeed?: Pagespeed
  /** The server waits for these on shutdown. */
  inFlight?: Set<Promise<unknown>>
}

export type Pagespeed = 'lab' | 'estimate'

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

export interface RunDone {
  check: CheckRecord
  report: CheckReport
  /** Credits left after this check. */
  remaining: number
}

/** A busy server asks for a short pause: checks take seconds, so slots free within a few. */
export const BUSY_RETRY_AFTER_SEC = 5

export const NO_CREDITS = 'Not enough credits to run a check. Ask your administrator for more credits.'

export async function runForUser(
  deps: RunDeps,
  userId: string,
  url: string,
  how: RunHow = {},
): Promise<RunDone> {
  const { store } = deps
  let held = how.slot
  try {
    let target: URL
    try {
      target = parseTargetUrl(url)
      assertTargetAllowed(target, { allowPrivateTargets: deps.allowPrivateTargets })
    } catch (err) {
      throw refusal(err, deps, how.requestId)
    }
    const budget = how.budget
    const failureWait = budget ? budget.failures.retryAfterSec(budget.key) : 0
    if (budget && failureWait > 0) {
      const p = budget.failures.policy
      throw new RunRefused(
        'rate_limited',
        `Too many failed checks: at most ${p.limit} per ${Math.round(p.windowMs / 1000)} s for this key. Retry in ${failureWait} s.`,
        failureWait,
      )
    }
    const reservation = await store.users.reserveCredit(userId)
    if (!reservation) throw new RunRefused('insufficient_credits', NO_CREDITS)
    // credits first, so a request that cannot pay is refused at once instead of queueing for a slot
    if (!held) {
      try {
        held = await deps.capacity.acquire(userId, { waitMs: how.waitMs ?? 0, signal: how.signal })
      } catch (err) {
        // a release that fails (database gone) must not hide the answer: the lease returns it
        await store.users.releaseCredit(reservation).catch(() => {})
        if (!(err instanceof CapacityExceededError)) throw err
        throw new RunRefused(
          'server_busy',
          `${err.message}; nothing was charged. Retry in a few seconds.`,
          BUSY_RETRY_AFTER_SEC,
        )
      }
    }
    const slot = held
    const work = (async (): Promise<RunDone> => {
      let report: CheckReport
      const started = performance.now()
      const observe = (outcome: CheckOutcome) =>
        deps.metrics?.observeCheck(outcome, (performance.now() - started) / 1000)
      try {
        report = deps.check
          ? await deps.check(target.href)
          : await runCheck(target.href, {
              allowPrivateTargets: deps.allowPrivateTargets,
              totalTimeoutMs: deps.checkTimeoutMs,
              lab: how.pagespeed === 'lab' ? deps.lab : undefined,
            })
      } catch (err) {
        await store.users.releaseCredit(reservation).catch(() => {})
        const refused = refusal(err, deps, how.requestId)
        observe(refused instanceof RunRefused ? (refused.code as CheckOutcome) : 'error')
        if (budget && refused instanceof RunRefused && refused.code === 'check_failed')
          budget.failures.record(budget.key)
        throw refused
      } finally {
        slot.release()
      }
      observe('saved')
      try {
        const saved = await store.checks.commit(reservation, { user_id: userId, ...toCheckRecord(report) })
        return { check: saved.check, report, remaining: saved.remaining }
      } catch (err) {
        await store.users.releaseCredit(reservation).catch(() => {})
        throw err
      }
    })()
    how.inFlight?.add(work)
    try {
      return await work
    } finally {
      how.inFlight?.delete(work)
    }
  } finally {
    held?.release()
  }
}

function refusal(err: unknown, deps: Pick<RunDeps, 'log'>, requestId?: string): unknown {
  if (!(err instanceof CheckError)) return err
  // what the caller must not see stays in the log: one line, an outcome rather than a fault
  if (err.detail && deps.log)
    deps.log(`info ${requestId ?? '-'}: ${err.code} detail: ${err.detail.split('\n')[0]}`)
  return new RunRefused(err.code === 'invalid_url' ? 'invalid_url' : 'check_failed', asSentence(err.message))
}
