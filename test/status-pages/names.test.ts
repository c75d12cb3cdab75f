/**
 * The neutral label (issue 31): a monitor created without a name is named after its URL's host,
 * so on a page that hides URLs the public sees "Monitor <n>" (its place on the page) in the HTML,
 * the JSON, the incidents and the badges; a name its owner gave shows, and so does the host on a
 * page with show_urls. A new URL takes an unnamed monitor's name along. On both stores.
 */
import { expect, it } from 'vitest'
import { drawBadge, PublicPages, type UptimePort } from '../../src/status-pages/index.js'
import type { MonitorService } from '../../src/monitors/service.js'
import type { StatusPageStore } from '../../src/store/status-pages.js'
import type { Store } from '../../src/store/types.js'
import { monitorService, RecordingDeliverer } from '../monitors/fixtures.js'
import { describeOnEachStore } from '../store/each-store.js'

let store: Store

const ONE_INCIDENT: UptimePort = {
  windows: async () => new Map(),
  days: async () => new Map(),
  incidents: async (ms) =>
    new Map(
      ms.map((m) => [m.id, [{ started_at: new Date(Date.now() - 600_000).toISOString(), ended_at: null }]]),
    ),
  maintenance: async () => [],
}

async function page(svc: MonitorService, slug: string, showUrls: boolean) {
  const hidden = await svc.create('ada', { url: 'http://10.0.3.7:8080/health' })
  const named = await svc.create('ada', { url: 'https://db.corp.internal/', name: 'Checkout' })
  const now = new Date().toISOString()
  const pages = store.statusPages as StatusPageStore
  await pages.createStatusPage({
    id: crypto.randomUUID(),
    user_id: 'ada',
    slug,
    title: 'Status',
    description: null,
    monitor_ids: [hidden.monitor.id, named.monitor.id],
    show_urls: showUrls,
    created_at: now,
    updated_at: now,
  })
  const view = await new PublicPages({ pages, monitors: store.monitors, uptime: ONE_INCIDENT }).view(slug)
  return { view: view!, hidden: hidden.monitor, named: named.monitor }
}

function suite() {
  it('shows "Monitor <n>" for a monitor named after its host, and an owner\'s name as it is', async () => {
    const svc = monitorService(store, new RecordingDeliverer(), { allowPrivateTargets: true })
    const { view, hidden } = await page(svc, 'acme', false)
    // the owner still sees the host as the name in the API
    expect(hidden.name).toBe('10.0.3.7:8080')
    const html = new TextDecoder().decode(view.html)
    const json = view.json().body
    const badge = drawBadge('status', { ...view.model.monitors[0], score: null }, '30d')
    for (const body of [html, json, badge]) expect(body).not.toContain('10.0.3.7')
    expect(JSON.parse(json).monitors.map((m: { name: string }) => m.name)).toEqual(['Monitor 1', 'Checkout'])
    expect(
      JSON.parse(json)
        .incidents.map((i: { monitor_name: string }) => i.monitor_name)
        .sort(),
    ).toEqual(['Checkout', 'Monitor 1'])
    expect(html).toContain('Monitor 1')
    expect(badge).toContain('Monitor 1')
    expect(html).not.toContain('corp.internal')
  })

  it('shows the host on a page that shows URLs', async () => {
    const svc = monitorService(store, new RecordingDeliverer(), { allowPrivateTargets: true })
    const { view } = await page(svc, 'open', true)
    const json = JSON.parse(view.json().body)
    expect(json.monitors.map((m: { name: string }) => m.name)).toEqual(['10.0.3.7:8080', 'Checkout'])
  })

  it("a new URL takes a host name along; an owner's name stays", async () => {
    const svc = monitorService(store, new RecordingDeliverer(), { allowPrivateTargets: true })
    const hidden = (await svc.create('ada', { url: 'http://10.0.3.7:8080/' })).monitor
    const named = (await svc.create('ada', { url: 'http://10.0.3.8/', name: 'Checkout' })).monitor
    const moved = await svc.update('ada', hidden.id, { url: 'http://10.0.3.9:81/' })
    expect(moved.monitor.name).toBe('10.0.3.9:81')
    // the dashboard's edit form sends the name it showed
    const again = await svc.update('ada', hidden.id, { url: 'http://10.0.4.1/', name: '10.0.3.9:81' })
    expect(again.monitor.name).toBe('10.0.4.1')
    expect((await svc.update('ada', named.id, { url: 'http://10.0.3.10/' })).monitor.name).toBe('Checkout')
    expect((await store.monitors.getMonitorById(hidden.id))!.name).toBe('10.0.4.1')
  })
}

describeOnEachStore('public names of monitors', (s) => (store = s), suite)
