/**
 * The /metrics gauge rows of the storage contract: every monitor of every user, with the figures
 * of its latest saved check, paused ones read as paused, deleted ones gone.
 */
import { expect, it } from 'vitest'
import type { ContractContext } from './index.js'
import { monitor } from './fixtures.js'

export function gaugesContract(ctx: ContractContext): void {
  it('lists every monitor with its latest figures', async () => {
    const store = await ctx.open()
    const last = {
      id: '0193a5c4-8f2e-7b1a-9c3d-2e4f5a6b7c8d',
      health_score: 91,
      risk_level: 'low',
      status: 'ok',
      created_at: '2026-11-25T10:00:00.000Z',
      response_time_ms: 123,
      certificate_expires_at: '2027-01-01T00:00:00.000Z',
    }
    const a = await store.monitors.createMonitor(
      monitor('u1', null, { name: 'A "quoted"', state: 'up', last_check: last }),
    )
    const b = await store.monitors.createMonitor(
      monitor('u2', null, { name: 'B', state: 'down', paused: true }),
    )
    const c = await store.monitors.createMonitor(monitor('u2', null, { name: 'C' }))
    await store.monitors.deleteMonitor('u2', c.id)
    const rows = await store.monitorGauges.monitorGauges()
    expect(rows.sort((x, y) => (x.name < y.name ? -1 : 1))).toEqual([
      {
        id: a.id,
        name: 'A "quoted"',
        state: 'up',
        health_score: 91,
        response_time_ms: 123,
        certificate_expires_at: '2027-01-01T00:00:00.000Z',
      },
      {
        id: b.id,
        name: 'B',
        state: 'paused',
        health_score: null,
        response_time_ms: null,
        certificate_expires_at: null,
      },
    ])
  })
}
