/**
 * Migration 0015 on a populated database (src/store/postgres/migrations/0015-sealed-channels.ts):
 * monitors whose channels a version before it stored with their URLs in clear, and events whose
 * deliveries name those channels, upgrade with the server's sealer to channels with no credential
 * in clear, the same ids, every one still delivering, and no delivery record lost. Without a
 * sealer the migration refuses and changes nothing; a row an older instance writes back in the
 * old shape afterwards is read sealed and stored sealed at its next write.
 */
import { Migrator } from 'kysely'
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import { channelSealer } from '../../../src/monitors/channels/records.js'
import type { EventRecord } from '../../../src/store/run-log.js'
import type { MonitorRecord } from '../../../src/store/monitors.js'
import { connect } from '../../../src/store/postgres/connect.js'
import { MIGRATION_LOCK_TABLE, MIGRATION_TABLE } from '../../../src/store/postgres/migrate.js'
import { MIGRATIONS } from '../../../src/store/postgres/migrations/index.js'
import { openPostgresStore } from '../../../src/store/postgres/index.js'
import { importDataDir, resealer } from '../../../src/store/postgres/import.js'
import { openLowdbStore } from '../../../src/store/index.js'
import { secretBox } from '../../../src/shared/index.js'
import { startReceiver, type Receiver } from '../../monitors/fixtures.js'
import { event, monitor, run } from '../contract/fixtures.js'
import { removeDir, tempDir } from '../helpers.js'
import { box, KEY, expectNothingInClear, expectSealedAndDelivering, oldChannels } from '../legacy-channels.js'
import { describePg, freshDatabase, freshSchema, query, schemaRows } from './pg.js'

