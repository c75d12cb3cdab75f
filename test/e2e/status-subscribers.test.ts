/**
 * Subscribers, feeds and custom domains end to end (docs/status-pages.md), against the built CLI's
 * `serve` with a local SMTP server: subscribe by email, follow the confirmation link from the mail
 * (and a tampered one), hear of an incident's updates with RFC 8058's headers, unsubscribe with a
 * one-click POST and hear nothing more; the feeds parse as RSS 2.0 and Atom 1.0; a page's domain
 * gets the page, its feeds and its links at `/`, and other hosts are unchanged.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser'
import { request } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SitehealthClient } from '../../src/client/client.js'
import { publicApi, waitFor } from '../helpers/api.js'
import { startServe, type Served } from '../helpers/serve.js'
import { startSmtp, type LocalSmtp, type Mail } from '../helpers/smtp.js'

let served: Served
let smtp: LocalSmtp
let key: string
const api = publicApi(
  () => served.url,
  () => key,
)
const DOMAIN = 'status.acme-e2e.test'

beforeAll(async () => {
  smtp = await startSmtp()
  served = await startServe({
    args: ['--quiet', '--smtp-url', smtp.url, '--smtp-from', 'status@acme.test', '--allow-private-targets'],
  })
  key = (await served.createKey({ user: 'subs', credits: 100 })).key
}, 120_000)

afterAll(async () => {
  await served?.stop()
  await smtp?.close()
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
