/**
 * What status pages say, in the storage contract (docs/status-pages.md): incidents with updates appended
 * atomically (also two at once), newest first, per page; subscribers with an email once per page
 * (also within one batch); domains unique across pages; everything gone with its page and kept
 * across a reopen.
 */
import { expect, it } from 'vitest'
import { nextId } from '../../../src/monitors/ids.js'
import type { StatusIncidentRecord } from '../../../src/store/status-incidents.js'
import { DomainTakenError } from '../../../src/store/status-pages.js'
import type { SubscriberRecord } from '../../../src/store/status-subscribers.js'
import type { Store } from '../../../src/store/types.js'
import type { ContractContext } from './index.js'
import { page } from './status-pages.js'

function incident(pageId: string, over: Partial<StatusIncidentRecord> = {}): StatusIncidentRecord {
  const at = new Date().toISOString()
  return {
    id: nextId(),
    page_id: pageId,
    user_id: 'alice',
    title: 'Checkout errors',
    status: 'investigating',
    impact: 'major',
    monitor_ids: [],
    draft: false,
    created_at: at,
    updated_at: at,
    resolved_at: null,
    updates: [{ id: nextId(), status: 'investigating', message: 'Looking', created_at: at }],
    ...over,
  }
}

function subscriber(pageId: string, target: string, over: Partial<SubscriberRecord> = {}): SubscriberRecord {
  return {
    id: nextId(),
    page_id: pageId,
    type: 'email',
    target,
    secret_sealed: null,
    created_at: new Date().toISOString(),
    ...over,
  }
}

async function twoPages(store: Store) {
  const a = await store.statusPages!.createStatusPage(page('alice', `a-${nextId().slice(-8)}`))
  const b = await store.statusPages!.createStatusPage(page('alice', `b-${nextId().slice(-8)}`))
  return [a.id, b.id]
}

