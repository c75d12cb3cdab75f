/**
 * The maintenance-window concern of the storage contract (docs/decisions.md#monitoring-depth):
 * windows scoped to their owner, listed oldest first, replaced and deleted only by their owner, and
 * everything still there after a reopen.
 */
import { expect, it } from 'vitest'
import { nextId } from '../../../src/monitors/ids.js'
import type { MaintenanceRecord } from '../../../src/store/maintenance.js'
import type { ContractContext } from './index.js'

export function maintenance(user: string, over: Partial<MaintenanceRecord> = {}): MaintenanceRecord {
  const now = new Date().toISOString()
  return {
    id: nextId(),
    user_id: user,
    name: 'Release',
    monitor_ids: 'all',
    starts_at: '2026-12-01T22:00:00.000Z',
    ends_at: '2026-12-01T23:00:00.000Z',
    weekly: null,
    created_at: now,
    updated_at: now,
    ...over,
  }
}

const WEEKLY = { days: ['sat' as const], start: '02:00', duration_minutes: 90, timezone: 'Europe/Berlin' }

export function maintenanceContract(ctx: ContractContext): void {
  it('creates, reads (owner only) and lists per user, oldest first', async () => {
    const store = await ctx.open()
    const mw = store.maintenance
    const a = await mw.createMaintenance(maintenance('alice'))
    const b = await mw.createMaintenance(
      maintenance('alice', { monitor_ids: [nextId()], starts_at: null, ends_at: null, weekly: WEEKLY }),
    )
    await mw.createMaintenance(maintenance('bob'))
    expect(await mw.getMaintenance('alice', a.id)).toEqual(a)
    expect(await mw.getMaintenance('alice', b.id)).toEqual(b)
    expect(await mw.getMaintenance('bob', a.id)).toBeUndefined()
    expect((await mw.listMaintenance('alice')).map((w) => w.id)).toEqual([a.id, b.id])
    expect(await mw.listMaintenance('carol')).toEqual([])
  })

  it('replaces and deletes a window only for its owner', async () => {
    const store = await ctx.open()
    const mw = store.maintenance
    const a = await mw.createMaintenance(maintenance('alice'))
    const changed = { ...a, name: 'Weekly', starts_at: null, ends_at: null, weekly: WEEKLY }
    expect(await mw.updateMaintenance(changed)).toEqual(changed)
    expect(await mw.getMaintenance('alice', a.id)).toEqual(changed)
    expect(await mw.updateMaintenance({ ...changed, user_id: 'bob' })).toBeUndefined()
    expect(await mw.updateMaintenance(maintenance('alice'))).toBeUndefined()
    expect(await mw.deleteMaintenance('bob', a.id)).toBe(false)
    expect(await mw.deleteMaintenance('alice', a.id)).toBe(true)
    expect(await mw.deleteMaintenance('alice', a.id)).toBe(false)
    expect(await mw.listMaintenance('alice')).toEqual([])
  })

  it('keeps windows across a reopen', async () => {
    let store = await ctx.open()
    const a = await store.maintenance.createMaintenance(maintenance('alice', { weekly: WEEKLY }))
    store = await ctx.reopen(store)
    expect(await store.maintenance.listMaintenance('alice')).toEqual([a])
  })
}