describePg('postgres migration 0015 (sealed channels)', () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>
  let receiver: Receiver
  beforeAll(async () => {
    db = await freshDatabase()
    receiver = await startReceiver()
  })
  afterAll(async () => {
    await receiver?.close()
    await db?.drop()
  })
  const closers: Array<() => Promise<void>> = []
  afterEach(async () => {
    for (const c of closers.splice(0).reverse()) await c()
  })

  /** A schema at 0014, holding `monitors` (records as given) and `events`. */
  async function at0014(monitors: unknown[], events: EventRecord[]): Promise<string> {
    const schema = await freshSchema(db.url)
    const c = connect({ url: db.url, schema, poolSize: 1 })
    const before = Object.fromEntries(Object.entries(MIGRATIONS).filter(([name]) => name < '0015'))
    const { error } = await new Migrator({
      db: c.db,
      provider: { getMigrations: () => Promise.resolve(before) },
      migrationTableName: MIGRATION_TABLE,
      migrationLockTableName: MIGRATION_LOCK_TABLE,
      migrationTableSchema: schema,
    }).migrateToLatest()
    await c.db.destroy()
    expect(error).toBeUndefined()
    for (const m of monitors as MonitorRecord[]) await insertMonitor(schema, m)
    for (const e of events)
      await query(
        db.url,
        `INSERT INTO "${schema}".monitor_events (id, monitor_id, pending, record) VALUES ($1, $2, $3, $4)`,
        [e.id, e.monitor_id, e.deliveries.some((d) => d.status === 'pending'), JSON.stringify(e)],
      )
    return schema
  }

  const insertMonitor = (schema: string, m: MonitorRecord) =>
    query(
      db.url,
      `INSERT INTO "${schema}".monitors (id, user_id, next_run_ms, paused, paused_reason, record)
       VALUES ($1, $2, NULL, false, NULL, $3)`,
      [m.id, m.user_id, JSON.stringify(m)],
    )

  it('seals every channel of a populated database; each still delivers, no delivery lost', async () => {
    const a = oldChannels(receiver, true)
    const b = oldChannels(receiver)
    const ma = monitor('alice', null, { channels: a.channels as never })
    const mb = monitor('bob', null, { channels: b.channels as never })
    const bare = monitor('carol', null, { channels: [] })
    const ea = event(ma)
    // one delivered, one failed, the rest pending: each kept as it was
    ea.deliveries[0] = {
      ...ea.deliveries[0],
      status: 'delivered',
      attempts: 1,
      last_attempt_at: ea.occurred_at,
    }
    ea.deliveries[1] = { ...ea.deliveries[1], status: 'failed', attempts: 5, last_error: 'HTTP 500' }
    const eb = event(mb)
    const schema = await at0014([ma, mb, bare], [ea, eb])
    expect(await schemaRows(db.url, schema)).toContain(new URL([...a.urls.values()][1]).pathname)

    // without the server's sealer: refused, nothing changed
    await expect(openPostgresStore({ url: db.url, schema, poolSize: 1 })).rejects.toThrow(
      /alert channels stored before their credentials were sealed/,
    )
    const applied = await query<{ name: string }>(db.url, `SELECT name FROM "${schema}".${MIGRATION_TABLE}`)
    expect(applied.map((r) => r.name)).not.toContain('0015-sealed-channels')

    const store = await openPostgresStore({
      url: db.url,
      schema,
      poolSize: 2,
      sealChannels: channelSealer(box),
    })
    closers.push(() => store.close())
    // 0015 and every later migration, in order (0018 came after, in parallel work)
    expect(store.migration?.applied[0]).toBe('0015-sealed-channels')
    expectNothingInClear(await schemaRows(db.url, schema), [a, b], [ma.id, mb.id])

    const [na, nb, nc] = await store.monitors.getMonitorsById([ma.id, mb.id, bare.id])
    // the rest of each record as it was
    expect({ ...na, channels: [] }).toEqual({ ...ma, channels: [] })
    expect(nc).toEqual(bare)
    await expectSealedAndDelivering(na, a, receiver)
    await expectSealedAndDelivering(nb, b, receiver)
    expect((await store.monitors.listEvents(ma.id, { limit: 10 })).items).toEqual([ea])
    expect((await store.monitors.listEvents(mb.id, { limit: 10 })).items).toEqual([eb])
    expect((await store.monitors.claimDeliveries(60_000)).map((e) => e.id).sort()).toEqual(
      [ea.id, eb.id].sort(),
    )
  })

  it("db import carries an old data dir's channels, sealed with its key, re-sealed with the target's", async () => {
    const dir = await tempDir()
    closers.push(() => removeDir(dir))
    const old = oldChannels(receiver, true)
    const source = await openLowdbStore(dir)
    const m = await source.monitors.createMonitor(monitor('alice', null, { channels: old.channels as never }))
    const e = event(m)
    await source.monitors.finishRun(m, run(m), [e])
    await source.close()
    // as the command opens it: the data dir's own key seals its channels first
    const sealed = await openLowdbStore(dir, { sealChannels: channelSealer(box) })
    closers.push(() => sealed.close())
    const schema = await freshSchema(db.url)
    const target = await openPostgresStore({ url: db.url, schema, poolSize: 2 })
    closers.push(() => target.close())
    const targetKey = 'the key of the PostgreSQL instances'
    const summary = await importDataDir(sealed, target, {
      reseal: resealer({ source: [KEY], target: targetKey }),
    })
    expect(summary.monitors).toMatchObject({ copied: 1, events: 1 })
    expectNothingInClear(await schemaRows(db.url, schema), [old], [m.id])
    const copied = (await target.monitors.getMonitor('alice', m.id))!
    await expectSealedAndDelivering(copied, old, receiver, secretBox(targetKey))
    expect((await target.monitors.listEvents(m.id, { limit: 10 })).items).toEqual([e])
  })

  it('reads a row an older instance wrote back in clear sealed, and stores it so at its next write', async () => {
    const schema = await at0014([], [])
    const store = await openPostgresStore({
      url: db.url,
      schema,
      poolSize: 2,
      sealChannels: channelSealer(box),
    })
    closers.push(() => store.close())
    const old = oldChannels(receiver)
    const m = monitor('alice', null, { channels: old.channels as never })
    await insertMonitor(schema, m)
    const read = (await store.monitors.getMonitor('alice', m.id))!
    await expectSealedAndDelivering(read, old, receiver)
    await store.monitors.updateMonitor({ ...read, name: 'renamed' })
    expectNothingInClear(await schemaRows(db.url, schema), [old], [m.id])
    expect((await store.monitors.getMonitor('alice', m.id))!.channels).toEqual(read.channels)
  })
})
