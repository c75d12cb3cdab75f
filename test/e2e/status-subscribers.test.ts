/**
 * Subscribers, feeds and custom domains end to end (docs/status-pages.md), against the built CLI's
 * `serve` with a local SMTP server: subscribe by email, follow the confirmation link from the mail
 * (and a tampered one), hear of an incident's updates with RFC 8058's headers, unsubscribe with a
 * one-click POST and hear nothing more; a maintenance window made on a page's monitor reaches its
 * confirmed email subscriber (with the same headers) and its webhook (signed), and one on another
 * monitor reaches neither; the feeds parse as RSS 2.0 and Atom 1.0; a page's domain gets the page,
 * its feeds and its links at `/`, and other hosts are unchanged.
 */
import { createHmac } from 'node:crypto'
import { XMLParser, XMLValidator } from 'fast-xml-parser'
import { request } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SitehealthClient } from '../../src/client/client.js'
import { publicApi, waitFor } from '../helpers/api.js'
import { startServe, type Served } from '../helpers/serve.js'
import { startSmtp, type LocalSmtp, type Mail } from '../helpers/smtp.js'
import { startReceiver, type Receiver } from '../monitors/fixtures.js'

let served: Served
let smtp: LocalSmtp
let hooks: Receiver
let key: string
const api = publicApi(
  () => served.url,
  () => key,
)
const DOMAIN = 'status.acme-e2e.test'

beforeAll(async () => {
  smtp = await startSmtp()
  hooks = await startReceiver()
  served = await startServe({
    args: ['--quiet', '--smtp-url', smtp.url, '--smtp-from', 'status@acme.test', '--allow-private-targets'],
  })
  key = (await served.createKey({ user: 'subs', credits: 100 })).key
}, 120_000)

afterAll(async () => {
  await served?.stop()
  await smtp?.close()
  await hooks?.close()
})

/** A request to serve as if sent to `host` (what a proxy in front forwards). */
async function onHost(
  host: string,
  path: string,
  init: { method?: string; body?: string; type?: string } = {},
) {
  const res = await request(`${served.url}${path}`, {
    method: (init.method ?? 'GET') as 'GET',
    headers: { host, ...(init.type ? { 'content-type': init.type } : {}) },
    body: init.body,
  })
  return { status: res.statusCode, headers: res.headers, text: await res.body.text() }
}

const linkIn = (m: Mail, kind: string) => {
  const found = m.text.match(new RegExp(`https?://\\S+/subscribers/${kind}\\?token=[\\w.-]+`))
  expect(found, `a ${kind} link`).not.toBeNull()
  return new URL(found![0])
}
const to = (addr: string) => smtp.mails.filter((m) => m.to.includes(addr))

