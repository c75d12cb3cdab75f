import { afterAll, beforeAll } from 'vitest'
import { openPostgresStore, type PostgresStore } from '../../../src/store/postgres/index.js'
import type { Store } from '../../../src/store/types.js'
import { describeStoreContract, type ContractOptions } from '../contract/index.js'
import { describePg, freshDatabase, freshSchema, schemaRows } from './pg.js'

describePg('postgres', () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>
  beforeAll(async () => {
    db = await freshDatabase()
  })
  afterAll(async () => {
    await db?.drop()
  })
  const schemaOf = new WeakMap<Store, string>()
  const open = async (schema: string, o: ContractOptions = {}) => {
    const s = await openPostgresStore({
      url: db.url,
      schema,
      poolSize: 4,
      now: o.now,
      leaseMs: o.leaseMs,
      monitorHistory: o.monitorHistory,
    })
    schemaOf.set(s, schema)
    return s
  }
  describeStoreContract('postgres', async () => ({
    async open(o) {
      return open(await freshSchema(db.url), o)
    },
    async reopen(store: Store, o) {
      await store.close()
      return open(schemaOf.get(store as PostgresStore)!, o)
    },
    async dispose() {
      // the database is dropped after the file
    },
    raw: (store: Store) => schemaRows(db.url, schemaOf.get(store as PostgresStore)!),
  }))
})
