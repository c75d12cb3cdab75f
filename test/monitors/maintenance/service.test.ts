/**
 * Maintenance windows through the monitor service: validation (unknown time zone, ends_at before
 * starts_at, a monitor that is not the caller's), and runs inside a window: recorded, no state
 * change, no alert, not counted in uptime; once the window is over, the same failures alert.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import { CheckError } from '../../../src/checks/errors.js'
import type { CheckReport } from '../../../src/checks/types.js'
import { MaintenanceCreate } from '../../../src/contract/monitoring.js'
import { DomainError } from '../../../src/shared/domain-error.js'
import { listItems, viewOne } from '../../../src/dashboard/monitors.js'
import type { Store } from '../../../src/store/types.js'
import { fakeReport } from '../../helpers/report.js'
import { describeOnEachStore, withEmbeddedStore } from '../../store/each-store.js'
import { monitorService, RecordingDeliverer } from '../fixtures.js'

/** The store of the running test: embedded, or each in turn for the runs (describeOnEachStore at the end). */
let store: Store
let clock: number
let site: 'up' | 'down'
let recorder: RecordingDeliverer
/** What the channels were sent, in order. */
const sent = () => recorder.sent.map((p) => p.event)

beforeEach(() => {
  clock = Date.parse('2026-11-26T10:00:00Z')
  site = 'up'
  recorder = new RecordingDeliverer()
})

const check = async (url: string): Promise<CheckReport> => {
  if (site === 'down') throw new CheckError('check_failed', 'Connection refused.')
  return fakeReport(url)
}

function service() {
  return monitorService(store, recorder, { check, now: () => clock })
}

const parse = (body: unknown) => MaintenanceCreate.safeParse(body)

describe('maintenance window input', () => {
  withEmbeddedStore((s) => (store = s))
  it('refuses unknown time zones and ends_at before starts_at, naming the field', () => {
    const bad = parse({
      name: 'x',
      monitor_ids: 'all',
      weekly: { days: ['sat'], start: '02:00', duration_minutes: 60, timezone: 'Europe/Atlantis' },
    })
    expect(bad.success).toBe(false)
    expect(bad.error!.issues[0].path).toEqual(['weekly', 'timezone'])
    const backwards = parse({
      name: 'x',
      monitor_ids: 'all',
      starts_at: '2026-12-01T23:00:00Z',
      ends_at: '2026-12-01T22:00:00Z',
    })
    expect(backwards.error!.issues[0].path).toEqual(['ends_at'])
  })

  it('refuses a monitor of another user and a patch that leaves a window invalid', async () => {
    const svc = service()
    const { monitor } = await svc.create('bob', { url: 'https://shop.example.com/' })
    const body = {
      name: 'x',
      monitor_ids: [monitor.id],
      starts_at: '2026-12-01T22:00:00Z',
      ends_at: '2026-12-01T23:00:00Z',
    }
    await expect(svc.maintenance.create('ada', body)).rejects.toMatchObject({
      kind: 'invalid',
      field: 'monitor_ids',
    })
    const w = await svc.maintenance.create('bob', body)
    await expect(
      svc.maintenance.update('bob', w.id, { ends_at: '2026-12-01T21:00:00Z' }),
    ).rejects.toMatchObject({
      field: 'ends_at',
    })
    await expect(svc.maintenance.get('ada', w.id)).rejects.toBeInstanceOf(DomainError)
    expect(await store.maintenance!.listMaintenance('ada')).toEqual([])
  })
})

describe('the dashboard’s monitors', () => {
  withEmbeddedStore((s) => (store = s))
  it('read maintenance inside a window, like the API', async () => {
    const svc = service()
    const { monitor } = await svc.create('ada', { url: 'https://shop.example.com/' })
    expect((await viewOne(svc, 'ada', monitor.id))?.state).toBe('pending')
    await svc.maintenance.create('ada', {
      name: 'Release',
      monitor_ids: 'all',
      starts_at: '2026-11-26T09:00:00Z',
      ends_at: '2026-11-26T11:00:00Z',
    })
    expect((await viewOne(svc, 'ada', monitor.id))?.state).toBe('maintenance')
    expect((await listItems(svc, 'ada', 10)).map((m) => m.state)).toEqual(['maintenance'])
  })
})