describe('status page subscribers end to end', () => {
  it('confirms by the mailed link, notifies with unsubscribe headers, and stops after a one-click POST', async () => {
    const page = (
      await api('POST', '/status-pages', { slug: 'e2e-subs', title: 'E2E & Co', monitor_ids: [] })
    ).body
    const sub = await fetch(`${served.url}/status/e2e-subs/subscribers`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email=reader%40example.test',
    })
    expect(sub.status).toBe(200)
    expect(await sub.text()).toContain('Check your inbox')
    await waitFor(async () => to('reader@example.test').length === 1, 10_000, 'the confirmation mail')
    const confirm = linkIn(to('reader@example.test')[0], 'confirm')
    expect(confirm.origin).toBe(served.url)

    const tampered = new URL(confirm)
    tampered.searchParams.set(
      'token',
      confirm.searchParams.get('token')!.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')),
    )
    const bad = await fetch(tampered)
    expect(bad.status).toBe(400)
    expect(await bad.text()).toContain('This link is not valid')
    expect((await api('GET', `/status-pages/${page.id}/subscribers`)).body.count).toBe(0)

    expect((await fetch(confirm)).status).toBe(200)
    expect((await api('GET', `/status-pages/${page.id}/subscribers`)).body.count).toBe(0)
    const ok = await fetch(confirm, { method: 'POST' })
    expect(ok.status).toBe(200)
    expect((await api('GET', `/status-pages/${page.id}/subscribers`)).body.count).toBe(1)

    const inc = (
      await api('POST', `/status-pages/${page.id}/incidents`, {
        title: 'Checkout <errors>',
        message: 'Payments fail.',
        impact: 'major',
      })
    ).body
    await api('POST', `/status-pages/${page.id}/incidents/${inc.id}/updates`, {
      status: 'identified',
      message: 'A bad deploy.',
    })
    await waitFor(async () => to('reader@example.test').length === 3, 10_000, 'two notices')
    const notice = to('reader@example.test')[2]
    expect(notice.text).toContain('A bad deploy.')
    expect(notice.headers.get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click')
    const unsub = new URL(notice.headers.get('list-unsubscribe')!.slice(1, -1))
    expect(linkIn(notice, 'unsubscribe').href).toBe(unsub.href)
    const gone = await fetch(unsub, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    })
    expect(gone.status).toBe(200)
    expect((await api('GET', `/status-pages/${page.id}/subscribers`)).body.count).toBe(0)
    await api('POST', `/status-pages/${page.id}/incidents/${inc.id}/updates`, {
      status: 'resolved',
      message: 'Rolled back.',
    })
    await new Promise((r) => setTimeout(r, 1000))
    expect(to('reader@example.test')).toHaveLength(3)

    // the feeds carry the incident and its updates, and parse
    const parser = new XMLParser({ ignoreAttributes: false })
    const rss = await (await fetch(`${served.url}/status/e2e-subs/feed.rss`)).text()
    const atom = await (await fetch(`${served.url}/status/e2e-subs/feed.atom`)).text()
    expect(XMLValidator.validate(rss)).toBe(true)
    expect(XMLValidator.validate(atom)).toBe(true)
    expect(parser.parse(rss).rss['@_version']).toBe('2.0')
    expect(parser.parse(rss).rss.channel.item[0].title).toBe('Checkout <errors>: Resolved')
    expect(rss).toContain('Checkout &lt;errors&gt;')
    expect(parser.parse(atom).feed['@_xmlns']).toBe('http://www.w3.org/2005/Atom')
    expect(atom).toContain('Rolled back.')
  })
})

