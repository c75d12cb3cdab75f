/**
 * The public status page and its badges (docs/decisions.md#the-public-face), read with no credentials: overall state,
 * each monitor's state and 90 daily bars with their percent as text, incidents with durations,
 * nothing private (URL only with show_urls; no check id, key or account), a strict CSP, ETag and
 * 304, the cache header, a plain 404 for an unknown slug, and badges only for monitors on the page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PublicStatusPage } from '../../src/contract/status-pages.js'
import { startHarness, type Harness } from './harness.js'

let h: Harness
let alice: string
let up: { id: string; last_check: { id: string } | null }
let down: { id: string }
let other: { id: string }
let pageId: string
const P = '/api/public/v1/status-pages'

beforeAll(async () => {
  h = await startHarness()
  alice = await h.newKey('alice')
  up = await h.monitor('alice', { name: 'Shop <main>', state: 'up' })
  down = await h.monitor('alice', { name: 'API', state: 'down', url: 'https://api.example.test/health' })
  other = await h.monitor('alice', { name: 'Not shown' })
  h.uptime.set(up.id, { percent: 100 })
  h.uptime.set(down.id, {
    percent: 93.75,
    incidents: [
      { started_at: new Date(Date.now() - 5400_000).toISOString(), ended_at: null },
      {
        started_at: new Date(Date.now() - 3 * 86_400_000).toISOString(),
        ended_at: new Date(Date.now() - 3 * 86_400_000 + 600_000).toISOString(),
      },
    ],
  })
  const r = await h.api(alice, 'POST', P, {
    slug: 'acme',
    title: 'Acme status',
    description: 'Shop and API',
    monitor_ids: [up.id, down.id],
  })
  pageId = r.body.id
})
afterAll(async () => h?.close())

describe('public status page', () => {
  it('shows the overall state, each monitor with state and 90 bars with date and percent as text', async () => {
    const res = await h.fetch('/status/acme')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^text\/html/)
    const html = await res.text()
    expect(html).toContain('<h1>Acme status</h1>')
    expect(html).toContain('Partial outage')
    expect(html).toContain('Shop &lt;main&gt;')
    expect(html).toMatch(/API<\/h3><span class="st s-down">Down/)
    expect(html).not.toContain('Not shown')
    expect(html.match(/<li><i>\d{4}-\d{2}-\d{2}: 100%<\/i>/g)).toHaveLength(90)
    expect(html.match(/<li class=r><i>\d{4}-\d{2}-\d{2}: 93.75%<\/i>/g)).toHaveLength(90)
    expect(html).toContain(`${new Date().toISOString().slice(0, 10)}: 100%`)
    expect(html).toMatch(/API<\/strong> was down from .* and still is \(1 h 30 min so far\)/)
    expect(html).toMatch(/\(10 min\)/)
    expect(html).not.toMatch(/<script/i)
  })

  it('never shows a URL unless show_urls, nor a check id, key or account', async () => {
    const html = await (await h.fetch('/status/acme')).text()
    const json = await (await h.fetch('/status/acme.json')).text()
    for (const body of [html, json]) {
      expect(body).not.toContain('example.test')
      expect(body).not.toContain(up.last_check!.id)
      expect(body).not.toContain('alice')
      expect(body).not.toContain('shk_')
    }
    await h.api(alice, 'PATCH', `${P}/${pageId}`, { show_urls: true })
    expect(await (await h.fetch('/status/acme')).text()).toContain('https://api.example.test/health')
    const shown = JSON.parse(await (await h.fetch('/status/acme.json')).text())
    expect(shown.monitors[1].url).toBe('https://api.example.test/health')
    await h.api(alice, 'PATCH', `${P}/${pageId}`, { show_urls: false })
    expect(await (await h.fetch('/status/acme')).text()).not.toContain('example.test')
  })

  it('serves the same view as JSON in the contract shape', async () => {
    const res = await h.fetch('/status/acme.json')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^application\/json/)
    const body = PublicStatusPage.parse(await res.json())
    expect(body.state).toBe('partial_outage')
    expect(body.monitors.map((m) => [m.name, m.state])).toEqual([
      ['Shop <main>', 'up'],
      ['API', 'down'],
    ])
    expect(body.monitors[0].days).toHaveLength(90)
    expect(body.monitors[1].uptime['24h']).toBe(93.75)
    expect(body.incidents[0]).toMatchObject({ monitor_name: 'API', ended_at: null })
    // still going: its duration runs up to now
    expect(body.incidents[0].duration_seconds).toBeGreaterThanOrEqual(5400)
    expect(body.incidents[0].duration_seconds).toBeLessThan(5460)
  })

  it('answers with a strict CSP, ETag and public caching, and 304 on If-None-Match', async () => {
    for (const path of ['/status/acme', '/status/acme.json']) {
      const res = await h.fetch(path)
      const csp = res.headers.get('content-security-policy')!
      expect(csp).toMatch(/default-src 'none'/)
      expect(csp).not.toMatch(/unsafe-inline|script-src/)
      expect(res.headers.get('cache-control')).toBe('public, max-age=30')
      const etag = res.headers.get('etag')!
      expect(etag).toMatch(/^"[\w-]+"$/)
      const again = await h.fetch(path, { headers: { 'if-none-match': etag } })
      expect(again.status).toBe(304)
      expect(await again.text()).toBe('')
      expect(again.headers.get('etag')).toBe(etag)
      expect((await h.fetch(path, { headers: { 'if-none-match': '"other"' } })).status).toBe(200)
    }
  })

  it('shows a state change at once', async () => {
    const before = await h.fetch('/status/acme.json')
    const m = (await h.store.monitors.getMonitorById(down.id))!
    await h.store.monitors.updateMonitor({ ...m, state: 'up' })
    const after = await h.fetch('/status/acme.json', {
      headers: { 'if-none-match': before.headers.get('etag')! },
    })
    expect(after.status).toBe(200)
    expect((await after.json()).state).toBe('operational')
    await h.store.monitors.updateMonitor(m)
  })

  it('answers an unknown slug with a plain 404 page', async () => {
    const res = await h.fetch('/status/nobody-here')
    expect(res.status).toBe(404)
    expect(res.headers.get('content-type')).toMatch(/^text\/html/)
    expect(await res.text()).toContain('Status page not found')
    expect((await h.fetch('/status/nobody-here.json')).status).toBe(404)
  })

  it('stays under 100 KB for 20 monitors', async () => {
    const ids: string[] = []
    for (let i = 0; i < 20; i++) {
      const m = await h.monitor('alice', { name: `Service number ${i + 1}` })
      h.uptime.set(m.id, { percent: 99.95 })
      ids.push(m.id)
    }
    await h.api(alice, 'POST', P, { slug: 'twenty', title: 'Twenty', monitor_ids: ids, show_urls: true })
    const html = await (await h.fetch('/status/twenty')).text()
    expect(html.match(/<li class=y>/g)).toHaveLength(20 * 90)
    expect(Buffer.byteLength(html)).toBeLessThan(100 * 1024)
  })
})

describe('badges', () => {
  it('draws status, uptime and score badges with a <title>, cached for 60 s', async () => {
    const status = await h.fetch(`/status/acme/badges/${up.id}/status.svg`)
    expect(status.status).toBe(200)
    expect(status.headers.get('content-type')).toMatch(/^image\/svg\+xml/)
    expect(status.headers.get('cache-control')).toBe('max-age=60')
    const svg = await status.text()
    expect(svg).toMatch(/^<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/)
    expect(svg).toContain('<title>Shop &lt;main&gt;: up</title>')
    const uptime = await (await h.fetch(`/status/acme/badges/${down.id}/uptime.svg?window=7d`)).text()
    expect(uptime).toContain('<title>uptime 7d: 93.75%</title>')
    const score = await (await h.fetch(`/status/acme/badges/${up.id}/score.svg`)).text()
    expect(score).toContain('<title>health score: 87/100</title>')
  })

  it('is 404 for a monitor not on the page, an unknown page or badge, 400 for a bad window', async () => {
    expect((await h.fetch(`/status/acme/badges/${other.id}/status.svg`)).status).toBe(404)
    expect((await h.fetch(`/status/nobody/badges/${up.id}/status.svg`)).status).toBe(404)
    expect((await h.fetch(`/status/acme/badges/${up.id}/color.svg`)).status).toBe(404)
    expect((await h.fetch(`/status/acme/badges/${up.id}/uptime.svg?window=1y`)).status).toBe(400)
  })
})
