/**
 * Monitor definitions in the storage contract (src/store/monitors.ts): CRUD scoped to the owner,
 * paging by time-ordered ids, refs unique per user, reads of several monitors at once.
 */
import { expect, it } from 'vitest'
import { DuplicateRefError, MonitorLimitError } from '../../../src/store/errors.js'
import type { MonitorDefinitionStore, MonitorRecord } from '../../../src/store/monitors.js'
import { monitor } from './fixtures.js'
import type { Store } from '../../../src/store/types.js'
import type { ContractContext } from './index.js'

const mon = (s: Store): MonitorDefinitionStore => s.monitors

export function definitionsContract(t: ContractContext): void {
  it('creates, reads and lists only the owner’s monitors, newest first with a cursor', async () => {
    const store = await t.open()
    const ms = mon(store)
    const created: MonitorRecord[] = []
    for (let i = 0; i < 23; i++) created.push(await ms.createMonitor(monitor('alice', null)))
    await ms.createMonitor(monitor('bob', null))
    expect(await ms.getMonitor('alice', created[3].id)).toEqual(created[3])
    expect(await ms.getMonitor('bob', created[3].id)).toBeUndefined()
    const seen: string[] = []
    let before: string | undefined
    for (;;) {
      const page = await ms.listMonitors('alice', { limit: 10, before })
      seen.push(...page.items.map((m) => m.id))
      if (!page.next) break
      before = page.next
    }
    expect(seen).toEqual(created.map((m) => m.id).reverse())
    expect((await ms.userMonitors('bob')).length).toBe(1)
    expect(await ms.deleteMonitor('bob', created[0].id)).toBe(false)
    expect(await ms.deleteMonitor('alice', created[0].id)).toBe(true)
    expect(await ms.getMonitor('alice', created[0].id)).toBeUndefined()
  })

  it('lists by tag: equal tags, a bare name for any value, every tag matched, paged and kept over a reopen', async () => {
    let store = await t.open()
    let ms = mon(store)
    const tagged = (tags: string[] | undefined) =>
      ms.createMonitor(monitor('alice', null, tags ? { tags } : {}))
    const prod = await tagged(['env:prod', 'team:web'])
    const staging = await tagged(['env:staging'])
    const bare = await tagged(['critical', 'env'])
    await tagged(undefined) // a record older than tags
    await tagged(['environment:prod']) // `env` is not a prefix of another name
    await ms.createMonitor(monitor('bob', null, { tags: ['env:prod'] }))
    for (let i = 0; i < 12; i++) await tagged(['bulk', `n:${i}`])
    store = await t.reopen(store)
    ms = mon(store)
    const ids = async (tags: string[], limit = 10) =>
      (await ms.listMonitors('alice', { limit, tags })).items.map((m) => m.id)
    expect(await ids(['env:prod'])).toEqual([prod.id])
    expect(await ids(['env'])).toEqual([bare.id, staging.id, prod.id])
    expect(await ids(['env', 'team:web'])).toEqual([prod.id])
    expect(await ids(['env:prod', 'critical'])).toEqual([])
    expect(await ids(['nothing'])).toEqual([])
    expect((await ms.getMonitor('alice', prod.id))?.tags).toEqual(['env:prod', 'team:web'])
    // a page of a filtered list, and the next from its cursor
    const first = await ms.listMonitors('alice', { limit: 10, tags: ['bulk'] })
    expect(first.items).toHaveLength(10)
    expect(first.next).toBe(first.items[9].id)
    const rest = await ms.listMonitors('alice', { limit: 10, tags: ['bulk'], before: first.next! })
    expect(rest.items.map((m) => m.tags)).toEqual([
      ['bulk', 'n:1'],
      ['bulk', 'n:0'],
    ])
    expect(rest.next).toBeNull()
    // no tags: every monitor
    expect((await ms.listMonitors('alice', { limit: 50, tags: [] })).items).toHaveLength(17)
  })

  it('keeps refs unique per user: a clash is refused on create and update, freed by rename and delete', async () => {
    let store = await t.open()
    let ms = mon(store)
    const api = await ms.createMonitor(monitor('alice', null, { ref: 'api' }))
    // another user may use the same ref; monitors without a ref never clash
    await ms.createMonitor(monitor('bob', null, { ref: 'api' }))
    await ms.createMonitor(monitor('alice', null))
    await ms.createMonitor(monitor('alice', null, { ref: null }))
    await expect(ms.createMonitor(monitor('alice', null, { ref: 'api' }))).rejects.toBeInstanceOf(
      DuplicateRefError,
    )
    const web = await ms.createMonitor(monitor('alice', null, { ref: 'web' }))
    await expect(ms.updateMonitor({ ...web, ref: 'api' })).rejects.toBeInstanceOf(DuplicateRefError)
    // a monitor may be written again with its own ref
    expect(await ms.updateMonitor({ ...api, name: 'API' })).toMatchObject({ ref: 'api', name: 'API' })
    // a renamed ref frees the old one
    await ms.updateMonitor({ ...api, name: 'API', ref: 'api-v2' })
    const again = await ms.createMonitor(monitor('alice', null, { ref: 'api' }))
    store = await t.reopen(store)
    ms = mon(store)
    expect((await ms.getMonitor('alice', api.id))?.ref).toBe('api-v2')
    await expect(ms.createMonitor(monitor('alice', null, { ref: 'api-v2' }))).rejects.toBeInstanceOf(
      DuplicateRefError,
    )
    expect(await ms.deleteMonitor('alice', again.id)).toBe(true)
    expect((await ms.createMonitor(monitor('alice', null, { ref: 'api' }))).ref).toBe('api')
    const refs = (await ms.userMonitors('alice')).map((m) => m.ref ?? null).sort()
    expect(refs).toEqual(['api', 'api-v2', 'web', null, null].sort())
  })

  it('counts a user’s monitors and refuses a create past the cap, racing creates included', async () => {
    let store = await t.open()
    let ms = mon(store)
    expect(await ms.countMonitors('alice')).toBe(0)
    await ms.createMonitor(monitor('alice', null), { maxPerUser: 3 })
    await ms.createMonitor(monitor('bob', null))
    // ten creates at once with room for two: exactly two are written
    const raced = await Promise.allSettled(
      Array.from({ length: 10 }, () => ms.createMonitor(monitor('alice', null), { maxPerUser: 3 })),
    )
    expect(raced.filter((r) => r.status === 'fulfilled')).toHaveLength(2)
    for (const r of raced.filter((x) => x.status === 'rejected'))
      expect((r as PromiseRejectedResult).reason).toBeInstanceOf(MonitorLimitError)
    expect(await ms.countMonitors('alice')).toBe(3)
    expect((await ms.userMonitors('alice')).length).toBe(3)
    expect(await ms.countMonitors('bob')).toBe(1)
    // without a cap, or another user, nothing is refused; a delete makes room again
    await ms.createMonitor(monitor('alice', null))
    await ms.createMonitor(monitor('bob', null), { maxPerUser: 3 })
    store = await t.reopen(store)
    ms = mon(store)
    expect(await ms.countMonitors('alice')).toBe(4)
    const [first] = await ms.userMonitors('alice')
    await ms.deleteMonitor('alice', first.id)
    await expect(ms.createMonitor(monitor('alice', null), { maxPerUser: 3 })).rejects.toBeInstanceOf(
      MonitorLimitError,
    )
    await ms.createMonitor(monitor('alice', null), { maxPerUser: 4 })
    expect(await ms.countMonitors('alice')).toBe(4)
  })

  it('reads several monitors of any user at once, in the order asked, skipping unknown ids', async () => {
    const store = await t.open()
    const ms = mon(store)
    const a = await ms.createMonitor(monitor('alice', null))
    const b = await ms.createMonitor(monitor('bob', null))
    const gone = await ms.createMonitor(monitor('alice', null))
    await ms.deleteMonitor('alice', gone.id)
    const found = await ms.getMonitorsById([b.id, 'not-an-id', gone.id, a.id])
    expect(found).toEqual([await ms.getMonitorById(b.id), await ms.getMonitorById(a.id)])
    expect(found.map((m) => m.user_id)).toEqual(['bob', 'alice'])
    expect(await ms.getMonitorsById([])).toEqual([])
  })

  it('names the users with monitors paused for lack of credits, across a reopen', async () => {
    let store = await t.open()
    const ms = mon(store)
    const m = await ms.createMonitor(monitor('alice', Date.now() + 60_000))
    await ms.createMonitor(monitor('bob', null, { paused: true, paused_reason: 'user' }))
    expect(await ms.creditPausedUsers()).toEqual([])
    await ms.updateMonitor({ ...m, paused: true, paused_reason: 'credits', next_run_at: null })
    expect(await ms.creditPausedUsers()).toEqual(['alice'])
    store = await t.reopen(store)
    expect((await mon(store).getMonitor('alice', m.id))?.paused_reason).toBe('credits')
    expect(await mon(store).creditPausedUsers()).toEqual(['alice'])
  })
}
