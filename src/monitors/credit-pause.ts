/**
 * Pausing for credits: when a user's paid run finds no credit left, every active monitor of the
 * user whose kind costs credits pauses itself with `credits.exhausted` (the others keep
 * watching), and they resume by themselves once the user has credits again.
 */
import type { MonitorDefinitionStore, MonitorRecord } from '../store/monitors.js'
import type { EventRecord, RunLogStore } from '../store/run-log.js'
import type { Store } from '../store/types.js'
import { eventRecords } from './alerts/index.js'
import { kindOf } from './kinds/index.js'

export interface CreditPauseDeps {
  monitors: MonitorDefinitionStore & Pick<RunLogStore, 'recordEvents'>
  users: Store['users']
  dispatch: (m: MonitorRecord, events: EventRecord[]) => void
  now: () => number
}

export class CreditPause {
  private readonly pausing = new Map<string, Promise<void>>()

  constructor(private readonly d: CreditPauseDeps) {}

  /** Out of credits: every active paid monitor of the user pauses itself with credits.exhausted. */
  pause(userId: string): Promise<void> {
    // runs of one user run out together: one pass per user at a time, so one event per monitor
    let p = this.pausing.get(userId)
    if (!p) {
      p = this.pauseUser(userId).finally(() => this.pausing.delete(userId))
      this.pausing.set(userId, p)
    }
    return p
  }

  private async pauseUser(userId: string): Promise<void> {
    const now = this.d.now()
    for (const m of await this.d.monitors.userMonitors(userId)) {
      if (m.paused || !kindOf(m).paid) continue
      const paused: MonitorRecord = {
        ...m,
        paused: true,
        paused_reason: 'credits',
        next_run_at: null,
        updated_at: new Date(now).toISOString(),
      }
      const message = `Monitoring of ${kindOf(m).target(m)} is paused: no credits left. It resumes by itself when credits are granted`
      const events = eventRecords(
        paused,
        m.state,
        [{ event: 'credits.exhausted', message }],
        m.last_check,
        now,
      )
      const saved = await this.d.monitors.recordEvents(paused, events)
      if (saved) this.d.dispatch(saved, events)
    }
  }

  /** Monitors paused for credits resume once their user has credits again; returns how many did. */
  async resume(jitterMs: number): Promise<number> {
    let resumed = 0
    for (const userId of await this.d.monitors.creditPausedUsers()) {
      if ((await this.d.users.availableCredits(userId)) < 1) continue
      const now = this.d.now()
      for (const m of await this.d.monitors.userMonitors(userId)) {
        if (!m.paused || m.paused_reason !== 'credits') continue
        await this.d.monitors.updateMonitor({
          ...m,
          paused: false,
          paused_reason: null,
          next_run_at: now + Math.floor(Math.random() * jitterMs),
          updated_at: new Date(now).toISOString(),
        })
        resumed++
      }
    }
    return resumed
  }
}
