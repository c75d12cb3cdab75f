/**
 * Heartbeat monitors in sitehealth.yaml: `type: heartbeat` with `every` and `grace`, no url; the
 * plan creates them, a pulled file deploys to no changes, `sitehealth test` skips them, and the
 * file's mistakes (a url on a heartbeat, grace on an http monitor) point at their line.
 */
import { describe, expect, it } from 'vitest'
import { loadText, makePlan, pullFile, runTests } from '../../src/as-code/index.js'
import { desiredMonitor } from '../../src/as-code/plan.js'
import type { SitehealthClient } from '../../src/client/client.js'
import { nextId } from '../../src/monitors/ids.js'
import { INITIAL_MEMORY } from '../../src/monitors/rules.js'
import { monitorView } from '../../src/monitors/views.js'

const FILE = `
monitors:
  - ref: backup
    type: heartbeat
    name: nightly backup
    every: 1h
    grace: 10m
  - ref: shop
    url: https://shop.example.com/
`

/** The monitor the API would answer with after creating `body`. */
function asCreated(body: ReturnType<typeof desiredMonitor>) {
  const now = new Date().toISOString()
  return monitorView({
    id: nextId(),
    user_id: 'ada',
    type: body.type ?? 'http',
    ref: body.ref ?? null,
    url: body.url ?? '',
    name: body.name!,
    interval_seconds: body.interval_seconds!,
    paused: false,
    paused_reason: null,
    state: 'pending',
    last_check: null,
    next_run_at: null,
    created_at: now,
    updated_at: now,
    alerts: { down_after: body.alerts!.down_after!, min_score: body.alerts!.min_score ?? null },
    channels: [],
    memory: INITIAL_MEMORY,
    grace_seconds: body.grace_seconds ?? null,
  })
}

describe('heartbeat monitors as code', () => {
  it('plans a heartbeat create without a url, and a pulled file deploys to no changes', () => {
    const loaded = loadText(FILE, 'sitehealth.yaml', {})
    const plan = makePlan(loaded, { monitors: [], status_pages: [] }, { prune: false })
    const backup = plan.items.find((i) => i.key === 'backup')!
    expect(backup).toMatchObject({
      action: 'create',
      body: { type: 'heartbeat', name: 'nightly backup', interval_seconds: 3600, grace_seconds: 600 },
    })
    expect((backup as { body: object }).body).not.toHaveProperty('url')

    const current = {
      monitors: loaded.monitors.map((m) => asCreated(desiredMonitor(m, loaded))),
      status_pages: [],
    }
    expect(makePlan(loaded, current, { prune: true }).items).toEqual([])
    const pulled = pullFile(current, 'http://127.0.0.1:8787')
    expect(pulled.text).toMatch(/type: heartbeat/)
    expect(pulled.text).toMatch(/grace: 10m/)
    expect(makePlan(loadText(pulled.text, 'pulled.yaml', {}), current, { prune: true }).items).toEqual([])

    // a new grace is an update of that field
    const changed = loadText(FILE.replace('grace: 10m', 'grace: 15m'), 'sitehealth.yaml', {})
    expect(makePlan(changed, current, { prune: false }).items).toMatchObject([
      { action: 'update', key: 'backup', changes: [{ field: 'grace_seconds', from: 600, to: 900 }] },
    ])
  })

  it('refuses a url on a heartbeat and grace on an http monitor, at their line', () => {
    const bad = `monitors:
  - ref: a
    type: heartbeat
    url: https://example.com/
  - ref: b
    url: https://example.com/
    grace: 5m
`
    expect(() => loadText(bad, 'sitehealth.yaml', {})).toThrow(
      /sitehealth\.yaml:4:\d+: a heartbeat monitor has no url[\s\S]*sitehealth\.yaml:7:\d+: grace is for heartbeat monitors/,
    )
  })

  it('sitehealth test skips heartbeats: no check is asked for', async () => {
    const loaded = loadText(FILE, 'sitehealth.yaml', {})
    const asked: string[] = []
    const client = {
      runBatch: async (checks: Array<{ url: string }>) => {
        asked.push(...checks.map((c) => c.url))
        return {
          results: checks.map(() => ({
            ok: false,
            error: { code: 'check_failed', message: 'Connection refused.' },
          })),
        }
      },
    } as unknown as SitehealthClient
    const report = await runTests(client, loaded, {})
    expect(asked).toEqual(['https://shop.example.com/'])
    expect(report.tests.map((t) => t.ref)).toEqual(['shop'])
  })

  it("maintenance windows by name: created, unchanged on a second plan, pulled back, pruned only over ref'd monitors", () => {
    const text = `${FILE}maintenance:
  - name: Saturday backup
    monitors: [backup]
    weekly: { days: [sat], start: '02:00', duration_minutes: 90, timezone: Europe/Berlin }
  - name: Release
    monitors: all
    starts_at: 2026-12-01T22:00:00Z
    ends_at: 2026-12-01T23:00:00Z
`
    const loaded = loadText(text, 'sitehealth.yaml', {})
    const monitors = loaded.monitors.map((m) => asCreated(desiredMonitor(m, loaded)))
    const plan = makePlan(loaded, { monitors, status_pages: [] }, { prune: false })
    const windows = plan.items.filter((i) => i.kind === 'maintenance')
    expect(windows.map((i) => [i.action, i.key])).toEqual([
      ['create', 'Saturday backup'],
      ['create', 'Release'],
    ])
    // as the API would answer: ids for refs, instants as ISO
    const idOf = new Map(monitors.map((m) => [m.ref!, m.id]))
    const now = new Date().toISOString()
    const current = {
      monitors,
      status_pages: [],
      maintenance_windows: windows.map((i) => {
        const b = (i as { body: import('../../src/as-code/maintenance.js').WindowBody }).body
        return {
          id: nextId(),
          name: b.name,
          monitor_ids: b.monitor_refs === 'all' ? ('all' as const) : b.monitor_refs.map((r) => idOf.get(r)!),
          starts_at: b.starts_at,
          ends_at: b.ends_at,
          weekly: b.weekly,
          active: false,
          next_starts_at: null,
          next_ends_at: null,
          created_at: now,
          updated_at: now,
        }
      }),
    }
    expect(makePlan(loaded, current, { prune: true }).items).toEqual([])
    const pulled = pullFile(current, 'http://127.0.0.1:8787')
    expect(makePlan(loadText(pulled.text, 'pulled.yaml', {}), current, { prune: true }).items).toEqual([])
    // without them in the file, --prune deletes the window over ref'd monitors, not the one over all
    const bare = loadText(FILE, 'sitehealth.yaml', {})
    expect(makePlan(bare, current, { prune: true }).items.map((i) => [i.action, i.kind, i.key])).toEqual([
      ['delete', 'maintenance', 'Saturday backup'],
    ])
    expect(() =>
      loadText(
        `${FILE}maintenance:\n  - name: x\n    monitors: [nope]\n    starts_at: 2026-12-01T23:00:00Z\n    ends_at: 2026-12-01T22:00:00Z\n`,
        'f.yaml',
        {},
      ),
    ).toThrow(/ends_at must be after starts_at/)
  })
})
