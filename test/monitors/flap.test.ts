/**
 * Flap control through the monitor service (docs/decisions.md#monitoring-depth): recover_after
 * holds a down monitor down until enough good runs, remind_every_minutes repeats the alert as
 * monitor.still_down on the service's clock, and both reach the channels.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import { CheckError } from '../../src/checks/errors.js'
import type { CheckReport } from '../../src/checks/types.js'
import type { LowdbStore } from '../../src/store/index.js'
import { fakeReport } from '../helpers/report.js'
import { withEmbeddedStore } from '../store/each-store.js'
import { monitorService, RecordingDeliverer } from './fixtures.js'

let store: LowdbStore
withEmbeddedStore((s) => (store = s))
let site: 'up' | 'down' = 'up'
let clock = Date.parse('2026-11-20T10:00:00Z')
beforeEach(async () => {
  site = 'up'
})

const recorder = new RecordingDeliverer()
const sent = recorder.deliveries

function service() {
  return monitorService(store, recorder, {
    now: () => clock,
    check: async (url: string): Promise<CheckReport> => {
      if (site === 'down') throw new CheckError('check_failed', 'Connection refused.')
      return fakeReport(url)
    },
  })
}

describe('flap control', () => {
  it('reminds while down every remind_every_minutes, and is up only after recover_after good runs', async () => {
    sent.length = 0
    const svc = service()
    await store.users.ensure('ada', 20)
    const { monitor } = await svc.create('ada', {
      url: 'https://example.com/',
      alerts: { down_after: 1, recover_after: 2, remind_every_minutes: 10 },
      channels: [{ type: 'webhook', url: 'https://hooks.example.com/x' }],
    })
    const at = async (minute: number) => {
      clock = Date.parse('2026-11-20T10:00:00Z') + minute * 60_000
      return svc.run(monitor, 'manual')
    }
    site = 'down'
    await at(0) // down
    await at(5)
    await at(10) // reminded
    await at(15)
    await at(20) // reminded
    site = 'up'
    const first = await at(21)
    expect(first.kind === 'saved' && first.monitor?.state).toBe('down') // one good run is not enough
    const second = await at(22)
    expect(second.kind === 'saved' && second.monitor?.state).toBe('up')
    await svc.drain()
    expect(sent.map((d) => d.payload.event)).toEqual([
      'monitor.down',
      'monitor.still_down',
      'monitor.still_down',
      'monitor.up',
    ])
    expect(sent[1].payload).toMatchObject({ previous_state: 'down', state: 'down' })
    expect(sent[1].payload.message).toMatch(/is still down \(3 failed runs in a row\): Connection refused/)
    expect(sent[3].payload.message).toMatch(/after 2 good runs in a row/)
  })
})
