/**
 * Heartbeat monitors through the monitor service: the push token shown once and stored hashed, a
 * beat is up, `status=down` a failure, no beat for interval + grace down (found by a scheduled
 * run, which runs no check and charges nothing), alerts as for http monitors, and a maintenance
 * window silences them alike.
 */
import { beforeEach, expect, it } from 'vitest'
import { hashKey } from '../../src/contract/api-key.js'
import { MonitorCreate } from '../../src/contract/monitors.js'
import { monitorIdOfToken } from '../../src/monitors/kinds/index.js'
import type { Store } from '../../src/store/types.js'
import { describeOnEachStore } from '../store/each-store.js'
import { monitorService, RecordingDeliverer } from './fixtures.js'

/** The store of the running test: embedded, then PostgreSQL (describeOnEachStore at the end). */
let store: Store
let clock: number
let checks = 0
let recorder: RecordingDeliverer
/** What the channels were sent, in order. */
const sent = () => recorder.sent.map((p) => `${p.event}: ${p.message}`)

beforeEach(() => {
  clock = Date.parse('2026-11-26T10:00:00Z')
  checks = 0
  recorder = new RecordingDeliverer()
})

function service() {
  return monitorService(store, recorder, {
    check: async () => {
      checks++
      throw new Error('a heartbeat must not run a check')
    },
    minInterval: 1,
    now: () => clock,
  })
}

const settle = () => new Promise((r) => setTimeout(r, 30))

/** A push as the route makes it: the token finds its monitor, then the beat is recorded. */
async function push(svc: ReturnType<typeof service>, token: string, status: 'up' | 'down', msg?: string) {
  const m = await svc.heartbeats.monitorOfToken(token)
  return m && svc.heartbeats.beat(m, status, msg)
}