function runsContract() {
  it('are recorded but change no state, raise no alert and count for no uptime', async () => {
    const svc = service()
    await store.users.ensure('ada', 10)
    const { monitor } = await svc.create('ada', {
      url: 'https://shop.example.com/',
      alerts: { down_after: 1 },
      channels: [{ type: 'webhook', url: 'https://hooks.example.com/x' }],
    })
    await svc.run(monitor, 'manual')
    expect((await svc.get('ada', monitor.id)).state).toBe('up')
    recorder.deliveries.length = 0

    const w = await svc.maintenance.create('ada', {
      name: 'Release',
      monitor_ids: [monitor.id],
      starts_at: '2026-11-26T10:05:00Z',
      ends_at: '2026-11-26T11:00:00Z',
    })
    expect(await svc.maintenance.covering('ada', [monitor.id])).toEqual(new Set())
    clock = Date.parse('2026-11-26T10:10:00Z')
    expect(await svc.maintenance.covering('ada', [monitor.id])).toEqual(new Set([monitor.id]))
    site = 'down'
    await svc.run(await svc.get('ada', monitor.id), 'manual')
    await svc.run(await svc.get('ada', monitor.id), 'manual')
    expect((await svc.get('ada', monitor.id)).state).toBe('up')
    expect(sent()).toEqual([])
    const runs = (await store.monitors.listRuns(monitor.id, { limit: 10 })).items
    expect(runs.map((r) => [r.outcome, r.state])).toEqual([
      ['failed', 'maintenance'],
      ['failed', 'maintenance'],
      ['saved', 'up'],
    ])
    const [hour] = await store.monitors.rollups(monitor.id, 'hour', clock - 3_600_000, clock + 3_600_000)
    expect(hour).toMatchObject({ runs: 1, failed_runs: 0, excluded_runs: 2 })
    expect((await svc.uptimeWindows([monitor.id])).get(monitor.id)?.['24h']).toBe(100)
    expect(await store.monitors.incidents(monitor.id, 0)).toEqual([])

    // the window is over: the site still down alerts as it would have
    clock = Date.parse('2026-11-26T11:00:00Z')
    expect((await svc.maintenance.upcoming('ada')).map((o) => o.name)).toEqual([])
    await svc.run(await svc.get('ada', monitor.id), 'manual')
    expect((await svc.get('ada', monitor.id)).state).toBe('down')
    await new Promise((r) => setTimeout(r, 50))
    expect(sent()).toEqual(['monitor.down'])
    await svc.maintenance.remove('ada', w.id)
  })

  it('a window for "all" covers monitors made after it; weekly windows name their next opening', async () => {
    const svc = service()
    await svc.maintenance.create('ada', {
      name: 'Saturday backup',
      monitor_ids: 'all',
      weekly: { days: ['thu'], start: '11:00', duration_minutes: 30, timezone: 'Europe/Berlin' },
    })
    const { monitor } = await svc.create('ada', { url: 'https://shop.example.com/' })
    // Thursday 26 November 2026, 10:00 UTC = 11:00 in Berlin
    expect(await svc.maintenance.covering('ada', [monitor.id])).toEqual(new Set([monitor.id]))
    expect(await svc.maintenance.upcoming('ada')).toEqual([
      {
        name: 'Saturday backup',
        starts_at: '2026-11-26T10:00:00.000Z',
        ends_at: '2026-11-26T10:30:00.000Z',
        monitor_ids: 'all',
      },
    ])
    clock = Date.parse('2026-11-26T10:30:00Z')
    expect(await svc.maintenance.covering('ada', [monitor.id])).toEqual(new Set())
    expect((await svc.maintenance.upcoming('ada'))[0].starts_at).toBe('2026-12-03T10:00:00.000Z')
  })
}

describeOnEachStore('runs inside a maintenance window', (s) => (store = s), runsContract)
