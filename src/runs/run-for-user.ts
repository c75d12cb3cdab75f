/**
 * Running one check for one user, the same way wherever it is asked for (the API's run route, a
 * monitor's run-now route, the scheduler, the dashboard's run page): guard the URL, hold a credit
 * (settle.ts: the failure budget, then the credit, so a request that cannot pay is refused at
 * once instead of queueing for a slot), run it in a slot (execute.ts), then settle: save the
 * check with its charge, or give the credit back. Callers turn a RunRefused into their own answer
 * (the envelope, a dashboard page, a monitor's failed run).
 */
import type { CheckReport } from '../checks/index.js'
import type { CheckRecord } from '../store/types.js'
import { execute, guardTarget, type ExecuteDeps, type ExecuteHow } from './execute.js'
import { reserve, settle, type Budget, type SettleDeps } from './settle.js'

export type RunDeps = ExecuteDeps & SettleDeps

export interface RunHow extends ExecuteHow {
  /** Free failures are counted per key (API keys; `user:<id>` for the dashboard). */
  budget?: Budget
  /** The server waits for these on shutdown. */
  inFlight?: Set<Promise<unknown>>
}

export interface RunDone {
  check: CheckRecord
  report: CheckReport
  /** Credits left after this check. */
  remaining: number
}

export async function runForUser(
  deps: RunDeps,
  userId: string,
  url: string,
  how: RunHow = {},
): Promise<RunDone> {
  try {
    const target = guardTarget(deps, url, how.requestId)
    const ticket = await reserve(deps, userId, how.budget)
    const work = (async (): Promise<RunDone> => {
      let report: CheckReport
      try {
        report = await execute(deps, userId, target.href, how)
      } catch (error) {
        return settle(deps, ticket, { error })
      }
      const saved = await settle(deps, ticket, { report })
      return { ...saved, report }
    })()
    how.inFlight?.add(work)
    try {
      return await work
    } finally {
      how.inFlight?.delete(work)
    }
  } finally {
    // a slot handed in is released however the run ends (execute releases it once it ran)
    how.slot?.release()
  }
}
