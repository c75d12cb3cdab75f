/**
 * Alert dispatch over a store that fails (docs/decisions.md#faults): an alert whose outcome
 * cannot be recorded is written again once the store answers, never lost and never sent a second
 * time meanwhile; an alert whose lease could not be taken is swept later; a stop during the
 * outage does not hang. The store is the real embedded monitor store behind a switch that makes
 * its delivery writes fail the way a database that is down does.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Delivery } from '../../../src/contract/monitors.js'
import { Deliverer } from '../../../src/monitors/channels/deliver.js'
import { AlertDispatcher } from '../../../src/monitors/alerts/index.js'
import { sealChannel } from '../../../src/monitors/channels/records.js'
import { nextId } from '../../../src/monitors/ids.js'
import { LowdbMonitorStore } from '../../../src/store/embedded/monitors.js'
import type { EventRecord } from '../../../src/store/run-log.js'
import type { MonitorRecord } from '../../../src/store/monitors.js'
import type { MonitorStore } from '../../../src/store/types.js'
import { monitor } from '../../store/contract/fixtures.js'
import { removeDir, tempDir } from '../../store/helpers.js'
import { startReceiver, waitFor, type Receiver } from '../fixtures.js'

const cleanups: Array<() => Promise<unknown>> = []
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c()
})

/** Which store methods fail now, as a database that refuses connections fails them. */
type Failing = Set<'updateDelivery' | 'claimDeliveries' | 'releaseDeliveries'>

function failingStore(inner: MonitorStore, failing: Failing): MonitorStore {
  const refused = () =>
    Promise.reject(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }))
  return new Proxy(inner, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown
      if (typeof value !== 'function') return value
      if (failing.has(prop as never)) return refused
      return (value as (...a: unknown[]) => unknown).bind(target)
    },
  })
}

function event(m: MonitorRecord): EventRecord {
  return {
    id: nextId(),
    monitor_id: m.id,
    user_id: m.user_id,
    event: 'monitor.down',
    occurred_at: new Date().toISOString(),
    message: 'down',
    previous_state: 'up',
    state: 'down',
    check: null,
    deliveries: m.channels.map((c): Delivery => ({
      channel_id: c.id,
      type: c.type,
      status: 'pending',
      attempts: 0,
      last_attempt_at: null,
      last_error: null,
    })),
  }
}

async function setup(o: { leaseMs?: number } = {}) {
  const dir = await tempDir()
  const inner = new LowdbMonitorStore(dir)
  await inner.load()
  const receiver: Receiver = await startReceiver()
  const failing: Failing = new Set()
  const store = failingStore(inner, failing)
  const deliverer = new Deliverer({
    allowPrivateTargets: true,
    backoffMs: 50,
    maxAttempts: 3,
    timeoutMs: 2000,
    openSecret: (s) => s,
  })
  const lines: string[] = []
  const dispatcher = new AlertDispatcher({
    monitors: store,
    deliverer,
    log: (l) => lines.push(l),
    leaseMs: o.leaseMs,
    recorder: { minBackoffMs: 50, maxBackoffMs: 200 },
  })
  const m = await inner.createMonitor(
    monitor('alice', null, {
      channels: [
        sealChannel(
          { id: nextId(), type: 'slack', fields: { url: receiver.url('/hook') } },
          { seal: (s) => s, open: (s) => s },
        ),
      ],
    }),
  )
  const e = event(m)
  await inner.recordEvents(m, [e])
  let drained = false
  const drain = async () => {
    if (drained) return
    drained = true
    await deliverer.close()
    await dispatcher.drain()
  }
  cleanups.push(async () => {
    await drain()
    await receiver.close()
    await inner.close()
    await removeDir(dir)
  })
  const stored = async () => (await inner.listEvents(m.id, { limit: 10 })).items.find((x) => x.id === e.id)!
  return { inner, failing, dispatcher, receiver, m, e, lines, stored, drain }
}

