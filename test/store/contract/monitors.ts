/**
 * The monitor concern of the storage contract (docs/decisions.md#monitors-and-alerts): CRUD scoped to the owner, paging by
 * time-ordered ids, claims that hand a due run to one caller only, a run recorded with its events
 * in one step, deliveries updated in place, and everything still there after a reopen.
 */
import { expect, it } from 'vitest'
import { nextId } from '../../../src/monitors/ids.js'
import { INITIAL_MEMORY } from '../../../src/monitors/rules.js'
import type {
  EventRecord,
  MonitorRecord,
  MonitorStore,
  Page,
  PageOptions,
  RunRecord,
} from '../../../src/store/monitors.js'
import { DuplicateRefError } from '../../../src/store/errors.js'
import type { Store } from '../../../src/store/types.js'
import type { ContractContext } from './index.js'

export function monitor(user: string, next: number | null, over: Partial<MonitorRecord> = {}): MonitorRecord {
  const now = new Date().toISOString()
  return {
    id: nextId(),
    user_id: user,
    url: 'https://example.com/',
    name: 'example.com',
    interval_seconds: 60,
    paused: false,
    paused_reason: null,
    state: 'pending',
    last_check: null,
    next_run_at: next,
    created_at: now,
    updated_at: now,
    alerts: { down_after: 2, min_score: null },
    channels: [
      { id: nextId(), type: 'webhook', target: 'https://hooks.example.com/x', secret_sealed: 'v1.x' },
    ],
    memory: INITIAL_MEMORY,
    ...over,
  }
}

function run(m: MonitorRecord, outcome: 'saved' | 'failed' = 'failed'): RunRecord {
  return {
    id: nextId(),
    monitor_id: m.id,
    started_at: new Date().toISOString(),
    outcome,
    trigger: 'schedule',
    check_id: null,
    health_score: null,
    response_time_ms: null,
    state: m.state,
    error: outcome === 'failed' ? { code: 'check_failed', message: 'refused' } : null,
  }
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
    deliveries: m.channels.map((c) => ({
      channel_id: c.id,
      type: c.type,
      status: 'pending' as const,
      attempts: 0,
      last_attempt_at: null,
      last_error: null,
    })),
  }
}

const mon = (s: Store): MonitorStore => {
  expect(s.monitors).toBeDefined()
  return s.monitors!
}

