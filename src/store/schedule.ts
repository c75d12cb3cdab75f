/**
 * The schedule, a monitor concern of the storage interface (monitors.ts): the next-run times the
 * scheduler claims, each due run handed to one caller only, across instances on PostgreSQL too.
 * A claim ends with its run (run-log.ts `finishRun`) or is given back.
 */
import type { MonitorRecord } from './monitors.js'

/** A due run handed to one scheduler: the monitor as stored and the time it was due. */
export interface Claim {
  monitor: MonitorRecord
  due_at: number
  /**
   * The stored monitor's version as claimed (PostgreSQL: the row's xmin), when the backend has
   * one: `finishRun` with it writes only if nothing changed the monitor since, which saves reading
   * it again at the end of the run.
   */
  version?: string
}

export interface ScheduleStore {
  /**
   * Hands out monitors whose next run is due at `now` (at most `max`), each to one caller only:
   * a claimed monitor is not handed out again until `finishRun` or `releaseClaim`, or (shared
   * backends) until `leaseMs` have passed: the instance holding it died. With `aheadMs`, also
   * those due within that many ms after `now` (a backend may hand out only those due at `now`).
   */
  claimDue(now: number, max: number, leaseMs?: number, aheadMs?: number): Promise<Claim[]>
  /** The earliest next_run_at not claimed (for the scheduler's timer); null when none. */
  nextDueAt(): Promise<number | null>
  /** Give a claim back unrun (shutdown): its next_run_at is unchanged, so it is not skipped. */
  releaseClaim(monitorId: string): Promise<void>
}
