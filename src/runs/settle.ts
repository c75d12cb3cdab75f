/**
 * Paying for a run, apart from making it (execute.ts): `reserve` spends nothing yet but holds one
 * credit (after the key's failure budget allows another run); `settle` ends the hold by what the
 * run came to: a check saved with its charge, a run that reached its target charged with no check,
 * or a failure, whose credit goes back (a `check_failed` counts against the failure budget). The
 * server settles here what it or a remote executor ran.
 */
import type { CheckReport } from '../checks/index.js'
import type { CheckRecord, Reservation, Store } from '../store/types.js'
import type { FailureBudget } from './failure-budget.js'
import { toCheckRecord } from './record.js'
import { NO_CREDITS, RunRefused } from './refusal.js'

export interface SettleDeps {
  store: Pick<Store, 'users' | 'checks'>
}

/** Free failures are counted per key (API keys; `user:<id>` for the dashboard). */
export interface Budget {
  failures: FailureBudget
  key: string
}

/** A credit held for one run: what `settle` ends. */
export interface Ticket {
  readonly reservation: Reservation
  readonly budget?: Budget
}

/** What a run came to, as `settle` is told it. */
export type Execution =
  /** A health check: saved, and charged with it. */
  | { report: CheckReport }
  /** The run reached its target but keeps no health check: charged. */
  | { reached: true }
  /** Refused or failed (the error is thrown on): nothing charged. */
  | { error: unknown }

/** Holds one credit of `userId`; RunRefused `rate_limited` (the failure budget) or `insufficient_credits`. */
export async function reserve(deps: SettleDeps, userId: string, budget?: Budget): Promise<Ticket> {
  const wait = budget ? budget.failures.retryAfterSec(budget.key) : 0
  if (budget && wait > 0) {
    const p = budget.failures.policy
    throw new RunRefused(
      'rate_limited',
      `Too many failed checks: at most ${p.limit} per ${Math.round(p.windowMs / 1000)} s for this key. Retry in ${wait} s.`,
      wait,
    )
  }
  const reservation = await deps.store.users.reserveCredit(userId)
  if (!reservation) throw new RunRefused('insufficient_credits', NO_CREDITS)
  return { reservation, budget }
}

/** Gives a held credit back: the run failed, nothing is charged (no failure budget counted). */
export async function release(deps: SettleDeps, ticket: Ticket): Promise<void> {
  await deps.store.users.releaseCredit(ticket.reservation)
}

export function settle(
  deps: SettleDeps,
  ticket: Ticket,
  run: { report: CheckReport },
): Promise<{ check: CheckRecord; remaining: number }>
export function settle(
  deps: SettleDeps,
  ticket: Ticket,
  run: { reached: true },
): Promise<{ remaining: number }>
export function settle(deps: SettleDeps, ticket: Ticket, run: { error: unknown }): Promise<never>
/** Ends the ticket's hold by what the run came to; a store that fails gives the credit back and throws. */
export async function settle(
  deps: SettleDeps,
  ticket: Ticket,
  run: Execution,
): Promise<{ check?: CheckRecord; remaining: number }> {
  const { users, checks } = deps.store
  const { reservation, budget } = ticket
  if ('error' in run) {
    // a release that fails (database gone) must not hide the answer: the lease returns it
    await users.releaseCredit(reservation).catch(() => {})
    if (budget && run.error instanceof RunRefused && run.error.code === 'check_failed')
      budget.failures.record(budget.key)
    throw run.error
  }
  try {
    if ('reached' in run) return await users.chargeCredit(reservation)
    const record = { user_id: reservation.user_id, ...toCheckRecord(run.report) }
    return await checks.commit(reservation, record)
  } catch (err) {
    await users.releaseCredit(reservation).catch(() => {})
    throw err
  }
}
