/**
 * MonitorService through its public behaviour, with fakes at its edges: an injected check (no
 * network), a fake deliverer that records what it was asked to send, the embedded store in a temp
 * dir. Create and validate, run (saved, failed, down and up again, with alerts), pause for credits
 * and resume, and the one-time webhook secret.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { CheckCapacity } from '../../src/capacity/index.js'
import { CheckError } from '../../src/checks/errors.js'
import type { CheckReport } from '../../src/checks/types.js'
import { MonitorService, secretBox } from '../../src/monitors/index.js'
import { DomainError } from '../../src/shared/domain-error.js'
import { openLowdbStore, type LowdbStore } from '../../src/store/index.js'
import { fakeReport } from '../helpers/report.js'
import { removeDir, tempDir } from '../store/helpers.js'
import { RecordingDeliverer } from './fixtures.js'

let dir: string
let store: LowdbStore
beforeEach(async () => {
  dir = await tempDir()
  store = await openLowdbStore(dir)
})
afterEach(async () => {
  await store.close()
  await removeDir(dir)
})

const box = secretBox('test key material for the monitor service')

/** The site's answer for the next runs: a report, or a failure. */
let site: 'up' | 'down' = 'up'
const check = async (url: string): Promise<CheckReport> => {
  if (site === 'down') throw new CheckError('check_failed', 'Connection refused.')
  return fakeReport(url)
}

function service(deliverer = new RecordingDeliverer()) {
  const svc = new MonitorService({
    store,
    monitors: store.monitors,
    deliverer: deliverer.asDeliverer(),
    secrets: box,
    allowPrivateTargets: false,
    checkTimeoutMs: 15_000,
    capacity: new CheckCapacity({ maxConcurrent: 4, maxPerUser: 2 }),
    check,
  })
  return { svc, deliverer }
}

beforeEach(() => {
  site = 'up'
})