export function statusCommsContract(ctx: ContractContext): void {
  it('keeps incidents per page, newest first, and replaces their fields but not their updates', async () => {
    const store = await ctx.open()
    const si = store.statusIncidents!
    const [p, q] = await twoPages(store)
    const first = await si.createIncident(incident(p))
    const second = await si.createIncident(incident(p, { title: 'Slow search', draft: true }))
    await si.createIncident(incident(q))
    expect((await si.listIncidents(p)).map((i) => i.id)).toEqual([second.id, first.id])
    expect(await si.getIncident(q, first.id)).toBeUndefined()
    const changed = await si.updateIncident({ ...second, draft: false, title: 'Search slow', updates: [] })
    expect(changed).toMatchObject({ draft: false, title: 'Search slow' })
    expect(changed!.updates).toEqual(second.updates)
    expect(await si.updateIncident(incident(p))).toBeUndefined()
  })

  it('appends updates atomically with their effect, also two at once', async () => {
    const store = await ctx.open()
    const si = store.statusIncidents!
    const [p] = await twoPages(store)
    const i = await si.createIncident(incident(p))
    const at = new Date().toISOString()
    const up = (status: 'identified' | 'resolved', message: string) =>
      si.appendIncidentUpdate(
        p,
        i.id,
        { id: nextId(), status, message, created_at: at },
        { status, updated_at: at, resolved_at: status === 'resolved' ? at : null },
      )
    await Promise.all([up('identified', 'Found it'), up('identified', 'Fixing')])
    const done = await up('resolved', 'Fixed')
    expect(done!.updates.map((u) => u.message)).toEqual(
      expect.arrayContaining(['Looking', 'Found it', 'Fixing', 'Fixed']),
    )
    expect(done!.updates).toHaveLength(4)
    expect(done!.updates.at(-1)!.message).toBe('Fixed')
    expect(done).toMatchObject({ status: 'resolved', resolved_at: at })
    expect(await si.appendIncidentUpdate(p, nextId(), done!.updates[0], done!)).toBeUndefined()
  })

  it('deletes an incident, and all of a page', async () => {
    const store = await ctx.open()
    const si = store.statusIncidents!
    const [p, q] = await twoPages(store)
    const i = await si.createIncident(incident(p))
    await si.createIncident(incident(p))
    const other = await si.createIncident(incident(q))
    expect(await si.deleteIncident(q, i.id)).toBe(false)
    expect(await si.deleteIncident(p, i.id)).toBe(true)
    expect(await si.listIncidents(p)).toHaveLength(1)
    await si.deletePageIncidents(p)
    expect(await si.listIncidents(p)).toEqual([])
    expect(await si.getIncident(q, other.id)).toEqual(other)
  })

  it('adds subscribers in a batch, an email once per page, webhooks each their own', async () => {
    const store = await ctx.open()
    const ss = store.statusSubscribers!
    const [p, q] = await twoPages(store)
    const added = await ss.addSubscribers([
      subscriber(p, 'a@example.com'),
      subscriber(p, 'b@example.com'),
      subscriber(p, 'a@example.com'),
      subscriber(q, 'a@example.com'),
    ])
    expect(added.map((s) => `${s.page_id === p ? 'p' : 'q'}:${s.target}`)).toEqual([
      'p:a@example.com',
      'p:b@example.com',
      'q:a@example.com',
    ])
    expect(await ss.addSubscribers([subscriber(p, 'a@example.com')])).toEqual([])
    const hook = { type: 'webhook' as const, secret_sealed: 'sealed' }
    const hooks = await ss.addSubscribers([
      subscriber(p, 'https://hooks.example/x', hook),
      subscriber(p, 'https://hooks.example/x', hook),
    ])
    expect(hooks).toHaveLength(2)
    expect(await ss.countSubscribers(p)).toBe(4)
    expect((await ss.listSubscribers(p)).map((s) => s.target)).toEqual([
      'a@example.com',
      'b@example.com',
      'https://hooks.example/x',
      'https://hooks.example/x',
    ])
    expect(await ss.getSubscriber(p, hooks[0].id)).toEqual(hooks[0])
    expect(await ss.getSubscriber(q, hooks[0].id)).toBeUndefined()
    expect(await ss.deleteSubscriber(q, hooks[0].id)).toBe(false)
    expect(await ss.deleteSubscriber(p, hooks[0].id)).toBe(true)
    await ss.deletePageSubscribers(p)
    expect(await ss.countSubscribers(p)).toBe(0)
    expect(await ss.countSubscribers(q)).toBe(1)
  })

  it('finds a page by its domain, unique across pages', async () => {
    const store = await ctx.open()
    const sp = store.statusPages!
    const a = await sp.createStatusPage(page('alice', 'with-domain', { domain: 'status.acme.example' }))
    await sp.createStatusPage(page('bob', 'no-domain', { domain: null }))
    await sp.createStatusPage(page('bob', 'no-domain-2', { domain: null }))
    expect(await sp.getStatusPageByDomain('status.acme.example')).toEqual(a)
    expect(await sp.getStatusPageByDomain('other.example')).toBeUndefined()
    await expect(
      sp.createStatusPage(page('bob', 'thief', { domain: 'status.acme.example' })),
    ).rejects.toBeInstanceOf(DomainTakenError)
    const b = await sp.createStatusPage(page('bob', 'thief'))
    await expect(sp.updateStatusPage({ ...b, domain: 'status.acme.example' })).rejects.toBeInstanceOf(
      DomainTakenError,
    )
    expect(await sp.updateStatusPage({ ...a, domain: 'status2.acme.example' })).toMatchObject({
      domain: 'status2.acme.example',
    })
    expect(await sp.getStatusPageByDomain('status.acme.example')).toBeUndefined()
  })

  it('keeps incidents and subscribers across a reopen', async () => {
    let store = await ctx.open()
    const [p] = await twoPages(store)
    const i = await store.statusIncidents!.createIncident(incident(p))
    await store.statusSubscribers!.addSubscribers([subscriber(p, 'kept@example.com')])
    store = await ctx.reopen(store)
    expect(await store.statusIncidents!.getIncident(p, i.id)).toEqual(i)
    expect((await store.statusSubscribers!.listSubscribers(p)).map((s) => s.target)).toEqual([
      'kept@example.com',
    ])
  })
}
