/**
 * Maintenance windows end to end: the built CLI's `maintenance create|list|delete` against a real
 * `serve` with a monitor of a local site that goes down inside the window. Inside it the monitor
 * reads `maintenance`, its runs are recorded but raise no alert and do not count in uptime, and
 * its public status page shows the window; once the window is deleted the same failure alerts.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { waitFor } from '../helpers/api.js'
import { serveWithAccount } from '../helpers/e2e.js'
import { UNLIMITED } from '../helpers/serve.js'
import { expectEnvelope, expectOneLineError, expectPlain } from '../helpers/cli.js'

let site: Server
let siteDown = false
const acct = serveWithAccount({
  args: ['--min-interval', '1', ...UNLIMITED, '--quiet'],
  user: 'mw',
  credits: 500,
})
const { api, cli } = acct

beforeAll(async () => {
  site = createServer((_q, s) =>
    siteDown
      ? s.writeHead(500, { 'content-type': 'text/html' }).end('<!doctype html><p>boom')
      : s.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><p>ok'),
  )
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r))
}, 60_000)

afterAll(async () => {
  await new Promise((r) => site?.close(r))
})

describe('maintenance windows end to end', () => {
  it('silences a monitor inside a window made with the CLI, and alerts again once it is gone', async () => {
    const env = acct.env()
    const port = (site.address() as AddressInfo).port
    const m = (
      await api('POST', '/monitors', {
        url: `http://127.0.0.1:${port}/`,
        name: 'Web',
        interval_seconds: 1,
        alerts: { down_after: 1 },
      })
    ).body
    await waitFor(async () => (await api('GET', `/monitors/${m.id}`)).body.state === 'up', 30_000, 'up')
    const page = await api('POST', '/status-pages', { slug: 'mw-shop', title: 'Shop', monitor_ids: [m.id] })
    expect(page.status).toBe(201)

    const now = Date.now()
    const created = await cli(
      [
        'maintenance',
        'create',
        '--name',
        'Release 4.2',
        '--monitor',
        m.id,
        '--starts-at',
        new Date(now - 1000).toISOString(),
        '--ends-at',
        new Date(now + 600_000).toISOString(),
      ],
      { env },
    )
    expect(created.code, created.stderr).toBe(0)
    expectPlain(created)
    expect(created.stdout).toContain('Release 4.2')
    expect(created.stdout).toMatch(/open now, until/)

    const listed = await cli(['maintenance', 'list', '--json'], { env })
    expect(listed.code, listed.stderr).toBe(0)
    const [w] = JSON.parse(listed.stdout).maintenance_windows
    expect(w).toMatchObject({ name: 'Release 4.2', monitor_ids: [m.id], active: true, weekly: null })
    const human = await cli(['maintenance', 'list'], { env })
    expect(human.stdout).toContain('Release 4.2')

    // inside the window: the site fails, runs go on, nothing alerts, uptime does not count them
    expect((await api('GET', `/monitors/${m.id}`)).body.state).toBe('maintenance')
    siteDown = true
    await waitFor(
      async () =>
        (await api('GET', `/monitors/${m.id}/runs?limit=10`)).body.runs.filter(
          (r: { state: string; outcome: string; error: unknown }) => r.state === 'maintenance',
        ).length >= 3,
      30_000,
      'three runs inside the window',
    )
    const runs = (await api('GET', `/monitors/${m.id}/runs?limit=50`)).body.runs
    expect((await api('GET', `/monitors/${m.id}`)).body.state).toBe('maintenance')
    expect((await api('GET', `/monitors/${m.id}/events`)).body.events).toEqual([])
    const uptime = (await api('GET', `/monitors/${m.id}/uptime?granularity=hour`)).body
    const counted = runs.filter((r: { state: string }) => r.state !== 'maintenance').length
    expect(uptime.failed_runs).toBe(0)
    expect(uptime.runs).toBeGreaterThanOrEqual(counted)
    expect(uptime.uptime_percent).toBe(100)
    const publicPage = await (await fetch(`${acct.served.url}/status/mw-shop.json`)).json()
    expect(publicPage.state).toBe('maintenance')
    expect(publicPage.monitors[0].state).toBe('maintenance')
    expect(publicPage.maintenance).toMatchObject([{ name: 'Release 4.2', active: true, monitor_ids: [m.id] }])

    const deleted = await cli(['maintenance', 'delete', w.id], { env })
    expect(deleted.code, deleted.stderr).toBe(0)
    expect(deleted.stdout).toContain(`Deleted maintenance window ${w.id}.`)
    expect(JSON.parse((await cli(['maintenance', 'list', '--json'], { env })).stdout)).toEqual({
      maintenance_windows: [],
    })
    await waitFor(async () => (await api('GET', `/monitors/${m.id}`)).body.state === 'down', 30_000, 'down')
    const events = (await api('GET', `/monitors/${m.id}/events`)).body.events
    expect(events.map((e: { event: string }) => e.event)).toEqual(['monitor.down'])
    siteDown = false
  }, 120_000)

  it('refuses an unknown time zone, ends_at before starts_at and a stranger’s window, naming the field', async () => {
    const env = acct.env()
    const zone = await cli(
      [
        'maintenance',
        'create',
        '--name',
        'x',
        '--all',
        '--days',
        'sat',
        '--at',
        '02:00',
        '--duration',
        '1h',
        '--timezone',
        'Mars/Base',
      ],
      { env },
    )
    expectOneLineError(zone, 2, /weekly\.timezone.*IANA/)
    const backwards = await cli(
      [
        'maintenance',
        'create',
        '--name',
        'x',
        '--all',
        '--starts-at',
        '2026-12-01T23:00:00Z',
        '--ends-at',
        '2026-12-01T22:00:00Z',
        '--json',
      ],
      { env },
    )
    expect(expectEnvelope(backwards, 2, 'invalid_url').error.message).toMatch(/\(ends_at\)/)
    const usage = await cli(['maintenance', 'create', '--name', 'x', '--all'], { env })
    expectOneLineError(usage, 2, /--starts-at/)

    const mine = await api('POST', '/maintenance-windows', {
      name: 'Weekly',
      monitor_ids: 'all',
      weekly: { days: ['sat'], start: '02:00', duration_minutes: 60, timezone: 'Europe/Berlin' },
    })
    expect(mine.status).toBe(201)
    expect(mine.body).toMatchObject({ active: expect.any(Boolean), next_starts_at: expect.any(String) })
    const other = (await acct.served.createKey({ user: 'stranger', credits: 1 })).key
    expect((await api('GET', `/maintenance-windows/${mine.body.id}`, undefined, other)).status).toBe(404)
    expect((await api('DELETE', `/maintenance-windows/${mine.body.id}`, undefined, other)).status).toBe(404)
    const patched = await api('PATCH', `/maintenance-windows/${mine.body.id}`, { weekly: null })
    expect(patched.status).toBe(400)
    expect(patched.body.error.message).toMatch(/starts_at/)
    const gone = await cli(['maintenance', 'delete', mine.body.id], { env })
    expect(gone.code).toBe(0)
    expectOneLineError(await cli(['maintenance', 'delete', mine.body.id], { env }), 2, /maintenance list/)
  }, 60_000)
})
