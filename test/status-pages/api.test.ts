/**
 * The status-page API (docs/decisions.md#the-public-face): create, list, get, patch, delete; slugs unique on the
 * server, checked against the pattern and the reserved words; only the caller's own monitors; another
 * account's page answers exactly like an unknown one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { StatusPage, StatusPageList } from '../../src/contract/status-pages.js'
import { startHarness, type Harness } from './harness.js'

let h: Harness
let alice: string
let bob: string
const P = '/api/public/v1/status-pages'

beforeAll(async () => {
  h = await startHarness()
  alice = await h.newKey('alice')
  bob = await h.newKey('bob')
})
afterAll(async () => h?.close())

describe('status pages API', () => {
  it('creates, lists, reads, changes and deletes a page, with its public URL', async () => {
    const m1 = await h.monitor('alice', { name: 'Shop' })
    const m2 = await h.monitor('alice', { name: 'API' })
    const created = await h.api(alice, 'POST', P, {
      slug: 'acme',
      title: 'Acme',
      monitor_ids: [m1.id, m2.id],
    })
    expect(created.status).toBe(201)
    const page = StatusPage.parse(created.body)
    expect(page).toMatchObject({ slug: 'acme', title: 'Acme', show_urls: false, description: null })
    expect(page.monitor_ids).toEqual([m1.id, m2.id])
    expect(page.public_url).toBe('https://status.example.test/status/acme')

    const list = await h.api(alice, 'GET', P)
    expect(StatusPageList.parse(list.body).status_pages.map((p) => p.id)).toEqual([page.id])
    expect((await h.api(alice, 'GET', `${P}/${page.id}`)).body).toEqual(page)

    const patched = await h.api(alice, 'PATCH', `${P}/${page.id}`, {
      title: 'Acme Inc.',
      show_urls: true,
      monitor_ids: [m2.id],
      description: 'Our services',
    })
    expect(patched.status).toBe(200)
    expect(patched.body).toMatchObject({ title: 'Acme Inc.', show_urls: true, monitor_ids: [m2.id] })
    expect(patched.body.description).toBe('Our services')

    expect((await h.api(alice, 'DELETE', `${P}/${page.id}`)).status).toBe(204)
    expect((await h.api(alice, 'GET', `${P}/${page.id}`)).status).toBe(404)
    expect((await h.fetch('/status/acme')).status).toBe(404)
  })

  it('refuses an invalid slug (400 naming the field), a reserved one and a taken one (409)', async () => {
    const m = await h.monitor('alice')
    for (const slug of ['A', 'Upper', '-dash', 'a_b', 'x'.repeat(64), 'ü-page']) {
      const r = await h.api(alice, 'POST', P, { slug, title: 'T', monitor_ids: [m.id] })
      expect(r.status, slug).toBe(400)
      expect(r.body.error.code).toBe('invalid_url')
      expect(r.body.error.message).toMatch(/slug/)
    }
    const reserved = await h.api(alice, 'POST', P, { slug: 'api', title: 'T', monitor_ids: [m.id] })
    expect(reserved.status).toBe(409)
    expect(reserved.body.error.code).toBe('conflict')
    expect((await h.api(alice, 'POST', P, { slug: 'taken', title: 'T', monitor_ids: [m.id] })).status).toBe(
      201,
    )
    const bm = await h.monitor('bob')
    const clash = await h.api(bob, 'POST', P, { slug: 'taken', title: 'T', monitor_ids: [bm.id] })
    expect(clash.status).toBe(409)
    expect(clash.body.error.message).toMatch(/taken/)
    // moving a page onto a taken slug is refused too, and changes nothing
    const other = await h.api(bob, 'POST', P, { slug: 'bobs', title: 'T', monitor_ids: [bm.id] })
    const moved = await h.api(bob, 'PATCH', `${P}/${other.body.id}`, { slug: 'taken' })
    expect(moved.status).toBe(409)
    expect((await h.api(bob, 'GET', `${P}/${other.body.id}`)).body.slug).toBe('bobs')
  })

  it('accepts only the caller’s own monitors, each once, and names the field', async () => {
    const mine = await h.monitor('alice')
    const theirs = await h.monitor('bob')
    const r = await h.api(alice, 'POST', P, { slug: 'mixed', title: 'T', monitor_ids: [mine.id, theirs.id] })
    expect(r.status).toBe(400)
    expect(r.body.error.message).toMatch(/monitor_ids\.1/)
    const twice = await h.api(alice, 'POST', P, {
      slug: 'twice',
      title: 'T',
      monitor_ids: [mine.id, mine.id],
    })
    expect(twice.status).toBe(400)
    const bad = await h.api(alice, 'POST', P, { slug: 'bad', title: 'T', monitor_ids: ['nope'] })
    expect(bad.status).toBe(400)
    expect(bad.body.error.message).toMatch(/monitor_ids\.0/)
    const extra = await h.api(alice, 'POST', P, { slug: 'extra', title: 'T', monitor_ids: [], owner: 'x' })
    expect(extra.status).toBe(400)
    const noTitle = await h.api(alice, 'POST', P, { slug: 'notitle', monitor_ids: [] })
    expect(noTitle.status).toBe(400)
    expect(noTitle.body.error.message).toMatch(/title/)
  })

  it('keeps accounts apart: another user’s page is 404 to read, change or delete, and not listed', async () => {
    const m = await h.monitor('alice')
    const page = (await h.api(alice, 'POST', P, { slug: 'private-one', title: 'T', monitor_ids: [m.id] }))
      .body
    for (const [method, body] of [
      ['GET', undefined],
      ['PATCH', { title: 'mine now' }],
      ['DELETE', undefined],
    ] as const) {
      const r = await h.api(bob, method, `${P}/${page.id}`, body)
      expect(r.status, method).toBe(404)
      expect(r.body.error.code).toBe('not_found')
    }
    expect((await h.api(bob, 'GET', P)).body.status_pages.map((p: any) => p.id)).not.toContain(page.id)
    expect((await h.api(alice, 'GET', `${P}/${page.id}`)).body.title).toBe('T')
  })

  it('needs a key', async () => {
    expect((await h.fetch(P)).status).toBe(401)
    expect((await h.api('shk_live_nope', 'GET', P)).status).toBe(401)
  })
})
