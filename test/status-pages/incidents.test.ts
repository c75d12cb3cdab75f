/**
 * Incidents posted on a status page (docs/status-pages.md): the API (create, updates, list, get, patch,
 * publish, delete; errors naming the field; another user's page and another page's incident as
 * unknown), what the public page shows (open ones at the top with updates newest first, past ones
 * for 90 days, never a draft, everything escaped, in HTML and JSON), component groups, and a draft
 * opened when a monitor of an auto-incident page goes down.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PublicStatusPage, StatusIncident, StatusIncidentList } from '../../src/contract/status-pages.js'
import { openStatusPages } from '../../src/status-pages/index.js'
import { startHarness, type Harness } from './harness.js'

let h: Harness
let alice: string
let bob: string
let pageId: string
let shop: { id: string; name: string }
let api: { id: string }
const P = '/api/public/v1/status-pages'
const I = () => `${P}/${pageId}/incidents`

beforeAll(async () => {
  h = await startHarness()
  alice = await h.newKey('alice')
  bob = await h.newKey('bob')
  shop = await h.monitor('alice', { name: 'Shop' })
  api = await h.monitor('alice', { name: 'API' })
  const r = await h.api(alice, 'POST', P, {
    slug: 'inc',
    title: 'Inc status',
    monitor_ids: [shop.id, api.id],
  })
  pageId = r.body.id
})
afterAll(async () => h?.close())

const publicJson = async (slug = 'inc') =>
  PublicStatusPage.parse(await (await h.fetch(`/status/${slug}.json`)).json())

describe('status page incidents API', () => {
  it('creates an incident with its first update, appends updates, resolves, lists and deletes', async () => {
    const created = await h.api(alice, 'POST', I(), {
      title: 'Checkout errors',
      status: 'investigating',
      message: 'Payments fail.',
      impact: 'major',
      monitor_ids: [shop.id],
    })
    expect(created.status).toBe(201)
    const inc = StatusIncident.parse(created.body)
    expect(inc).toMatchObject({ status: 'investigating', impact: 'major', draft: false, resolved_at: null })
    expect(inc.updates.map((u) => u.message)).toEqual(['Payments fail.'])

    const u1 = await h.api(alice, 'POST', `${I()}/${inc.id}/updates`, {
      status: 'identified',
      message: 'Found it.',
    })
    expect(u1.status).toBe(201)
    expect(u1.body.status).toBe('identified')
    expect(u1.body.updates.map((u: { message: string }) => u.message)).toEqual([
      'Found it.',
      'Payments fail.',
    ])
    const done = await h.api(alice, 'POST', `${I()}/${inc.id}/updates`, {
      status: 'resolved',
      message: 'Fixed.',
    })
    expect(done.body.status).toBe('resolved')
    expect(Date.parse(done.body.resolved_at)).toBeGreaterThan(0)
    expect(Date.parse(done.body.updates[0].created_at)).toBeGreaterThanOrEqual(
      Date.parse(done.body.updates[1].created_at),
    )

    const list = StatusIncidentList.parse((await h.api(alice, 'GET', I())).body)
    expect(list.incidents.map((i) => i.id)).toContain(inc.id)
    expect((await h.api(alice, 'GET', `${I()}/${inc.id}`)).body.updates).toHaveLength(3)
    expect((await h.api(alice, 'DELETE', `${I()}/${inc.id}`)).status).toBe(204)
    expect((await h.api(alice, 'GET', `${I()}/${inc.id}`)).status).toBe(404)
    expect((await h.api(alice, 'DELETE', `${I()}/${inc.id}`)).status).toBe(404)
  })

  it('refuses bad input naming the field, and a monitor that is not on the page', async () => {
    for (const body of [
      { title: '', message: 'x' },
      { title: 'T' },
      { title: 'T', message: 'x', status: 'fixed' },
      { title: 'T', message: 'x', impact: 'huge' },
      { title: 'T', message: 'x', extra: 1 },
    ]) {
      const r = await h.api(alice, 'POST', I(), body)
      expect(r.status, JSON.stringify(body)).toBe(400)
      expect(r.body.error.message).toMatch(/incident/)
    }
    const other = await h.monitor('alice', { name: 'Elsewhere' })
    const r = await h.api(alice, 'POST', I(), { title: 'T', message: 'x', monitor_ids: [other.id] })
    expect(r.status).toBe(400)
    expect(r.body.error.message).toContain('monitor_ids.0')
    expect(
      (await h.api(alice, 'POST', `${P}/not-a-uuid/incidents`, { title: 'T', message: 'x' })).status,
    ).toBe(400)
  })

  it("answers another user's page and incident as unknown", async () => {
    const mine = await h.api(alice, 'POST', I(), { title: 'Mine', message: 'x' })
    expect((await h.api(bob, 'GET', I())).status).toBe(404)
    expect((await h.api(bob, 'POST', I(), { title: 'T', message: 'x' })).status).toBe(404)
    expect((await h.api(bob, 'PATCH', `${I()}/${mine.body.id}`, { title: 'Theirs' })).status).toBe(404)
    expect((await h.api(bob, 'DELETE', `${I()}/${mine.body.id}`)).status).toBe(404)
    await h.api(alice, 'DELETE', `${I()}/${mine.body.id}`)
  })

  it('keeps a draft from the public until it is published', async () => {
    const draft = await h.api(alice, 'POST', I(), { title: 'Draft only', message: 'Hidden', draft: true })
    expect(draft.body.draft).toBe(true)
    expect(await (await h.fetch('/status/inc')).text()).not.toContain('Draft only')
    expect((await publicJson()).status_incidents.map((i) => i.title)).not.toContain('Draft only')
    const published = await h.api(alice, 'PATCH', `${I()}/${draft.body.id}`, {
      draft: false,
      impact: 'critical',
    })
    expect(published.body).toMatchObject({ draft: false, impact: 'critical' })
    expect(await (await h.fetch('/status/inc')).text()).toContain('Draft only')
    expect((await h.api(alice, 'PATCH', `${I()}/${draft.body.id}`, { draft: true })).status).toBe(400)
    await h.api(alice, 'DELETE', `${I()}/${draft.body.id}`)
  })
})

describe('incidents on the public page', () => {
  it('shows open incidents at the top with updates newest first, past ones below, all escaped', async () => {
    const open = await h.api(alice, 'POST', I(), {
      title: 'Search <b>slow</b>',
      message: 'Line one\nline <script>two</script>',
      impact: 'minor',
      monitor_ids: [api.id],
    })
    await h.api(alice, 'POST', `${I()}/${open.body.id}/updates`, {
      status: 'monitoring',
      message: 'A fix is out.',
    })
    const past = await h.api(alice, 'POST', I(), { title: 'Old outage', message: 'Down.', impact: 'major' })
    await h.api(alice, 'POST', `${I()}/${past.body.id}/updates`, { status: 'resolved', message: 'Back up.' })

    const html = await (await h.fetch('/status/inc')).text()
    expect(html).not.toContain('<script>')
    expect(html).not.toContain('<b>slow')
    expect(html).toContain('Search &lt;b&gt;slow&lt;/b&gt;')
    expect(html).toContain('Line one<br>line &lt;script&gt;two&lt;/script&gt;')
    const current = html.indexOf('Current incidents')
    expect(current).toBeGreaterThan(-1)
    expect(current).toBeLessThan(html.indexOf('id=sh>Services'))
    expect(html.indexOf('A fix is out.')).toBeLessThan(html.indexOf('Line one'))
    expect(html.indexOf('Past incidents, last 90 days')).toBeGreaterThan(html.indexOf('id=sh>Services'))
    expect(html.indexOf('Old outage')).toBeGreaterThan(html.indexOf('Past incidents'))

    const json = await publicJson()
    const [first, second] = json.status_incidents
    expect(first).toMatchObject({ title: 'Search <b>slow</b>', status: 'monitoring', resolved_at: null })
    expect(first.monitor_ids).toEqual([api.id])
    expect(first.updates.map((u) => u.status)).toEqual(['monitoring', 'investigating'])
    expect(second).toMatchObject({ title: 'Old outage', status: 'resolved' })
    expect(JSON.stringify(json)).not.toContain('alice')
  })

  it('leaves out incidents resolved more than 90 days ago', async () => {
    const long = new Date(Date.now() - 100 * 86_400_000).toISOString()
    await h.store.statusIncidents.createIncident({
      id: '0190a5e1-0a1b-7c2d-8e3f-4a5b6c7d8e9f',
      page_id: pageId,
      user_id: 'alice',
      title: 'Ancient history',
      status: 'resolved',
      impact: 'minor',
      monitor_ids: [],
      draft: false,
      created_at: long,
      updated_at: long,
      resolved_at: long,
      updates: [
        { id: '0190a5e1-0a1c-7c2d-8e3f-4a5b6c7d8e9f', status: 'resolved', message: 'x', created_at: long },
      ],
    })
    expect(await (await h.fetch('/status/inc')).text()).not.toContain('Ancient history')
    expect((await publicJson()).status_incidents.map((i) => i.title)).not.toContain('Ancient history')
  })
})

describe('component groups', () => {
  it('groups monitors into sections in HTML and JSON, the rest under Other services', async () => {
    const third = await h.monitor('alice', { name: 'Mail' })
    const r = await h.api(alice, 'POST', P, {
      slug: 'grouped',
      title: 'Grouped',
      monitor_ids: [shop.id, api.id, third.id],
      sections: [
        { name: 'Store <front>', monitor_ids: [shop.id] },
        { name: 'Backend', monitor_ids: [api.id] },
      ],
    })
    expect(r.status).toBe(201)
    expect(r.body.sections).toHaveLength(2)
    const html = await (await h.fetch('/status/grouped')).text()
    expect(html).toContain('Store &lt;front&gt;</h3>')
    expect(html.indexOf('Store &lt;front&gt;')).toBeLessThan(html.indexOf('>Shop</h4>'))
    expect(html.indexOf('Backend</h3>')).toBeLessThan(html.indexOf('>API</h4>'))
    expect(html.indexOf('Other services</h3>')).toBeLessThan(html.indexOf('>Mail</h4>'))
    expect((await publicJson('grouped')).sections).toEqual([
      { name: 'Store <front>', monitor_ids: [shop.id] },
      { name: 'Backend', monitor_ids: [api.id] },
    ])
    // a monitor taken off the page leaves its section
    const patched = await h.api(alice, 'PATCH', `${P}/${r.body.id}`, { monitor_ids: [api.id, third.id] })
    expect(patched.body.sections).toEqual([
      { name: 'Store <front>', monitor_ids: [] },
      { name: 'Backend', monitor_ids: [api.id] },
    ])
  })

  it('refuses a section naming a monitor not on the page, or one twice', async () => {
    const bad = await h.api(alice, 'POST', P, {
      slug: 'badgroups',
      title: 'T',
      monitor_ids: [shop.id],
      sections: [{ name: 'A', monitor_ids: [api.id] }],
    })
    expect(bad.status).toBe(400)
    expect(bad.body.error.message).toContain('sections.0.monitor_ids.0')
    const twice = await h.api(alice, 'POST', P, {
      slug: 'badgroups',
      title: 'T',
      monitor_ids: [shop.id],
      sections: [
        { name: 'A', monitor_ids: [shop.id] },
        { name: 'B', monitor_ids: [shop.id] },
      ],
    })
    expect(twice.status).toBe(400)
    expect(twice.body.error.message).toContain('another section')
  })
})

describe('auto incidents', () => {
  it('opens one draft per down episode on pages that ask for it, none elsewhere', async () => {
    const m = await h.monitor('alice', { name: 'Payments' })
    const auto = await h.api(alice, 'POST', P, {
      slug: 'auto',
      title: 'Auto',
      monitor_ids: [m.id],
      auto_incidents: true,
    })
    const manual = await h.api(alice, 'POST', P, { slug: 'manual', title: 'Manual', monitor_ids: [m.id] })
    expect(auto.body.auto_incidents).toBe(true)
    expect(manual.body.auto_incidents).toBe(false)
    const parts = openStatusPages(h.store)!
    const down = [{ event: 'monitor.down' }]
    await parts.monitorEvents(m, [{ event: 'monitor.degraded' }])
    expect((await h.api(alice, 'GET', `${P}/${auto.body.id}/incidents`)).body.incidents).toEqual([])
    await parts.monitorEvents(m, down)
    await parts.monitorEvents(m, down)
    const drafts = (await h.api(alice, 'GET', `${P}/${auto.body.id}/incidents`)).body.incidents
    expect(drafts).toHaveLength(1)
    expect(drafts[0]).toMatchObject({ draft: true, monitor_ids: [m.id], status: 'investigating' })
    expect((await h.api(alice, 'GET', `${P}/${manual.body.id}/incidents`)).body.incidents).toEqual([])
    expect(await (await h.fetch('/status/auto')).text()).not.toContain('Payments is down')
    // resolved: the next down opens a new draft
    await h.api(alice, 'POST', `${P}/${auto.body.id}/incidents/${drafts[0].id}/updates`, {
      status: 'resolved',
      message: 'ok',
    })
    await parts.monitorEvents(m, down)
    expect((await h.api(alice, 'GET', `${P}/${auto.body.id}/incidents`)).body.incidents).toHaveLength(2)
  })

  it("titles a draft with the page's neutral label, never the host a monitor is named after", async () => {
    // a monitor created without a name is named after its URL's host (src/monitors/names.ts)
    const url = 'http://10.0.3.7:8080/health'
    const named = await h.monitor('alice', { name: 'Billing' })
    const hosted = await h.monitor('alice', { name: '10.0.3.7:8080', url })
    const page = await h.api(alice, 'POST', P, {
      slug: 'neutral',
      title: 'Neutral',
      monitor_ids: [named.id, hosted.id],
      auto_incidents: true,
    })
    await openStatusPages(h.store)!.monitorEvents(hosted, [{ event: 'monitor.down' }])
    const [draft] = (await h.api(alice, 'GET', `${P}/${page.body.id}/incidents`)).body.incidents
    expect(draft.title).toBe('Monitor 2 is down')
    expect(JSON.stringify(draft)).not.toContain('10.0.3.7')
    // published, the public page says the same
    await h.api(alice, 'PATCH', `${P}/${page.body.id}/incidents/${draft.id}`, { draft: false })
    const html = await (await h.fetch('/status/neutral')).text()
    expect(html).toContain('Monitor 2 is down')
    expect(html).not.toContain('10.0.3.7')
  })
})