describe('MonitorService', () => {
  it('creates a monitor: defaults, a first run due now, the webhook secret once and sealed', async () => {
    const { svc } = service()
    const before = Date.now()
    const { monitor, secrets } = await svc.create('ada', {
      url: 'https://shop.example.com/',
      channels: [{ type: 'webhook', url: 'https://hooks.example.com/x' }],
    })
    expect(monitor).toMatchObject({
      url: 'https://shop.example.com/',
      name: 'shop.example.com',
      interval_seconds: 300,
      paused: false,
      state: 'pending',
      last_check: null,
    })
    expect(monitor.next_run_at).toBeGreaterThanOrEqual(before)
    expect(monitor.next_run_at).toBeLessThanOrEqual(Date.now())
    const channel = monitor.channels[0]!
    const secret = secrets.get(channel.id)!
    expect(secret).toMatch(/^whsec_/)
    expect(channel.secrets).not.toContain(secret)
    expect(channel.secrets).not.toContain('hooks.example.com')
    expect(JSON.parse(box.open(channel.secrets!))).toEqual({
      fields: { url: 'https://hooks.example.com/x' },
      signing_secret: secret,
    })
    expect((await svc.get('ada', monitor.id)).id).toBe(monitor.id)
  })

  it('refuses bad input with DomainError and creates nothing', async () => {
    const { svc } = service()
    const bad = [
      { url: 'ftp://example.com/' },
      { url: 'http://127.0.0.1/' },
      { url: 'https://example.com/', interval_seconds: 5 },
      { url: 'https://example.com/', channels: [{ type: 'slack' as const, url: 'http://10.0.0.1/hook' }] },
    ]
    for (const body of bad) await expect(svc.create('ada', body)).rejects.toBeInstanceOf(DomainError)
    expect(await store.monitors.userMonitors('ada')).toEqual([])
  })

  it("another user's monitor is not found, as an unknown one", async () => {
    const { svc } = service()
    const { monitor } = await svc.create('ada', { url: 'https://example.com/' })
    const err = await svc.get('bob', monitor.id).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(DomainError)
    expect((err as DomainError).kind).toBe('not_found')
    await expect(svc.remove('bob', monitor.id)).rejects.toMatchObject({ kind: 'not_found' })
    await svc.remove('ada', monitor.id)
    await expect(svc.get('ada', monitor.id)).rejects.toMatchObject({ kind: 'not_found' })
  })

  it('a run saves a charged check, records the run and makes the monitor up', async () => {
    const { svc } = service()
    await store.users.ensure('ada', 5)
    const { monitor } = await svc.create('ada', { url: 'https://example.com/' })
    const out = await svc.run(monitor, 'manual')
    expect(out.kind).toBe('saved')
    if (out.kind !== 'saved') return
    expect(out.remaining).toBe(4)
    expect(out.monitor?.state).toBe('up')
    expect(out.monitor?.last_check?.id).toBe(out.check.id)
    const runs = await store.monitors.listRuns(monitor.id, { limit: 10 })
    expect(runs.items.map((r) => [r.outcome, r.check_id])).toEqual([['saved', out.check.id]])
    expect(store.users.availableCredits('ada')).toBe(4)
  })

  it('goes down after down_after failed runs, raising one monitor.down; one good run brings monitor.up', async () => {
    const { svc, deliverer } = service()
    await store.users.ensure('ada', 5)
    const { monitor } = await svc.create('ada', {
      url: 'https://example.com/',
      alerts: { down_after: 2 },
      channels: [{ type: 'webhook', url: 'https://hooks.example.com/x' }],
    })
    await svc.run(monitor, 'manual')
    site = 'down'
    const first = await svc.run(monitor, 'manual')
    expect(first).toMatchObject({ kind: 'failed', code: 'check_failed', message: 'Connection refused.' })
    expect(first.kind === 'failed' && first.monitor?.state).toBe('up') // one failure is not down yet
    const second = await svc.run(monitor, 'manual')
    expect(second.kind === 'failed' && second.monitor?.state).toBe('down')
    await svc.run(monitor, 'manual') // still down: no second alert
    site = 'up'
    const back = await svc.run(monitor, 'manual')
    expect(back.kind === 'saved' && back.monitor?.state).toBe('up')
    await svc.drain()

    const events = (await store.monitors.listEvents(monitor.id, { limit: 10 })).items
    expect(events.map((e) => e.event).reverse()).toEqual(['monitor.down', 'monitor.up'])
    expect(
      deliverer.deliveries.map((s) => [s.payload.event, s.payload.previous_state, s.payload.state]),
    ).toEqual([
      ['monitor.down', 'up', 'down'],
      ['monitor.up', 'down', 'up'],
    ])
    expect(deliverer.deliveries[0]!.payload.monitor).toEqual({
      id: monitor.id,
      name: monitor.name,
      url: monitor.url,
    })
    // every delivery is recorded on its event
    for (const e of events) expect(e.deliveries.map((d) => d.status)).toEqual(['delivered'])
    // failed runs cost nothing: one credit for each of the two saved runs
    expect(store.users.availableCredits('ada')).toBe(3)
  })

  it('out of credits, a scheduled run pauses every monitor of the user with credits.exhausted; credits resume them', async () => {
    const { svc, deliverer } = service()
    await store.users.ensure('ada', 0)
    const channels = [{ type: 'webhook' as const, url: 'https://hooks.example.com/x' }]
    const a = (await svc.create('ada', { url: 'https://a.example.com/', channels })).monitor
    const b = (await svc.create('ada', { url: 'https://b.example.com/', channels })).monitor
    expect(await svc.run(a, 'schedule', a.next_run_at!)).toEqual({ kind: 'no_credits' })
    for (const m of [a, b]) {
      const now = await svc.get('ada', m.id)
      expect(now).toMatchObject({ paused: true, paused_reason: 'credits', next_run_at: null })
      const events = (await store.monitors.listEvents(m.id, { limit: 10 })).items
      expect(events.map((e) => e.event)).toEqual(['credits.exhausted'])
    }
    await svc.drain()
    expect(deliverer.deliveries.map((s) => s.payload.event)).toEqual([
      'credits.exhausted',
      'credits.exhausted',
    ])

    expect(await svc.resumeCreditPaused(0)).toBe(0) // still no credits
    await store.users.grantCredits('ada', 10)
    expect(await svc.resumeCreditPaused(0)).toBe(2)
    for (const m of [a, b])
      expect(await svc.get('ada', m.id)).toMatchObject({ paused: false, paused_reason: null })
  })

  it('a run on demand without credits answers no_credits and pauses nothing', async () => {
    const { svc } = service()
    await store.users.ensure('ada', 0)
    const { monitor } = await svc.create('ada', { url: 'https://example.com/' })
    expect(await svc.run(monitor, 'manual')).toEqual({ kind: 'no_credits' })
    expect((await svc.get('ada', monitor.id)).paused).toBe(false)
  })

  it('pause and resume through update: no next run while paused, due at once when resumed', async () => {
    const { svc } = service()
    const { monitor } = await svc.create('ada', { url: 'https://example.com/' })
    const paused = (await svc.update('ada', monitor.id, { paused: true })).monitor
    expect(paused).toMatchObject({ paused: true, paused_reason: 'user', next_run_at: null })
    const before = Date.now()
    const resumed = (await svc.update('ada', monitor.id, { paused: false })).monitor
    expect(resumed.paused).toBe(false)
    expect(resumed.next_run_at).toBeGreaterThanOrEqual(before)
  })

  it('a scheduled run moves the next run on by about one interval', async () => {
    const { svc } = service()
    await store.users.ensure('ada', 5)
    const { monitor } = await svc.create('ada', { url: 'https://example.com/', interval_seconds: 600 })
    const out = await svc.run(monitor, 'schedule', monitor.next_run_at!)
    const next = out.kind === 'saved' ? out.monitor!.next_run_at! : 0
    expect(next - Date.now()).toBeGreaterThan(300_000) // more than half an interval later
    expect(next - Date.now()).toBeLessThanOrEqual(1_200_000)
  })
})
