/**
 * A data dir written before channels were sealed (src/store/embedded/channels.ts): its snapshot
 * and its journal hold each channel's URL in clear. Opened with the server's sealer, every channel
 * is sealed, the files that held them are folded away (no URL or signing secret left in any file
 * of the dir), the channels keep their ids and deliver, and no delivery record is lost. Without
 * a sealer the store refuses to open; opened again, a sealed dir is left as it is.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { channelSealer } from '../../../src/monitors/channels/records.js'
import { openLowdbStore } from '../../../src/store/index.js'
import type { MonitorRecord } from '../../../src/store/monitors.js'
import { startReceiver, type Receiver } from '../../monitors/fixtures.js'
import { event, monitor, run } from '../contract/fixtures.js'
import { dirBytes, removeDir, tempDir } from '../helpers.js'
import { box, expectNothingInClear, expectSealedAndDelivering, oldChannels } from '../legacy-channels.js'

let receiver: Receiver
let dir: string
beforeAll(async () => {
  receiver = await startReceiver()
  dir = await tempDir()
})
afterAll(async () => {
  await receiver?.close()
  await removeDir(dir)
})

it('seals the channels of an old data dir on open; each still delivers, no delivery lost', async () => {
  // the old version's files: one monitor folded into the snapshot, one in the journal after it
  const a = oldChannels(receiver, true)
  const b = oldChannels(receiver)
  let store = await openLowdbStore(dir)
  const ma = await store.monitors.createMonitor(monitor('alice', null, { channels: a.channels as never }))
  const ea = event(ma)
  await store.monitors.finishRun(ma, run(ma), [ea])
  const delivered = { ...ea.deliveries[0], status: 'delivered' as const, attempts: 1 }
  await store.monitors.updateDelivery(ma.id, ea.id, delivered)
  await store.monitors.compact()
  const mb = await store.monitors.createMonitor(monitor('bob', null, { channels: b.channels as never }))
  const eb = event(mb)
  await store.monitors.finishRun(mb, run(mb), [eb])
  await store.close()
  const journal = await readFile(join(dir, 'monitors', 'journal.jsonl'), 'utf8')
  const snapshot = await readFile(join(dir, 'monitors', 'snapshot.json'), 'utf8')
  expect(snapshot).toContain(new URL([...a.urls.values()][0]).pathname)
  expect(journal).toContain(new URL([...b.urls.values()][0]).pathname)

  // without the server's sealer: refused (and the dir left unlocked)
  await expect(openLowdbStore(dir)).rejects.toThrow(
    /alert channels stored before their credentials were sealed/,
  )

  store = await openLowdbStore(dir, { sealChannels: channelSealer(box) })
  try {
    expectNothingInClear(await dirBytes(dir), [a, b], [ma.id, mb.id])
    const [na, nb] = await store.monitors.getMonitorsById([ma.id, mb.id])
    expect({ ...na, channels: [] }).toEqual({ ...(ma as MonitorRecord), channels: [] })
    await expectSealedAndDelivering(na, a, receiver)
    await expectSealedAndDelivering(nb, b, receiver)
    const deliveriesA = (await store.monitors.listEvents(ma.id, { limit: 10 })).items
    expect(deliveriesA).toEqual([{ ...ea, deliveries: [delivered, ...ea.deliveries.slice(1)] }])
    expect((await store.monitors.listEvents(mb.id, { limit: 10 })).items).toEqual([eb])
    expect((await store.monitors.claimDeliveries(60_000)).map((e) => e.id).sort()).toEqual(
      [ea.id, eb.id].sort(),
    )
  } finally {
    await store.close()
  }

  // opened again: nothing to seal, nothing rewritten
  const files = await dirBytes(join(dir, 'monitors'))
  store = await openLowdbStore(dir, { sealChannels: channelSealer(box) })
  await store.close()
  expect(await dirBytes(join(dir, 'monitors'))).toBe(files)
})
