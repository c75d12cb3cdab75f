/**
 * The subscriber outbox in the storage contract (docs/status-pages.md): a notice queued for its
 * subscribers in one write; claims oldest first under a lease, each item held by one claim until
 * its lease runs out or is given back, attempts counted; finished items gone, and the notice with
 * the last of them; everything gone with its page and kept across a reopen.
 */
import { expect, it } from 'vitest'
import { nextId } from '../../../src/monitors/ids.js'
import type { OutboxNoticeRecord } from '../../../src/store/status-subscribers.js'
import type { ContractContext } from './index.js'
import { page } from './status-pages.js'

const LEASE = 60_000
const T0 = 1_900_000_000_000

function notice(pageId: string): OutboxNoticeRecord {
  return {
    id: nextId(),
    page_id: pageId,
    event: 'incident.updated',
    subject: '[Acme] Identified: Checkout errors',
    text: 'A bad deploy.\n',
    data: { incident: { id: nextId(), title: 'Checkout <errors>' } },
    occurred_at: new Date(T0).toISOString(),
    page_title: 'Acme & Co',
    unsubscribe_base: 'http://127.0.0.1:8080/status/acme/subscribers/unsubscribe?token=',
  }
}

export function statusOutboxContract(ctx: ContractContext): void {
  it('claims oldest first under a lease, counts attempts, and frees items given back or run out', async () => {
    const store = await ctx.open()
    const ss = store.statusSubscribers
    const p = (await store.statusPages.createStatusPage(page('alice', `o-${nextId().slice(-8)}`))).id
    const n = notice(p)
    const subs = Array.from({ length: 5 }, () => nextId())
    await ss.enqueueNotice(n, subs)
    await ss.enqueueNotice(notice(p), [])
    expect(await ss.countOutbox()).toBe(5)
    expect(await ss.getNotice(n.id)).toEqual(n)

    const first = await ss.claimOutbox(3, LEASE, T0)
    expect(first.map((i) => i.subscriber_id)).toEqual(subs.slice(0, 3))
    expect(first.every((i) => i.attempts === 1 && i.notice_id === n.id && i.page_id === p)).toBe(true)
    expect(first[0].lease_until).toBe(T0 + LEASE)
    // held items are not taken again while their lease runs
    const second = await ss.claimOutbox(10, LEASE, T0 + 1)
    expect(second.map((i) => i.subscriber_id)).toEqual(subs.slice(3))
    expect(await ss.claimOutbox(10, LEASE, T0 + 2)).toEqual([])

    await ss.releaseOutbox([second[0].id])
    const back = await ss.claimOutbox(10, LEASE, T0 + 3)
    expect(back.map((i) => [i.id, i.attempts])).toEqual([[second[0].id, 2]])
    // a lease that ran out (its holder stopped) is free again
    const late = await ss.claimOutbox(10, LEASE, T0 + LEASE)
    expect(late.map((i) => i.id)).toEqual(first.map((i) => i.id))
    expect(late.every((i) => i.attempts === 2)).toBe(true)
  })

  it('removes finished items, and the notice with the last of them', async () => {
    const store = await ctx.open()
    const ss = store.statusSubscribers
    const p = (await store.statusPages.createStatusPage(page('alice', `f-${nextId().slice(-8)}`))).id
    const [a, b] = [notice(p), notice(p)]
    await ss.enqueueNotice(a, [nextId(), nextId()])
    await ss.enqueueNotice(b, [nextId()])
    const items = await ss.claimOutbox(10, LEASE, T0)
    expect(items).toHaveLength(3)
    await ss.finishOutbox([items[0].id])
    expect(await ss.countOutbox()).toBe(2)
    expect(await ss.getNotice(a.id)).toBeDefined()
    await ss.finishOutbox([items[1].id, items[2].id])
    expect(await ss.countOutbox()).toBe(0)
    expect(await ss.getNotice(a.id)).toBeUndefined()
    expect(await ss.getNotice(b.id)).toBeUndefined()
    await ss.finishOutbox([items[0].id])
  })

  it("keeps the outbox across a reopen, and drops a page's with its page", async () => {
    let store = await ctx.open()
    const [p, q] = [
      (await store.statusPages.createStatusPage(page('alice', `r-${nextId().slice(-8)}`))).id,
      (await store.statusPages.createStatusPage(page('alice', `s-${nextId().slice(-8)}`))).id,
    ]
    const n = notice(p)
    await store.statusSubscribers.enqueueNotice(n, [nextId(), nextId()])
    await store.statusSubscribers.enqueueNotice(notice(q), [nextId()])
    await store.statusSubscribers.claimOutbox(1, LEASE, T0)
    store = await ctx.reopen(store)
    expect(await store.statusSubscribers.countOutbox()).toBe(3)
    expect(await store.statusSubscribers.getNotice(n.id)).toEqual(n)
    // once the lease of the stopped process ran out, all of it is there to send
    expect(await store.statusSubscribers.claimOutbox(10, LEASE, T0 + LEASE)).toHaveLength(3)

    // as the status-page service deletes a page
    await store.statusPages.deleteStatusPage('alice', p)
    await store.statusSubscribers.deletePageSubscribers(p)
    expect(await store.statusSubscribers.countOutbox()).toBe(1)
    expect(await store.statusSubscribers.getNotice(n.id)).toBeUndefined()
  })
}