function heartbeatContract() {
  it('refuses a url or assertions on a heartbeat and grace on an http monitor', () => {
    const bad = [
      { type: 'heartbeat', url: 'https://example.com/' },
      { type: 'heartbeat', assertions: [{ source: 'status_code', comparison: 'equals', target: 200 }] },
      { url: 'https://example.com/', grace_seconds: 60 },
    ]
    expect(bad.map((b) => MonitorCreate.safeParse(b).error?.issues[0].path)).toEqual([
      ['url'],
      ['assertions'],
      ['grace_seconds'],
    ])
  })

  it('shows the push token once, stores only its hash, and awaits a beat by interval + grace', async () => {
    const svc = service()
    const { monitor, pushToken } = await svc.create('ada', {
      type: 'heartbeat',
      name: 'nightly backup',
      interval_seconds: 3600,
      grace_seconds: 600,
    })
    expect(pushToken).toMatch(/^hb_[0-9a-f]{32}[A-Za-z0-9_-]{24}$/)
    expect(monitorIdOfToken(pushToken!)).toBe(monitor.id)
    const stored = (await store.monitors.getMonitorById(monitor.id))!
    expect(stored).toMatchObject({ type: 'heartbeat', url: '', grace_seconds: 600, state: 'pending' })
    expect(stored.push_hash).toBe(hashKey(pushToken!))
    expect(JSON.stringify(stored)).not.toContain(pushToken!.slice(35))
    expect(stored.next_run_at).toBe(clock + 4200_000)
    // a wrong secret part, or a token of no monitor, finds nothing
    expect(
      await svc.heartbeats.monitorOfToken(pushToken!.slice(0, -1) + (pushToken!.endsWith('A') ? 'B' : 'A')),
    ).toBeUndefined()
    expect(await svc.heartbeats.monitorOfToken('hb_nothing')).toBeUndefined()
    expect((await svc.heartbeats.monitorOfToken(pushToken!))?.id).toBe(monitor.id)
  })

  it('beats are up, a missed deadline and status=down are down, with alerts and no check or credit', async () => {
    const svc = service()
    await store.users.ensure('ada', 0)
    const { monitor, pushToken } = await svc.create('ada', {
      type: 'heartbeat',
      name: 'backup',
      interval_seconds: 60,
      grace_seconds: 30,
      alerts: { down_after: 1 },
      channels: [{ type: 'webhook', url: 'https://hooks.example.com/x' }],
    })
    clock += 10_000
    expect((await push(svc, pushToken!, 'up'))?.state).toBe('up')
    expect((await store.monitors.getMonitorById(monitor.id))!.next_run_at).toBe(clock + 90_000)

    // no beat for 90 s: the scheduler's run finds the deadline due
    clock += 90_000
    const due = (await store.monitors.getMonitorById(monitor.id))!
    const out = await svc.run(due, 'schedule', due.next_run_at!)
    expect(out).toMatchObject({ kind: 'failed', monitor: { state: 'down' } })
    await settle()
    expect(sent()).toEqual([
      'monitor.down: backup is down (1 failed run in a row): no beat for 90 s (interval + grace)',
    ])
    // while silent, one failed run per interval
    expect((await store.monitors.getMonitorById(monitor.id))!.next_run_at).toBe(clock + 60_000)

    clock += 5_000
    await push(svc, pushToken!, 'up')
    await settle()
    expect(sent().at(-1)).toBe('monitor.up: backup is up again: a beat arrived')
    clock += 5_000
    expect((await push(svc, pushToken!, 'down', 'disk full'))?.state).toBe('down')
    await settle()
    expect(sent().at(-1)).toMatch(/^monitor\.down: backup is down .*disk full$/)

    const runs = (await store.monitors.listRuns(monitor.id, { limit: 10 })).items
    expect(runs.map((r) => [r.outcome, r.trigger, r.error?.code ?? null])).toEqual([
      ['failed', 'heartbeat', 'heartbeat_down'],
      ['beat', 'heartbeat', null],
      ['failed', 'schedule', 'heartbeat_missed'],
      ['beat', 'heartbeat', null],
    ])
    expect(checks).toBe(0)
    expect(await Promise.resolve(store.users.availableCredits('ada'))).toBe(0)
    expect((await store.monitors.incidents(monitor.id, 0)).length).toBe(2)
    // a heartbeat cannot be run on demand
    expect(await svc.run((await svc.get('ada', monitor.id))!, 'manual')).toMatchObject({
      kind: 'failed',
      code: 'invalid_url',
    })
  })

  it('a missed deadline inside a maintenance window raises nothing and is not counted', async () => {
    const svc = service()
    const { monitor } = await svc.create('ada', {
      type: 'heartbeat',
      interval_seconds: 60,
      grace_seconds: 0,
      alerts: { down_after: 1 },
    })
    await svc.maintenance.create('ada', {
      name: 'Release',
      monitor_ids: 'all',
      starts_at: '2026-11-26T10:00:00Z',
      ends_at: '2026-11-26T11:00:00Z',
    })
    clock += 60_000
    const due = (await store.monitors.getMonitorById(monitor.id))!
    await svc.run(due, 'schedule', due.next_run_at!)
    const after = (await store.monitors.getMonitorById(monitor.id))!
    expect(after.state).toBe('pending')
    const [run] = (await store.monitors.listRuns(monitor.id, { limit: 1 })).items
    expect(run).toMatchObject({ outcome: 'failed', state: 'maintenance' })
    const [hour] = await store.monitors.rollups(monitor.id, 'hour', 0, clock + 3_600_000)
    expect(hour).toMatchObject({ runs: 0, excluded_runs: 1 })
  })

  it('a patch changes grace and restarts the wait; a heartbeat has no url to patch', async () => {
    const svc = service()
    const { monitor } = await svc.create('ada', { type: 'heartbeat', interval_seconds: 60 })
    clock += 1000
    const { monitor: changed } = await svc.update('ada', monitor.id, { grace_seconds: 10 })
    expect(changed).toMatchObject({ grace_seconds: 10, next_run_at: clock + 70_000 })
    await expect(svc.update('ada', monitor.id, { url: 'https://example.com/' })).rejects.toThrow(/no url/)
  })
}

describeOnEachStore('heartbeat monitors', (s) => (store = s), heartbeatContract)
