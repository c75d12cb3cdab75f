/**
 * Uptime through the monitor service (docs/decisions.md#monitoring-depth): runs roll up as they
 * finish, the report and the windows read the rollups, an incident spans down → up, and a window
 * the rollups cannot answer is refused naming its field.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { CheckCapacity } from '../../../src/capacity/index.js'
import { CheckError } from '../../../src/checks/errors.js'
import type { CheckReport } from '../../../src/checks/types.js'
import { MonitorService, secretBox, type Deliverer } from '../../../src/monitors/index.js'
import { percent } from '../../../src/monitors/uptime/index.js'
import { DomainError } from '../../../src/shared/domain-error.js'
import { openLowdbStore, type LowdbStore } from '../../../src/store/index.js'
import type { Store } from '../../../src/store/types.js'
import { fakeReport } from '../../helpers/report.js'
import { describeOnEachStore } from '../../store/each-store.js'
import { removeDir, tempDir } from '../../store/helpers.js'

let dir: string
let store: LowdbStore
let shared: Store
let site: 'up' | 'down' = 'up'
beforeEach(async () => {
  dir = await tempDir()
  store = await openLowdbStore(dir)
  site = 'up'
})
afterEach(async () => {
  await store.close()
  await removeDir(dir)
})

const check = async (url: string): Promise<CheckReport> => {
  if (site === 'down') throw new CheckError('check_failed', 'Connection refused.')
  return { ...fakeReport(url, 80), responseTimeMs: 200 }
}

function service() {
  return new MonitorService({
    store,
    monitors: store.monitors,
    deliverer: { deliver: async () => {}, maxDurationMs: () => 1000 } as unknown as Deliverer,
    secrets: secretBox('uptime test key'),
    allowPrivateTargets: false,
    checkTimeoutMs: 5_000,
    capacity: new CheckCapacity({ maxConcurrent: 2, maxPerUser: 2 }),
    check,
  })
}

describe('uptime', () => {
  it('rolls each run up as it finishes: report, windows and the incident agree with the runs', async () => {
    const svc = service()
    await store.users.ensure('ada', 10)
    const { monitor } = await svc.create('ada', { url: 'https://example.com/', alerts: { down_after: 2 } })
    expect((await svc.uptimeWindows([monitor.id])).get(monitor.id)).toEqual({
      '24h': null,
      '7d': null,
      '30d': null,
    })

    await svc.run(monitor, 'manual')
    site = 'down'
    await svc.run(monitor, 'manual')
    await svc.run(monitor, 'manual') // down: an incident opens
    site = 'up'
    await svc.run(monitor, 'manual') // up: it closes

    const runs = (await store.monitors.listRuns(monitor.id, { limit: 50 })).items
    const report = await svc.uptime('ada', monitor.id, {})
    expect(report).toMatchObject({
      uptime_percent: 50,
      runs: runs.length,
      failed_runs: runs.filter((r) => r.outcome === 'failed').length,
      downtime_seconds: 2 * 300,
      response_time_ms: { p50: 200, p95: 200 },
    })
    expect(report.buckets).toHaveLength(1)
    expect(report.buckets[0]).toMatchObject({
      runs: 4,
      failed_runs: 2,
      avg_response_time_ms: 200,
      avg_health_score: 80,
    })
    expect(report.from).toMatch(/T00:00:00\.000Z$/) // moved back to its day
    const hourly = await svc.uptime('ada', monitor.id, {
      granularity: 'hour',
      from: new Date(Date.now() - 3_600_000).toISOString(),
    })
    expect(hourly.runs).toBe(4)
    expect((await svc.uptimeWindows([monitor.id])).get(monitor.id)).toEqual({
      '24h': 50,
      '7d': 50,
      '30d': 50,
    })

    const incidents = await store.monitors.incidents(monitor.id, 0)
    expect(incidents).toHaveLength(1)
    expect(incidents[0].started_at).toBe(runs[1].started_at) // the run that took it down
    expect(incidents[0].ended_at).toBe(runs[0].started_at)
    expect(incidents[0].cause).toMatch(/is down \(2 failed runs in a row\): Connection refused/)
  })

  it("refuses a window it cannot answer, naming the field; another user's monitor is not found", async () => {
    const svc = service()
    const { monitor } = await svc.create('ada', { url: 'https://example.com/' })
    const now = Date.now()
    const iso = (ms: number) => new Date(ms).toISOString()
    const bad = [
      [{ from: iso(now), to: iso(now - 1000) }, 'from'],
      [{ from: iso(now - 401 * 86_400_000) }, 'from'],
      [{ from: iso(now - 40 * 86_400_000), granularity: 'hour' as const }, 'granularity'],
    ] as const
    for (const [q, field] of bad) {
      const err = await svc.uptime('ada', monitor.id, q).catch((e: unknown) => e)
      expect(err).toBeInstanceOf(DomainError)
      expect(err).toMatchObject({ kind: 'invalid', field })
    }
    await expect(svc.uptime('bob', monitor.id, {})).rejects.toMatchObject({ kind: 'not_found' })
    // a year-long daily window is fine, and empty before the first run
    expect(await svc.uptime('ada', monitor.id, { from: iso(now - 365 * 86_400_000) })).toMatchObject({
      uptime_percent: null,
      runs: 0,
      buckets: [],
    })
  })

  it('rounds down, so a single failed run never reads 100', () => {
    expect(percent(100_000, 1)).toBe(99.99)
    expect(percent(3, 1)).toBe(66.66)
    expect(percent(0, 0)).toBeNull()
    expect(percent(5, 0)).toBe(100)
  })
})

describeOnEachStore(
  'uptime percentiles',
  (s) => (shared = s),
  () => {
    // ten runs answering in 100, 200, … 1000 ms, one failed run between them
    async function tenRuns(onStore: Store) {
      let ms = 0
      const svc = new MonitorService({
        store: onStore,
        monitors: onStore.monitors,
        deliverer: { deliver: async () => {}, maxDurationMs: () => 1000 } as unknown as Deliverer,
        secrets: secretBox('uptime test key'),
        allowPrivateTargets: false,
        checkTimeoutMs: 5_000,
        capacity: new CheckCapacity({ maxConcurrent: 2, maxPerUser: 2 }),
        check: async (url: string) => {
          if (ms === 0) throw new CheckError('check_failed', 'Connection refused.')
          return { ...fakeReport(url, 80), responseTimeMs: ms }
        },
      })
      await onStore.users.ensure('ada', 20)
      const { monitor } = await svc.create('ada', { url: 'https://example.com/' })
      for (const t of [300, 100, 0, 1000, 500, 200, 900, 400, 800, 600, 700]) {
        ms = t
        await svc.run(monitor, 'manual')
      }
      return { svc, monitor }
    }

    it('takes p50 and p95 from the single runs while the runs kept cover the window', async () => {
      const { svc, monitor } = await tenRuns(shared)
      const report = await svc.uptime('ada', monitor.id, { granularity: 'hour' })
      expect(report).toMatchObject({ runs: 11, failed_runs: 1 })
      // nearest rank over the ten answers, as a reader of the runs listed works it out; the
      // buckets' average would make both 550
      expect(report.response_time_ms).toEqual({ p50: 500, p95: 1000 })
      expect(report.buckets[0].avg_response_time_ms).toBe(550)
      // a window that ends before the runs: no runs, no percentiles
      const before = await svc.uptime('ada', monitor.id, {
        from: new Date(Date.now() - 5 * 86_400_000).toISOString(),
        to: new Date(Date.now() - 4 * 86_400_000).toISOString(),
      })
      expect(before.response_time_ms).toEqual({ p50: null, p95: null })
    })
  },
)

describe('uptime percentiles past the runs kept', () => {
  it("fall back to the buckets' averages when the raw runs no longer reach the window's start", async () => {
    const small = await openLowdbStore(await tempDir(), { monitorHistory: 4 })
    try {
      let ms = 100
      const svc = new MonitorService({
        store: small,
        monitors: small.monitors,
        deliverer: { deliver: async () => {}, maxDurationMs: () => 1000 } as unknown as Deliverer,
        secrets: secretBox('uptime test key'),
        allowPrivateTargets: false,
        checkTimeoutMs: 5_000,
        capacity: new CheckCapacity({ maxConcurrent: 2, maxPerUser: 2 }),
        check: async (url: string) => ({ ...fakeReport(url, 80), responseTimeMs: ms }),
      })
      await small.users.ensure('ada', 20)
      const { monitor } = await svc.create('ada', { url: 'https://example.com/' })
      for (const t of [100, 100, 100, 100, 100, 100, 1000, 1000]) {
        ms = t
        await svc.run(monitor, 'manual')
      }
      // 4 runs kept of 8: the single runs would say p50 1000 / 100; the one bucket's average is 325
      const report = await svc.uptime('ada', monitor.id, { granularity: 'hour' })
      expect(report.runs).toBe(8)
      expect(report.response_time_ms).toEqual({ p50: 325, p95: 325 })
    } finally {
      await small.close()
    }
  })
})
