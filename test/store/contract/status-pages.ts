/**
 * The status-page concern of the storage contract (docs/decisions.md#the-public-face): pages scoped to their owner,
 * slugs unique across all users (also when two creates race), updates that keep or move the
 * slug, deletes, and everything still there after a reopen.
 */
import { expect, it } from 'vitest'
import { nextId } from '../../../src/monitors/ids.js'
import { SlugTakenError, type StatusPageRecord } from '../../../src/store/status-pages.js'
import type { ContractContext } from './index.js'

export function page(user: string, slug: string, over: Partial<StatusPageRecord> = {}): StatusPageRecord {
  const now = new Date().toISOString()
  return {
    id: nextId(),
    user_id: user,
    slug,
    title: `Status of ${slug}`,
    description: null,
    monitor_ids: [nextId(), nextId()],
    show_urls: false,
    created_at: now,
    updated_at: now,
    ...over,
  }
}

export function statusPagesContract(ctx: ContractContext): void {
  it('creates, reads by id (owner only) and by slug, lists per user', async () => {
    const store = await ctx.open()
    const sp = store.statusPages
    const a = await sp.createStatusPage(page('alice', 'alice-shop', { description: 'Shop' }))
    const b = await sp.createStatusPage(page('alice', 'alice-api'))
    await sp.createStatusPage(page('bob', 'bob'))
    expect(await sp.getStatusPage('alice', a.id)).toEqual(a)
    expect(await sp.getStatusPage('bob', a.id)).toBeUndefined()
    expect(await sp.getStatusPageBySlug('alice-api')).toEqual(b)
    expect(await sp.getStatusPageBySlug('nobody')).toBeUndefined()
    expect((await sp.listStatusPages('alice')).map((p) => p.slug)).toEqual(['alice-shop', 'alice-api'])
    expect(await sp.listStatusPages('carol')).toEqual([])
  })

  it('refuses a slug another user has, also when two creates race', async () => {
    const store = await ctx.open()
    const sp = store.statusPages
    await sp.createStatusPage(page('alice', 'taken'))
    await expect(sp.createStatusPage(page('bob', 'taken'))).rejects.toBeInstanceOf(SlugTakenError)
    const results = await Promise.allSettled([
      sp.createStatusPage(page('alice', 'race')),
      sp.createStatusPage(page('bob', 'race')),
    ])
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1)
    const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult
    expect(refused.reason).toBeInstanceOf(SlugTakenError)
  })

  it('updates a page (its slug too, unless taken), only for its owner', async () => {
    const store = await ctx.open()
    const sp = store.statusPages
    const a = await sp.createStatusPage(page('alice', 'first'))
    await sp.createStatusPage(page('bob', 'second'))
    const moved = { ...a, slug: 'third', title: 'New title', show_urls: true }
    expect(await sp.updateStatusPage(moved)).toEqual(moved)
    expect(await sp.getStatusPageBySlug('first')).toBeUndefined()
    expect(await sp.getStatusPageBySlug('third')).toEqual(moved)
    await expect(sp.updateStatusPage({ ...moved, slug: 'second' })).rejects.toBeInstanceOf(SlugTakenError)
    expect(await sp.getStatusPage('alice', a.id)).toEqual(moved)
    expect(await sp.updateStatusPage({ ...moved, user_id: 'bob' })).toBeUndefined()
    expect(await sp.updateStatusPage(page('alice', 'ghost'))).toBeUndefined()
  })

  it('deletes only the owner’s page and frees its slug', async () => {
    const store = await ctx.open()
    const sp = store.statusPages
    const a = await sp.createStatusPage(page('alice', 'gone'))
    expect(await sp.deleteStatusPage('bob', a.id)).toBe(false)
    expect(await sp.deleteStatusPage('alice', a.id)).toBe(true)
    expect(await sp.deleteStatusPage('alice', a.id)).toBe(false)
    expect(await sp.getStatusPageBySlug('gone')).toBeUndefined()
    await sp.createStatusPage(page('bob', 'gone'))
  })

  it('keeps pages across a reopen', async () => {
    let store = await ctx.open()
    const a = await store.statusPages.createStatusPage(page('alice', 'kept', { monitor_ids: [nextId()] }))
    store = await ctx.reopen(store)
    expect(await store.statusPages.getStatusPageBySlug('kept')).toEqual(a)
  })
}
