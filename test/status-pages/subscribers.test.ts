/**
 * Subscribers of a status page (docs/status-pages.md): email with double opt-in through a real local
 * SMTP server (only the confirmation mail before its link is followed; every notice with a signed
 * unsubscribe link and RFC 8058's headers), tampered and expired links answered with a clear page,
 * the same answer whether or not an address is subscribed, throttles, the page's HTML forms,
 * signed webhooks, maintenance notices, and the owner's list and removal.
 */
import { createHmac } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import { once } from 'node:events'
import type net from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SubscribeAccepted, SubscriberList } from '../../src/contract/status-pages.js'
import { LinkSigner } from '../../src/status-pages/index.js'
import { startSmtp, type LocalSmtp, type Mail } from '../helpers/smtp.js'
import { startHarness, type Harness } from './harness.js'

const SECRET = 's'.repeat(40)
const P = '/api/public/v1/status-pages'
let h: Harness
let smtp: LocalSmtp
let alice: string
let bob: string
let pageId: string
let shopId: string

beforeAll(async () => {
  smtp = await startSmtp()
  h = await startHarness({
    subscribers: { secretKey: SECRET, smtpUrl: smtp.url, smtpFrom: 'status@acme.test' },
  })
  alice = await h.newKey('alice')
  bob = await h.newKey('bob')
  const shop = await h.monitor('alice', { name: 'Shop' })
  shopId = shop.id
  const r = await h.api(alice, 'POST', P, { slug: 'subs', title: 'Acme <status>', monitor_ids: [shop.id] })
  pageId = r.body.id
})
afterAll(async () => {
  await h?.close()
  await smtp?.close()
})

const json = (body: unknown) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
})
const subscribe = (body: unknown, slug = 'subs') => h.fetch(`/status/${slug}/subscribers`, json(body))
const mailsTo = (addr: string) => smtp.mails.filter((m) => m.to.includes(addr))
const linkIn = (m: Mail, kind: 'confirm' | 'unsubscribe') => {
  const found = m.text.match(new RegExp(`https?://\\S+/subscribers/${kind}\\?token=[\\w.-]+`))
  expect(found, `a ${kind} link in the mail`).not.toBeNull()
  return new URL(found![0])
}
const postIncident = (title: string) =>
  h.api(alice, 'POST', `${P}/${pageId}/incidents`, { title, message: 'Payments fail.', impact: 'major' })
const count = async () => SubscriberList.parse((await h.api(alice, 'GET', `${P}/${pageId}/subscribers`)).body)

