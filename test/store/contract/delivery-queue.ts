/**
 * The delivery queue in the storage contract (src/store/delivery-queue.ts): one holder at a time
 * sends an event's alerts, a lease given back or run out frees it, deliveries are replaced in place.
 */
import { expect, it } from 'vitest'
import type { DeliveryQueueStore } from '../../../src/store/delivery-queue.js'
import type { MonitorDefinitionStore } from '../../../src/store/monitors.js'
import type { RunLogStore } from '../../../src/store/run-log.js'
import { event, monitor, run } from './fixtures.js'
import type { Store } from '../../../src/store/types.js'
import type { ContractContext } from './index.js'

const mon = (s: Store): MonitorDefinitionStore & RunLogStore & DeliveryQueueStore => s.monitors

export function deliveryQueueContract(t: ContractContext): void {
  it("lets one holder at a time send an event's alerts: a lease, given back or run out", async () => {
    const store = await t.open()
    const ms = mon(store)
    const m = await ms.createMonitor(monitor('alice', Date.now() + 60_000))
    const [e1, e2] = [event(m), event(m)]
    await ms.finishRun(m, run(m), [e1])
    await ms.finishRun(m, run(m), [e2])
    // the instance that raised e1 takes it; a sweep at the same moment gets only e2
    const [mine, swept] = await Promise.all([ms.claimDeliveries(60_000, [e1.id]), ms.claimDeliveries(60_000)])
    expect(mine.map((e) => e.id)).toEqual([e1.id])
    expect(swept.map((e) => e.id)).toEqual([e2.id])
    expect(await ms.claimDeliveries(60_000)).toEqual([])
    // given back (a stop): free at once
    await ms.releaseDeliveries([e1.id])
    expect((await ms.claimDeliveries(60_000)).map((e) => e.id)).toEqual([e1.id])
    // run out (its holder died): free again
    await ms.releaseDeliveries([e1.id])
    expect((await ms.claimDeliveries(1, [e1.id])).map((e) => e.id)).toEqual([e1.id])
    await new Promise((r) => setTimeout(r, 20))
    expect((await ms.claimDeliveries(60_000)).map((e) => e.id)).toEqual([e1.id])
    await store.close()
  })

  it('replaces a delivery in place, ends its lease when none is pending, and keeps it across a reopen', async () => {
    let store = await t.open()
    const ms = mon(store)
    const m = await ms.createMonitor(monitor('alice', Date.now() + 60_000))
    const ev = event(m)
    await ms.finishRun(m, run(m), [ev])
    expect((await ms.claimDeliveries(60_000)).map((e) => e.id)).toEqual([ev.id])
    const d = {
      ...ev.deliveries[0],
      status: 'delivered' as const,
      attempts: 3,
      last_attempt_at: new Date().toISOString(),
    }
    await ms.updateDelivery(m.id, ev.id, d)
    await ms.releaseDeliveries([ev.id])
    expect(await ms.claimDeliveries(60_000)).toEqual([])
    store = await t.reopen(store)
    expect((await mon(store).listEvents(m.id, { limit: 10 })).items[0].deliveries).toEqual([d])
    expect(await mon(store).claimDeliveries(60_000)).toEqual([])
  })
}
