/**
 * Running a check, apart from paying for it (settle.ts): the SSRF guard, a slot of the server's
 * check capacity, the engine and its time limit. Nothing here touches the store, so an executor
 * elsewhere (an agent) can run a check the same way and hand its report to the server to settle.
 */
import { CapacityExceededError, type CheckCapacity, type Slot } from '../capacity/index.js'
import { assertTargetAllowed, parseTargetUrl, runCheck, type CheckReport } from '../checks/index.js'
import type { LabRunner } from '../checks/lab-outcome.js'
import type { CheckOutcome } from '../metrics/index.js'
import { BUSY_RETRY_AFTER_SEC, RunRefused, refusalOf } from './refusal.js'

export interface ExecuteDeps {
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
  /** CAs trusted beside Node's by the probes of types that keep no check (tls; tests). */
  extraCA?: string | string[]
  /** Check durations and outcomes for /metrics. */
  metrics?: { observeCheck(outcome: CheckOutcome, seconds: number): void }
}

export type Pagespeed = 'lab' | 'estimate'

export interface ExecuteHow {
  /** A slot already held (the scheduler waits for its own); it is released when the run ends. */
  slot?: Slot
  /** Without a held slot: how long to wait for one, ms (0 refuses at once). */
  waitMs?: number
  signal?: AbortSignal
  /** The API request this run answers, for the log line of a refusal's detail. */
  requestId?: string
  /**
   * 'lab': measure performance in the lab browser when the server has one (on-demand checks and
   * monitors that ask for it); 'estimate' (the default): the estimate only. Still one credit.
   */
  pagespeed?: Pagespeed
}

/** The target past the SSRF guard, or RunRefused `invalid_url` (the engine guards each address it connects to as well). */
export function guardTarget(
  deps: Pick<ExecuteDeps, 'allowPrivateTargets' | 'log'>,
  url: string,
  requestId?: string,
): URL {
  try {
    const target = parseTargetUrl(url)
    assertTargetAllowed(target, { allowPrivateTargets: deps.allowPrivateTargets })
    return target
  } catch (err) {
    throw refusalOf(err, deps.log, requestId)
  }
}

/**
 * Runs the check of `url` for `userId` (whose per-user cap it counts against) in a slot of the
 * server's capacity, and returns the engine's report. Refuses with `invalid_url`, `server_busy`
 * (no slot in time) or `check_failed`; the engine's other errors pass on. The slot is released
 * when the engine ends.
 */
export async function execute(
  deps: ExecuteDeps,
  userId: string,
  url: string,
  how: ExecuteHow = {},
): Promise<CheckReport> {
  let slot = how.slot
  try {
    const target = guardTarget(deps, url, how.requestId)
    slot ??= await takeSlot(deps.capacity, userId, how)
    const started = performance.now()
    const observe = (outcome: CheckOutcome) =>
      deps.metrics?.observeCheck(outcome, (performance.now() - started) / 1000)
    try {
      const report = deps.check
        ? await deps.check(target.href)
        : await runCheck(target.href, {
            allowPrivateTargets: deps.allowPrivateTargets,
            totalTimeoutMs: deps.checkTimeoutMs,
            lab: how.pagespeed === 'lab' ? deps.lab : undefined,
            labOwner: userId,
          })
      observe('saved')
      return report
    } catch (err) {
      const refused = refusalOf(err, deps.log, how.requestId)
      observe(refused instanceof RunRefused ? (refused.code as CheckOutcome) : 'error')
      throw refused
    }
  } finally {
    slot?.release()
  }
}

/** A slot of the server's check capacity for `userId`, or RunRefused `server_busy` when none frees in time. */
export async function takeSlot(capacity: CheckCapacity, userId: string, how: ExecuteHow): Promise<Slot> {
  try {
    return await capacity.acquire(userId, { waitMs: how.waitMs ?? 0, signal: how.signal })
  } catch (err) {
    if (!(err instanceof CapacityExceededError)) throw err
    throw new RunRefused(
      'server_busy',
      `${err.message}; nothing was charged. Retry in a few seconds.`,
      BUSY_RETRY_AFTER_SEC,
    )
  }
}
