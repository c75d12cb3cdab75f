/**
 * The schedule in the storage contract (src/store/schedule.ts): a due monitor is handed to one
 * claim until its run ends or the claim is given back, then at its new time.
 */
import { expect, it } from 'vitest'
import type { MonitorDefinitionStore } from '../../../src/store/monitors.js'
import type { ScheduleStore } from '../../../src/store/schedule.js'
import type { RunLogStore } from '../../../src/store/run-log.js'
import { event, monitor, run } from './fixtures.js'
import type { Store } from '../../../src/store/types.js'
import type { ContractContext } from './index.js'

const mon = (s: Store): MonitorDefinitionStore & ScheduleStore & RunLogStore => s.monitors

export function scheduleContract(t: ContractContext): void {
  it('hands each due monitor to one claim until its run ends, then at its new time', async () => {
    const store = await t.open()
    const ms = mon(store)
    const now = Date.now()
    const due = await ms.createMonitor(monitor('alice', now - 1000))
    const later = await ms.createMonitor(monitor('alice', now + 60_000))
    await ms.createMonitor(monitor('alice', null, { paused: true, paused_reason: 'user' }))
    expect(await ms.nextDueAt()).toBe(now - 1000)
    const [a, b] = await Promise.all([ms.claimDue(now, 10), ms.claimDue(now, 10)])
    expect([...a, ...b].map((c) => c.monitor.id)).toEqual([due.id])
    expect(await ms.nextDueAt()).toBe(now + 60_000)
    const ev = event(due)
    const r = run(due)
    await ms.finishRun({ ...due, state: 'down', next_run_at: now + 30_000 }, r, [ev])
    expect(await ms.claimDue(now, 10)).toEqual([])
    expect(await ms.nextDueAt()).toBe(now + 30_000)
    expect((await ms.claimDue(now + 30_000, 10)).map((c) => c.monitor.id)).toEqual([due.id])
    await ms.releaseClaim(due.id)
    expect((await ms.claimDue(now + 30_000, 10)).map((c) => [c.monitor.id, c.due_at])).toEqual([
      [due.id, now + 30_000],
    ])
    void later
  })
}
