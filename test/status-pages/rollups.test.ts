/**
 * Status pages on real history (docs/decisions.md#the-public-face): with no port injected, serve's
 * composition reads the monitors' daily rollups and incidents, so the 90 bars, the uptime windows
 * and the incident list show what the runs recorded.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { nextId } from '../../src/monitors/ids.js'
import type { MonitorRecord } from '../../src/store/monitors.js'
import type { RunHistory } from '../../src/store/history.js'
import { startHarness, type Harness } from './harness.js'

const DAY = 86_400_000
const today = Math.floor(Date.now() / DAY) * DAY
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10)

let h: Harness
let m: MonitorRecord

async function runAt(at: number, ok: boolean, incident?: RunHistory['incident']) {
  await h.store.monitors.finishRun(
    m,
    {
      id: nextId(),
      monitor_id: m.id,
      started_at: new Date(at).toISOString(),
      outcome: ok ? 'saved' : 'failed',
      trigger: 'schedule',
      check_id: null,
      health_score: ok ? 90 : null,
      response_time_ms: ok ? 150 : null,
      state: ok ? 'up' : 'down',
      error: ok ? null : { code: 'check_failed', message: 'refused' },
    },
    [],
    { ok, counted: true, interval_seconds: 60, ...(incident ? { incident } : {}) },
  )
}

beforeAll(async () => {
  h = await startHarness({ rollups: true })
  const key = await h.newKey('alice')
  m = await h.monitor('alice', { name: 'Shop', state: 'up' })
  // three days ago: 3 of 4 runs passed, one ten-minute incident; yesterday: all passed
  const d3 = today - 3 * DAY + 12 * 3_600_000
  await runAt(d3, true)
  await runAt(d3 + 60_000, false, { open: 'Shop is down' })
  await runAt(d3 + 600_000 + 60_000, true, { close: true })
  await runAt(d3 + 700_000, true)
  await runAt(today - DAY + 3_600_000, true)
  await runAt(today - DAY + 7_200_000, true)
  const r = await h.api(key, 'POST', '/api/public/v1/status-pages', {
    slug: 'real',
    title: 'Real history',
    monitor_ids: [m.id],
  })
  expect(r.status).toBe(201)
})
afterAll(async () => h?.close())

describe('status pages on the rollups', () => {
  it('draws the daily bars, the uptime and the incidents from the runs recorded', async () => {
    const res = await h.fetch('/status/real.json')
    expect(res.status).toBe(200)
    const page = await res.json()
    const [mon] = page.monitors
    expect(mon.days).toHaveLength(90)
    const byDay = new Map(
      mon.days.map((d: { date: string; uptime_percent: number | null }) => [d.date, d.uptime_percent]),
    )
    expect(byDay.get(day(today - 3 * DAY))).toBe(75)
    expect(byDay.get(day(today - DAY))).toBe(100)
    expect(byDay.get(day(today - 2 * DAY))).toBeNull() // no run that day
    expect(byDay.get(day(today - 30 * DAY))).toBeNull()
    expect(mon.uptime['7d']).toBe(83.33) // 5 of 6
    expect(page.incidents).toEqual([
      expect.objectContaining({
        monitor_id: m.id,
        started_at: new Date(today - 3 * DAY + 12 * 3_600_000 + 60_000).toISOString(),
        duration_seconds: 600,
      }),
    ])

    const html = await (await h.fetch('/status/real')).text()
    expect(html).toContain(`${day(today - 3 * DAY)}: 75%`)
    expect(html).toContain(`${day(today - DAY)}: 100%`)
    // 90 bars, each with its date and percent; days without runs read "no data" (not all of them)
    const bars = [...html.matchAll(/<li(?: class=(\w))?><i>(\d{4}-\d{2}-\d{2}): ([^<]*)<\/i>/g)]
    expect(bars).toHaveLength(90)
    expect(bars.at(-4)?.slice(1)).toEqual(['r', day(today - 3 * DAY), '75%'])
    expect(bars.at(-2)?.slice(1)).toEqual([undefined, day(today - DAY), '100%'])
    expect(bars.at(-3)?.slice(1)).toEqual(['n', day(today - 2 * DAY), 'no data'])
    expect(bars.filter((b) => b[3] === 'no data')).toHaveLength(88)
  })
})