export function monitorsContract(t: ContractContext): void {
  it('creates, reads and lists only the owner’s monitors, newest first with a cursor', async () => {
    const store = await t.open()
    const ms = mon(store)
    const created: MonitorRecord[] = []
    for (let i = 0; i < 23; i++) created.push(await ms.createMonitor(monitor('alice', null)))
    await ms.createMonitor(monitor('bob', null))
    expect(await ms.getMonitor('alice', created[3].id)).toEqual(created[3])
    expect(await ms.getMonitor('bob', created[3].id)).toBeUndefined()
    const seen: string[] = []
    let before: string | undefined
    for (;;) {
      const page = await ms.listMonitors('alice', { limit: 10, before })
      seen.push(...page.items.map((m) => m.id))
      if (!page.next) break
      before = page.next
    }
    expect(seen).toEqual(created.map((m) => m.id).reverse())
    expect((await ms.userMonitors('bob')).length).toBe(1)
    expect(await ms.deleteMonitor('bob', created[0].id)).toBe(false)
    expect(await ms.deleteMonitor('alice', created[0].id)).toBe(true)
    expect(await ms.getMonitor('alice', created[0].id)).toBeUndefined()
  })

  it('keeps refs unique per user: a clash is refused on create and update, freed by rename and delete', async () => {
    let store = await t.open()
    let ms = mon(store)
    const api = await ms.createMonitor(monitor('alice', null, { ref: 'api' }))
    // another user may use the same ref; monitors without a ref never clash
    await ms.createMonitor(monitor('bob', null, { ref: 'api' }))
    await ms.createMonitor(monitor('alice', null))
    await ms.createMonitor(monitor('alice', null, { ref: null }))
    await expect(ms.createMonitor(monitor('alice', null, { ref: 'api' }))).rejects.toBeInstanceOf(
      DuplicateRefError,
    )
    const web = await ms.createMonitor(monitor('alice', null, { ref: 'web' }))
    await expect(ms.updateMonitor({ ...web, ref: 'api' })).rejects.toBeInstanceOf(DuplicateRefError)
    // a monitor may be written again with its own ref
    expect(await ms.updateMonitor({ ...api, name: 'API' })).toMatchObject({ ref: 'api', name: 'API' })
    // a renamed ref frees the old one
    await ms.updateMonitor({ ...api, name: 'API', ref: 'api-v2' })
    const again = await ms.createMonitor(monitor('alice', null, { ref: 'api' }))
    store = await t.reopen(store)
    ms = mon(store)
    expect((await ms.getMonitor('alice', api.id))?.ref).toBe('api-v2')
    await expect(ms.createMonitor(monitor('alice', null, { ref: 'api-v2' }))).rejects.toBeInstanceOf(
      DuplicateRefError,
    )
    expect(await ms.deleteMonitor('alice', again.id)).toBe(true)
    expect((await ms.createMonitor(monitor('alice', null, { ref: 'api' }))).ref).toBe('api')
    const refs = (await ms.userMonitors('alice')).map((m) => m.ref ?? null).sort()
    expect(refs).toEqual(['api', 'api-v2', 'web', null, null].sort())
  })

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

  it('records runs and events, updates deliveries, and keeps them all across a reopen', async () => {
    let store = await t.open()
    let ms = mon(store)
    const m = await ms.createMonitor(monitor('alice', Date.now() + 60_000))
    const runs: RunRecord[] = []
    for (let i = 0; i < 12; i++) {
      const r = run(m, i % 2 ? 'saved' : 'failed')
      runs.push(r)
      await ms.finishRun(m, r, i === 5 ? [event(m)] : [])
    }
    const [ev] = (await ms.listEvents(m.id, { limit: 10 })).items
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
    await ms.updateMonitor({ ...m, paused: true, paused_reason: 'credits', next_run_at: null })
    expect(await ms.creditPausedUsers()).toEqual(['alice'])

    store = await t.reopen(store)
    ms = mon(store)
    const page1 = await ms.listRuns(m.id, { limit: 10 })
    expect(page1.items.map((r) => r.id)).toEqual(
      runs
        .slice(2)
        .map((r) => r.id)
        .reverse(),
    )
    const page2 = await ms.listRuns(m.id, { limit: 10, before: page1.next! })
    expect(page2.items.map((r) => r.id)).toEqual([runs[1].id, runs[0].id])
    expect(page2.next).toBeNull()
    expect((await ms.listEvents(m.id, { limit: 10 })).items[0].deliveries[0]).toEqual(d)
    expect((await ms.getMonitor('alice', m.id))?.paused_reason).toBe('credits')
    expect(await ms.nextDueAt()).toBeNull()
    // deleting takes the history with it
    expect(await ms.deleteMonitor('alice', m.id)).toBe(true)
    store = await t.reopen(store)
    expect((await mon(store).listRuns(m.id, { limit: 10 })).items).toEqual([])
    expect(await mon(store).getMonitor('alice', m.id)).toBeUndefined()
  })

  it('gives every field of a run back as written, each run with the assertions it was judged by', async () => {
    let store = await t.open()
    const ms = mon(store)
    const m = await ms.createMonitor(monitor('alice', null))
    const t0 = Date.now() - 60_000
    const at = (i: number) => new Date(t0 + i * 1000).toISOString()
    const judged = [
      {
        source: 'status_code' as const,
        property: null,
        comparison: 'equals' as const,
        target: 200,
        passed: true,
        actual: 200,
      },
      {
        source: 'json_body' as const,
        property: '$.status',
        comparison: 'contains' as const,
        target: 'ok "quoted" é',
        passed: false,
        actual: 'degraded, "slow" — ☃',
      },
      {
        source: 'header' as const,
        property: 'x-cache',
        comparison: 'not_empty' as const,
        target: null,
        passed: true,
        actual: null,
      },
      {
        source: 'text_body' as const,
        property: null,
        comparison: 'contains' as const,
        target: 'ok',
        passed: true,
        actual: true,
      },
    ]
    const runs: RunRecord[] = [
      {
        ...run(m, 'saved'),
        started_at: at(0),
        check_id: nextId(),
        health_score: 87,
        response_time_ms: 212,
        state: 'up',
        assertions: judged,
      },
      // the monitor's assertions changed: the run keeps its own
      {
        ...run(m, 'failed'),
        started_at: at(1),
        state: 'down',
        assertions: [{ ...judged[0], target: '201', passed: false, actual: null }],
      },
      { ...run(m, 'saved'), started_at: at(2), trigger: 'manual', state: 'degraded', assertions: [] },
      {
        ...run(m, 'failed'),
        outcome: 'beat',
        started_at: at(3),
        trigger: 'heartbeat',
        state: 'maintenance',
        error: null,
      },
      {
        ...run(m, 'failed'),
        started_at: at(4),
        state: 'paused',
        error: { code: 'assertion_failed', message: 'status_code equals 200: got 503 "busy"\nline 2' },
        assertions: judged.map((a) => ({ ...a, passed: false })),
      },
      { ...run(m, 'failed'), started_at: at(5), state: 'pending' },
    ]
    for (const r of runs) await ms.finishRun(m, r, [])
    store = await t.reopen(store)
    expect((await mon(store).listRuns(m.id, { limit: 10 })).items).toEqual([...runs].reverse())
  })

  it('keeps the newest 100 runs and events of a monitor (serve --history-runs 100)', async () => {
    const store = await t.open({ monitorHistory: 100 })
    const ms = mon(store)
    const m = await ms.createMonitor(monitor('alice', Date.now() + 60_000))
    const runs: RunRecord[] = []
    const events: EventRecord[] = []
    for (let i = 0; i < 103; i++) {
      const r = run(m)
      // two events with one run, one with the others
      const es = i % 50 === 0 ? [event(m), event(m)] : [event(m)]
      runs.push(r)
      events.push(...es)
      await ms.finishRun(m, r, es)
    }
    const all = async (list: (id: string, o: PageOptions) => Promise<Page<{ id: string }>>) => {
      const ids: string[] = []
      let before: string | undefined
      do {
        const page = await list(m.id, { limit: 50, before })
        ids.push(...page.items.map((x) => x.id))
        before = page.next ?? undefined
      } while (before)
      return ids
    }
    expect(await all((id, o) => ms.listRuns(id, o))).toEqual(
      runs
        .slice(-100)
        .map((r) => r.id)
        .reverse(),
    )
    expect(await all((id, o) => ms.listEvents(id, o))).toEqual(
      events
        .slice(-100)
        .map((e) => e.id)
        .reverse(),
    )
  })

  it('does not record a run for a monitor deleted meanwhile', async () => {
    const store = await t.open()
    const ms = mon(store)
    const m = await ms.createMonitor(monitor('alice', Date.now() - 1))
    await ms.claimDue(Date.now(), 1)
    await ms.deleteMonitor('alice', m.id)
    expect(await ms.finishRun(m, run(m), [event(m)])).toBeUndefined()
    expect(await ms.getMonitorById(m.id)).toBeUndefined()
    expect((await ms.listRuns(m.id, { limit: 10 })).items).toEqual([])
  })

  it('reads several monitors of any user at once, in the order asked, skipping unknown ids', async () => {
    const store = await t.open()
    const ms = mon(store)
    const a = await ms.createMonitor(monitor('alice', null))
    const b = await ms.createMonitor(monitor('bob', null))
    const gone = await ms.createMonitor(monitor('alice', null))
    await ms.deleteMonitor('alice', gone.id)
    const found = await ms.getMonitorsById([b.id, 'not-an-id', gone.id, a.id])
    expect(found).toEqual([await ms.getMonitorById(b.id), await ms.getMonitorById(a.id)])
    expect(found.map((m) => m.user_id)).toEqual(['bob', 'alice'])
    expect(await ms.getMonitorsById([])).toEqual([])
  })
}