describe('alert dispatch on a failing store', () => {
  it('records an outcome the store refused once it answers again: sent once, never lost, never doubled', async () => {
    // the store's leases run on Date: the test moves it past one instead of waiting it out
    vi.useFakeTimers({ toFake: ['Date'] })
    cleanups.push(async () => vi.useRealTimers())
    const t = await setup({ leaseMs: 150 })
    t.failing.add('updateDelivery')
    t.dispatcher.dispatch(t.m, [t.e])
    await waitFor(() => t.receiver.received.length === 1, 5000, 'the alert')
    await waitFor(() => t.lines.some((l) => /outcome could not be recorded/.test(l)), 5000, 'a failed write')
    vi.setSystemTime(Date.now() + 1000) // the lease (150 ms) ran out
    expect((await t.stored()).deliveries[0].status).toBe('pending')
    // a sweep now finds the event pending with its lease expired: it must not send it again
    await t.dispatcher.sweep()
    await new Promise((r) => setTimeout(r, 200))
    expect(t.receiver.received.length).toBe(1)

    t.failing.delete('updateDelivery')
    const d = await waitFor(
      async () =>
        (await t.stored()).deliveries[0].status === 'delivered'
          ? (await t.stored()).deliveries[0]
          : undefined,
      5000,
      'the outcome on record',
    )
    expect(d.attempts).toBe(1)
    await t.dispatcher.sweep()
    await new Promise((r) => setTimeout(r, 300))
    expect(t.receiver.received.length).toBe(1)
    expect(t.lines.some((l) => /outcome could not be recorded .*retrying/.test(l))).toBe(true)
    expect(t.lines.some((l) => /outcome recorded after \d+ failed writes/.test(l))).toBe(true)
  })

  it('keeps every attempt on record in order: a failed first attempt, then the delivered one', async () => {
    const t = await setup()
    t.receiver.failNext.set('/hook', 1)
    t.failing.add('updateDelivery')
    t.dispatcher.dispatch(t.m, [t.e])
    await new Promise((r) => setTimeout(r, 500))
    // the deliverer waits for the first outcome to be on record before trying again
    expect(t.receiver.received.length).toBe(1)
    t.failing.delete('updateDelivery')
    await waitFor(async () => (await t.stored()).deliveries[0].status === 'delivered', 5000, 'delivered')
    expect(t.receiver.received.map((r) => r.status)).toEqual([500, 200])
    expect((await t.stored()).deliveries[0]).toMatchObject({ attempts: 2, last_error: null })
  })

  it('sweeps an alert whose lease could not be taken once the store answers', async () => {
    const t = await setup()
    t.failing.add('claimDeliveries')
    t.dispatcher.dispatch(t.m, [t.e])
    await new Promise((r) => setTimeout(r, 200))
    expect(t.receiver.received.length).toBe(0)
    await expect(t.dispatcher.sweep()).rejects.toThrow(/ECONNREFUSED/)
    t.failing.delete('claimDeliveries')
    await t.dispatcher.sweep()
    await waitFor(async () => (await t.stored()).deliveries[0].status === 'delivered', 5000, 'delivered')
    expect(t.receiver.received.length).toBe(1)
  })

  it('stops within a moment while an outcome cannot be written; the alert stays pending for the next start', async () => {
    const t = await setup()
    t.failing.add('updateDelivery')
    t.failing.add('releaseDeliveries')
    t.dispatcher.dispatch(t.m, [t.e])
    await waitFor(() => t.receiver.received.length === 1, 5000, 'the alert')
    // from here no timer fires: a stop that waited for a back-off or a retry would never end
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] })
    let stopped = false
    try {
      void t.drain().then(() => (stopped = true))
      for (let turn = 0; turn < 1000 && !stopped; turn++) await new Promise((r) => setImmediate(r))
    } finally {
      vi.useRealTimers()
    }
    expect(stopped).toBe(true)
    expect((await t.stored()).deliveries[0].status).toBe('pending')
  })
})