describe('email subscribers', () => {
  it('sends only a confirmation until its link is followed, then every notice with unsubscribe headers', async () => {
    const res = await subscribe({ email: 'Ann@Example.test' })
    expect(res.status).toBe(202)
    const first = SubscribeAccepted.parse(await res.json())
    const [confirmation] = await smtp.waitFor(1)
    expect(confirmation.to).toEqual(['ann@example.test'])
    expect(confirmation.headers.get('subject')).toContain('Confirm your subscription')
    expect((await count()).count).toBe(0)

    // an incident before confirming: nothing more to that address
    await postIncident('Before confirming')
    await new Promise((r) => setTimeout(r, 300))
    expect(mailsTo('ann@example.test')).toHaveLength(1)

    const link = linkIn(confirmation, 'confirm')
    // opening the link (as a mail scanner does) only shows a button: nobody is subscribed yet
    const opened = await h.fetch(link.pathname + link.search)
    expect(opened.status).toBe(200)
    expect(opened.headers.get('content-security-policy')).toContain("default-src 'none'")
    const form = await opened.text()
    expect(form).toContain('<form method=post>')
    expect(form).toContain('Confirm subscription')
    expect((await count()).count).toBe(0)
    const press = () =>
      h.fetch(link.pathname + link.search, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `token=${encodeURIComponent(link.searchParams.get('token')!)}`,
      })
    const confirmed = await press()
    expect(confirmed.status).toBe(200)
    expect(await confirmed.text()).toContain('Subscription confirmed')
    expect((await count()).subscribers).toMatchObject([{ type: 'email', target: 'ann@example.test' }])
    // pressing it twice keeps one subscriber
    await press()
    expect((await count()).count).toBe(1)

    // subscribing again answers exactly as before
    const again = await subscribe({ email: 'ann@example.test' })
    expect(again.status).toBe(202)
    expect(await again.json()).toEqual(first)
    await smtp.waitFor(2)

    const inc = await postIncident('Checkout <b>down</b>\r\nBcc: evil@example.test')
    await h.api(alice, 'POST', `${P}/${pageId}/incidents/${inc.body.id}/updates`, {
      status: 'resolved',
      message: 'Fixed & deployed.',
    })
    const all = await smtp.waitFor(4)
    const notices = all.filter((m) => m.to.includes('ann@example.test')).slice(2)
    expect(notices).toHaveLength(2)
    for (const m of notices) {
      expect(m.headers.has('bcc')).toBe(false)
      expect(m.headers.get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click')
      expect(m.headers.get('list-unsubscribe')).toMatch(
        /^<https:\/\/status\.example\.test\/status\/subs\/subscribers\/unsubscribe\?token=/,
      )
    }
    expect(notices[0].headers.get('subject')).toContain(
      'New incident: Checkout <b>down</b> Bcc: evil@example.test',
    )
    expect(notices[1].text).toContain('Fixed & deployed.')

    // RFC 8058: a POST of List-Unsubscribe=One-Click to the header's URL unsubscribes
    const unsub = new URL(notices[1].headers.get('list-unsubscribe')!.slice(1, -1))
    const out = await h.fetch(unsub.pathname + unsub.search, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    })
    expect(out.status).toBe(200)
    expect(await out.text()).toContain('Unsubscribed')
    expect((await count()).count).toBe(0)
    // the link in the text shows a button and acts on its POST, and again after
    const body = linkIn(notices[0], 'unsubscribe')
    const shown = await h.fetch(body.pathname + body.search)
    expect(shown.status).toBe(200)
    expect(await shown.text()).toContain('<button type=submit>Unsubscribe</button>')
    expect((await h.fetch(body.pathname + body.search, { method: 'POST' })).status).toBe(200)
  })

  it('lets a mail scanner open the links without unsubscribing anyone', async () => {
    const before = smtp.mails.length
    await subscribe({ email: 'scan@example.test' })
    const mails = await smtp.waitFor(before + 1)
    const m = [...mails].reverse().find((x) => x.to.includes('scan@example.test'))!
    const link = linkIn(m, 'confirm')
    await h.fetch(link.pathname + link.search, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `token=${encodeURIComponent(link.searchParams.get('token')!)}`,
    })
    const sub = (await count()).subscribers.find((s) => s.target === 'scan@example.test')!
    const token = new LinkSigner(SECRET).unsubscribeToken(pageId, sub.id)
    for (let i = 0; i < 3; i++)
      expect((await h.fetch(`/status/subs/subscribers/unsubscribe?token=${token}`)).status).toBe(200)
    expect((await count()).subscribers.map((s) => s.target)).toContain('scan@example.test')
    expect(
      (await h.fetch(`/status/subs/subscribers/unsubscribe?token=${token}`, { method: 'POST' })).status,
    ).toBe(200)
    expect((await count()).subscribers.map((s) => s.target)).not.toContain('scan@example.test')
  })

  it('answers a tampered or expired link with a clear page, never a crash', async () => {
    const before = smtp.mails.length
    await subscribe({ email: 'tamper@example.test' })
    const mails = await smtp.waitFor(before + 1)
    const m = [...mails].reverse().find((x) => x.to.includes('tamper@example.test'))!
    const link = linkIn(m, 'confirm')
    const token = link.searchParams.get('token')!
    const [data, sig] = token.split('.')
    const forged = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(data, 'base64url').toString()), e: 'other@example.test' }),
    ).toString('base64url')
    for (const bad of [`${forged}.${sig}`, token.slice(0, -3), 'x', '', `${data}.${sig}.x`, '%%%']) {
      const res = await h.fetch(`/status/subs/subscribers/confirm?token=${encodeURIComponent(bad)}`)
      expect(res.status).toBe(400)
      expect(res.headers.get('content-type')).toContain('text/html')
      expect(await res.text()).toContain('This link is not valid')
    }
    const old = new LinkSigner(SECRET).confirmToken(pageId, 'late@example.test', Date.now() - 8 * 86_400_000)
    const expired = await h.fetch(`/status/subs/subscribers/confirm?token=${old}`)
    expect(expired.status).toBe(410)
    expect(await expired.text()).toContain('expired')
    // a genuine link of another page is not valid here
    const other = await h.fetch(`/status/nope-page/subscribers/confirm?token=${token}`)
    expect(other.status).toBe(404)
    const bad = await h.fetch('/status/subs/subscribers/unsubscribe?token=abc.def')
    expect(bad.status).toBe(400)
    expect((await count()).subscribers.map((s) => s.target)).not.toContain('other@example.test')
  })

  it('refuses bad input with the envelope and unknown pages with 404', async () => {
    const bad = await subscribe({ email: 'not-an-address' })
    expect(bad.status).toBe(400)
    expect((await bad.json()).error.code).toBe('invalid_url')
    expect((await subscribe({ email: 'a@example.test', webhook_url: 'https://x.test' })).status).toBe(400)
    expect((await subscribe({ email: 'a@example.test' }, 'no-such-page')).status).toBe(404)
  })
})

