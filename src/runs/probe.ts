/**
 * A run that keeps no health check (a tcp port, a certificate on any port…), paid as a check is:
 * hold a credit (refused at once when there is none), take a slot of the server's check capacity,
 * probe, then settle by what the probe came to: `{ reached: true }` charges the credit when it
 * succeeded, a failed probe gives it back. The probe itself is the caller's (the monitor's kind).
 */
import { takeSlot } from './execute.js'
import type { RunDeps, RunHow } from './run-for-user.js'
import { release, reserve, settle } from './settle.js'

export interface Probed<T> {
  /** What the probe returned. */
  result: T
  /** It succeeded (and was charged). */
  ok: boolean
  /** Credits left after the charge; null when nothing was charged. */
  remaining: number | null
}

/**
 * Runs `probe` for `userId` in a slot and pays for it: charged when `succeeded(result)`, else the
 * credit goes back. RunRefused `insufficient_credits` (nothing run), `server_busy` (no slot in
 * time); a store that fails passes on (the credit given back).
 */
export async function probeForUser<T>(
  deps: RunDeps,
  userId: string,
  how: RunHow,
  probe: () => Promise<T>,
  succeeded: (result: T) => boolean,
): Promise<Probed<T>> {
  let slot = how.slot
  try {
    const ticket = await reserve(deps, userId, how.budget)
    let result: T
    try {
      slot ??= await takeSlot(deps.capacity, userId, how)
      result = await probe()
    } catch (error) {
      return settle(deps, ticket, { error })
    } finally {
      slot?.release()
      slot = undefined
    }
    if (!succeeded(result)) {
      await release(deps, ticket)
      return { result, ok: false, remaining: null }
    }
    const { remaining } = await settle(deps, ticket, { reached: true })
    return { result, ok: true, remaining }
  } finally {
    slot?.release()
  }
}