describe('maintenance notices', () => {
  /** A paused monitor (its runs are not what this is about). */
  const monitor = async (name: string) => {
    const m = (await api('POST', '/monitors', { url: 'http://127.0.0.1:9/', name })).body
    await api('PATCH', `/monitors/${m.id}`, { paused: true })
    return m.id as string
  }
  /** Subscribed by email (the confirmation link followed) and by webhook; the webhook's secret. */
  const subscribe = async (slug: string, email: string, hookPath: string) => {
    const sub = (body: unknown) =>
      fetch(`${served.url}/status/${slug}/subscribers`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    await sub({ email })
    await waitFor(async () => to(email).length === 1, 10_000, 'the confirmation mail')
    expect((await fetch(linkIn(to(email)[0], 'confirm'), { method: 'POST' })).status).toBe(200)
    const hook = await (await sub({ webhook_url: hooks.url(hookPath) })).json()
    return hook.subscriber.secret as string
  }

  it("reach the page's confirmed subscribers by mail, with unsubscribe headers, and by signed webhook", async () => {
    const [shop, other] = [await monitor('Shop'), await monitor('Back office')]
    const page = (
      await api('POST', '/status-pages', { slug: 'e2e-maint', title: 'Maint & Co', monitor_ids: [shop] })
    ).body
    const secret = await subscribe('e2e-maint', 'ops@example.test', '/maint-hook')
    expect((await api('GET', `/status-pages/${page.id}/subscribers`)).body.count).toBe(2)

    const now = Date.now()
    const window = (name: string, ids: string[]) =>
      api('POST', '/maintenance-windows', {
        name,
        monitor_ids: ids,
        starts_at: new Date(now + 3_600_000).toISOString(),
        ends_at: new Date(now + 7_200_000).toISOString(),
      })
    // a window on a monitor the page does not show tells none of its subscribers
    expect((await window('Back office upgrade', [other])).status).toBe(201)
    expect((await window('Database <upgrade>', [shop])).status).toBe(201)

    await waitFor(async () => to('ops@example.test').length === 2, 10_000, 'the maintenance mail')
    const mail = to('ops@example.test')[1]
    expect(mail.headers.get('subject')).toContain('Scheduled maintenance: Database <upgrade>')
    expect(mail.text).toContain('Affects Shop')
    expect(mail.text).not.toContain('Back office')
    expect(mail.headers.get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click')
    const unsub = new URL(mail.headers.get('list-unsubscribe')!.slice(1, -1))
    expect(linkIn(mail, 'unsubscribe').href).toBe(unsub.href)

    const mine = () => hooks.received.filter((h) => h.path === '/maint-hook')
    await waitFor(async () => mine().length === 1, 10_000, 'the maintenance webhook')
    const [hook] = mine()
    const ts = String(hook.headers['x-sitehealth-timestamp'])
    const want = `sha256=${createHmac('sha256', secret).update(`${ts}.${hook.body}`).digest('hex')}`
    expect(hook.headers['x-sitehealth-signature']).toBe(want)
    const body = JSON.parse(hook.body)
    expect(body).toMatchObject({
      event: 'maintenance.scheduled',
      maintenance: { name: 'Database <upgrade>', monitor_ids: [shop] },
    })
    expect(body.unsubscribe_url).toMatch(/\/status\/e2e-maint\/subscribers\/unsubscribe\?token=/)
    // nothing more came of the other window
    await new Promise((r) => setTimeout(r, 500))
    expect(to('ops@example.test')).toHaveLength(2)
    expect(mine()).toHaveLength(1)
  })
})

describe('a custom domain', () => {
  it('serves the page, its feeds and its links at / on its domain, and nothing else there', async () => {
    const page = (
      await api('POST', '/status-pages', {
        slug: 'e2e-domain',
        title: 'Domain page',
        monitor_ids: [],
        domain: DOMAIN,
      })
    ).body
    expect(page.domain).toBe(DOMAIN)
    const home = await onHost(DOMAIN, '/')
    expect(home.status).toBe(200)
    expect(home.text).toContain('<h1>Domain page</h1>')
    // its relative links, as a browser resolves them from /
    expect((await onHost(DOMAIN, '/e2e-domain.json')).status).toBe(200)
    const rss = await onHost(`${DOMAIN}:443`, '/e2e-domain/feed.rss')
    expect(rss.status).toBe(200)
    expect(rss.text).toContain(`https://${DOMAIN}/`)
    expect((await onHost(DOMAIN, '/feed.atom')).status).toBe(200)
    const summary = await onHost(DOMAIN, '/api/v2/summary.json')
    expect(JSON.parse(summary.text).page.url).toBe(`https://${DOMAIN}/`)
    // the API and the dashboard do not answer on a page's domain
    expect((await onHost(DOMAIN, '/api/public/v1/status-pages')).status).toBe(404)
    // an email subscription's links name the domain
    await onHost(DOMAIN, '/e2e-domain/subscribers', {
      method: 'POST',
      type: 'application/json',
      body: JSON.stringify({ email: 'dom@example.test' }),
    })
    await waitFor(async () => to('dom@example.test').length === 1, 10_000, 'the confirmation mail')
    const link = linkIn(to('dom@example.test')[0], 'confirm')
    expect(link.origin).toBe(`https://${DOMAIN}`)
    expect((await onHost(DOMAIN, link.pathname + link.search, { method: 'POST' })).status).toBe(200)
    // the owner sees and removes it through the typed client
    const client = new SitehealthClient({ baseUrl: served.url, apiKey: key })
    const { subscribers, count } = await client.listStatusSubscribers(page.id)
    expect(count).toBe(1)
    expect(subscribers[0].target).toBe('dom@example.test')
    await client.deleteStatusSubscriber(page.id, subscribers[0].id)
    expect((await client.listStatusSubscribers(page.id)).count).toBe(0)
    // another host is unchanged: the server's own address answers as before
    const other = await onHost('unknown.example.test', '/api/public/v1/health')
    expect(other.status).toBe(200)
    expect((await onHost('unknown.example.test', '/status/e2e-domain')).status).toBe(200)
  })
})
