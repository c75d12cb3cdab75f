/**
 * What aggregators and feed readers read of a status page (docs/status-pages.md): RSS 2.0 and Atom 1.0 that
 * parse as XML and carry each update of the published incidents (escaped, never a draft), and
 * Atlassian Statuspage's api/v2 summary.json and status.json shapes.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startHarness, type Harness } from './harness.js'

let h: Harness
let alice: string
let pageId: string
let shop: { id: string }
let api: { id: string }
const P = '/api/public/v1/status-pages'
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  isArray: (n) => ['item', 'entry'].includes(n),
})

beforeAll(async () => {
  h = await startHarness()
  alice = await h.newKey('alice')
  shop = await h.monitor('alice', { name: 'Shop', state: 'up' })
  api = await h.monitor('alice', { name: 'API', state: 'down' })
  const r = await h.api(alice, 'POST', P, {
    slug: 'feeds',
    title: 'Feeds & <co>',
    monitor_ids: [shop.id, api.id],
    sections: [{ name: 'Backend', monitor_ids: [api.id] }],
  })
  pageId = r.body.id
  const I = `${P}/${pageId}/incidents`
  const open = await h.api(alice, 'POST', I, {
    title: 'API <errors> & "timeouts"',
    message: 'We see 5xx\u0001 answers & more',
    impact: 'major',
    monitor_ids: [api.id],
  })
  await h.api(alice, 'POST', `${I}/${open.body.id}/updates`, {
    status: 'identified',
    message: 'A bad deploy.',
  })
  await h.api(alice, 'POST', I, { title: 'Secret draft', message: 'x', draft: true })
})
afterAll(async () => h?.close())

async function xml(path: string, type: RegExp) {
  const res = await h.fetch(path)
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toMatch(type)
  const text = await res.text()
  expect(XMLValidator.validate(text)).toBe(true)
  expect(text).not.toContain('Secret draft')
  expect(text).not.toContain('<errors>')
  expect(text).not.toContain('\u0001')
  return parser.parse(text)
}

describe('feeds', () => {
  it('serves valid RSS 2.0 with one item per update, newest first', async () => {
    const doc = await xml('/status/feeds/feed.rss', /^application\/rss\+xml/)
    expect(doc.rss['@_version']).toBe('2.0')
    const ch = doc.rss.channel
    expect(ch.title).toBe('Feeds & <co>')
    expect(ch.link).toBe('https://status.example.test/status/feeds')
    expect(ch.item.map((i: { title: string }) => i.title)).toEqual([
      'API <errors> & "timeouts": Identified',
      'API <errors> & "timeouts": Investigating',
    ])
    expect(ch.item[1].description).toContain('We see 5xx answers & more')
    expect(ch.item[0].guid['@_isPermaLink']).toBe('false')
    expect(Number.isNaN(Date.parse(ch.item[0].pubDate))).toBe(false)
  })

  it('serves valid Atom 1.0 with ids, dates, links and text content', async () => {
    const doc = await xml('/status/feeds/feed.atom', /^application\/atom\+xml/)
    const feed = doc.feed
    expect(feed['@_xmlns']).toBe('http://www.w3.org/2005/Atom')
    expect(feed.id).toBe(`urn:uuid:${pageId}`)
    expect(feed.author.name).toBe('Feeds & <co>')
    expect(feed.link.map((l: Record<string, string>) => l['@_rel'])).toEqual(['alternate', 'self'])
    expect(feed.link[1]['@_href']).toBe('https://status.example.test/status/feeds/feed.atom')
    expect(feed.entry).toHaveLength(2)
    expect(feed.entry[0].content['@_type']).toBe('text')
    expect(feed.entry[0].content['#text']).toContain('A bad deploy.')
    expect(Date.parse(feed.updated)).toBe(Date.parse(feed.entry[0].updated))
  })

  it('is a 404 for an unknown page', async () => {
    expect((await h.fetch('/status/nobody/feed.rss')).status).toBe(404)
  })
})

describe("Statuspage's api/v2", () => {
  it('answers summary.json in its shape: page, components with groups, incidents, maintenance, status', async () => {
    const res = await h.fetch('/status/feeds/api/v2/summary.json')
    expect(res.status).toBe(200)
    const s = await res.json()
    expect(s.page).toEqual({
      id: pageId,
      name: 'Feeds & <co>',
      url: 'https://status.example.test/status/feeds',
      time_zone: 'Etc/UTC',
      updated_at: expect.any(String),
    })
    const byName = Object.fromEntries(s.components.map((c: { name: string }) => [c.name, c]))
    expect(byName.Backend).toMatchObject({ group: true, status: 'major_outage', components: [api.id] })
    expect(byName.API).toMatchObject({ id: api.id, status: 'major_outage', group_id: byName.Backend.id })
    expect(byName.Shop).toMatchObject({ status: 'operational', group_id: null, group: false })
    for (const c of s.components)
      expect([
        'operational',
        'degraded_performance',
        'partial_outage',
        'major_outage',
        'under_maintenance',
      ]).toContain(c.status)
    expect(s.incidents).toHaveLength(1)
    expect(s.incidents[0]).toMatchObject({
      name: 'API <errors> & "timeouts"',
      status: 'identified',
      impact: 'major',
    })
    expect(s.incidents[0].incident_updates.map((u: { status: string }) => u.status)).toEqual([
      'identified',
      'investigating',
    ])
    expect(s.scheduled_maintenances).toEqual([])
    expect(s.status).toEqual({ indicator: 'major', description: 'Partial System Outage' })
  })

  it('answers status.json with the page and the indicator only', async () => {
    const s = await (await h.fetch('/status/feeds/api/v2/status.json')).json()
    expect(Object.keys(s).sort()).toEqual(['page', 'status'])
    expect(s.status.indicator).toBe('major')
  })
})
