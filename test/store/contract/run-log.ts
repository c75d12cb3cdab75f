/**
 * The run log in the storage contract (src/store/run-log.ts): a run recorded with its events in one
 * step, every field given back as written, the newest runs and events kept, paging by id.
 */
import { expect, it } from 'vitest'
import { nextId } from '../../../src/monitors/ids.js'
import type { MonitorDefinitionStore, Page, PageOptions } from '../../../src/store/monitors.js'
import type { EventRecord, RunLogStore, RunRecord } from '../../../src/store/run-log.js'
import type { ScheduleStore } from '../../../src/store/schedule.js'
import { event, monitor, run } from './fixtures.js'
import type { Store } from '../../../src/store/types.js'
import type { ContractContext } from './index.js'

const mon = (s: Store): MonitorDefinitionStore & ScheduleStore & RunLogStore => s.monitors

export function runLogContract(t: ContractContext): void {
  it('records runs with their events, keeps them across a reopen, and drops them with the monitor', async () => {
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
    expect((await ms.listEvents(m.id, { limit: 10 })).items).toEqual([ev])
    // deleting takes the history with it
    expect(await ms.deleteMonitor('alice', m.id)).toBe(true)
    store = await t.reopen(store)
    expect((await mon(store).listRuns(m.id, { limit: 10 })).items).toEqual([])
    expect(await mon(store).getMonitor('alice', m.id)).toBeUndefined()
  })

  it('gives every field of a run back as written, each run with the assertions it was judged by and its details', async () => {
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
      // runs of types that keep no check (tcp, tls): their findings under details, both outcomes
      {
        ...run(m, 'failed'),
        outcome: 'ok',
        started_at: at(6),
        state: 'up',
        response_time_ms: 41,
        assertions: [
          { ...judged[0], source: 'certificate_days', comparison: 'greater_than', target: 14, actual: 62 },
        ],
        details: { days_left: 62, issuer: 'Let\'s Encrypt "R11" ☃', protocol: 'TLSv1.3', valid_to: at(90) },
      },
      {
        ...run(m, 'failed'),
        started_at: at(7),
        state: 'down',
        error: { code: 'certificate_invalid', message: 'Certificate for db.example.com expired 3 days ago' },
        details: { days_left: -3, issuer: 'R11', protocol: null, nested: { list: [1, 'two', null] } },
      },
      { ...run(m, 'failed'), outcome: 'ok', started_at: at(8), state: 'up', details: { connect_ms: 3 } },
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
}
