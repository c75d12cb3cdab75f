/**
 * The embedded store's half of the monitor cap (CreateMonitorOptions.maxPerUser): a user's
 * monitors are the ones in memory plus the creates still on their way to the journal, counted
 * and reserved with no await between, so creates racing each other cannot pass the cap.
 */
import { MonitorLimitError } from '../errors.js'

export class CreatesInFlight {
  private readonly byUser = new Map<string, number>()

  /**
   * Reserves a place for one create of `userId`, who holds `held` monitors: MonitorLimitError
   * when that and the creates in flight reach `max`. Returns the release, for when it settles.
   */
  reserve(userId: string, held: number, max = Infinity): () => void {
    const n = this.byUser.get(userId) ?? 0
    if (held + n >= max) throw new MonitorLimitError(max)
    this.byUser.set(userId, n + 1)
    return () => {
      const left = (this.byUser.get(userId) ?? 1) - 1
      if (left > 0) this.byUser.set(userId, left)
      else this.byUser.delete(userId)
    }
  }
}