describe('the page forms', () => {
  it('shows an email and a webhook form posting to the page, allowed by the policy', async () => {
    const res = await h.fetch('/status/subs')
    const page = await res.text()
    expect(res.headers.get('content-security-policy')).toContain("form-action 'self'")
    expect(page).toContain('<form class=sb method=post action="subs/subscribers">')
    expect(page).toContain('name=email')
    expect(page).toContain('name=webhook_url')
  })
})

describe('webhook subscribers and the owner', () => {
  let hook: Server
  const received: { headers: Record<string, string | string[] | undefined>; body: string }[] = []
  beforeAll(async () => {
    hook = createServer((req, res) => {
      let body = ''
      req.on('data', (c) => (body += c))
      req.on('end', () => {
        received.push({ headers: req.headers, body })
        res.end('ok')
      })
    })
    hook.listen(0, '127.0.0.1')
    await once(hook, 'listening')
  })
  afterAll(() => new Promise<void>((r) => hook.close(() => r())))

  it('posts incidents signed as alert webhooks; the owner lists and removes', async () => {
    const port = (hook.address() as net.AddressInfo).port
    const res = await subscribe({ webhook_url: `http://127.0.0.1:${port}/hook` })
    expect(res.status).toBe(201)
    const { subscriber } = SubscribeAccepted.parse(await res.json())
    await postIncident('Webhook incident')
    const deadline = Date.now() + 5000
    while (received.length < 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25))
    const got = received[0]
    const ts = String(got.headers['x-sitehealth-timestamp'])
    const want = `sha256=${createHmac('sha256', subscriber!.secret).update(`${ts}.${got.body}`).digest('hex')}`
    expect(got.headers['x-sitehealth-signature']).toBe(want)
    expect(got.headers['x-sitehealth-event']).toBe('incident.created')
    expect(JSON.parse(got.body)).toMatchObject({
      event: 'incident.created',
      incident: { title: 'Webhook incident' },
    })

    const list = await count()
    const mine = list.subscribers.find((s) => s.id === subscriber!.id)!
    expect(mine.type).toBe('webhook')
    expect(mine.target).not.toContain('/hook')
    expect((await h.api(bob, 'GET', `${P}/${pageId}/subscribers`)).status).toBe(404)
    expect((await h.api(bob, 'DELETE', `${P}/${pageId}/subscribers/${subscriber!.id}`)).status).toBe(404)
    expect((await h.api(alice, 'DELETE', `${P}/${pageId}/subscribers/${subscriber!.id}`)).status).toBe(204)
    expect((await h.api(alice, 'DELETE', `${P}/${pageId}/subscribers/${subscriber!.id}`)).status).toBe(404)
    expect((await count()).subscribers.map((s) => s.id)).not.toContain(subscriber!.id)
    expect(shopId).toBeTruthy()
  })
})

describe('throttles', () => {
  it('throttles per address quietly (same answer, no mail) and per client with 429', async () => {
    const before = smtp.mails.length
    const answers: number[] = []
    for (let i = 0; i < 5; i++) answers.push((await subscribe({ email: 'flood@example.test' })).status)
    expect(answers).toEqual([202, 202, 202, 202, 202])
    await new Promise((r) => setTimeout(r, 500))
    expect(smtp.mails.slice(before).filter((m) => m.to.includes('flood@example.test'))).toHaveLength(3)
    let last = 0
    for (let i = 0; i < 20 && last !== 429; i++)
      last = (await subscribe({ email: `c${i}@example.test` })).status
    expect(last).toBe(429)
  })
})
