/**
 * One suite on both stores, for tests of what sits on the store (the monitor service and its
 * parts): `<name> (embedded store)` on lowdb in a fresh folder per test, then
 * `<name> (PostgreSQL)` under describePg (skipped where none answers; failing instead with CI
 * set) on a fresh schema per test, in one fresh database dropped after the suite.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe } from 'vitest'
import { openLowdbStore, type LowdbStore } from '../../src/store/index.js'
import { openPostgresStore } from '../../src/store/postgres/index.js'
import type { Store } from '../../src/store/types.js'
import { removeDir, tempDir } from './helpers.js'
import { describePg, freshDatabase, freshSchema } from './postgres/pg.js'

/**
 * In the suite it is called in: a fresh embedded store in a fresh folder before each test, handed
 * to `opened` (after the beforeEach hooks of the suites around it); closed and removed after it.
 */
export function withEmbeddedStore(opened: (store: LowdbStore) => void): void {
  let dir: string | undefined
  let store: LowdbStore | undefined
  beforeEach(async () => {
    dir = await tempDir()
    store = await openLowdbStore(dir)
    opened(store)
  })
  afterEach(async () => {
    await store?.close()
    if (dir) await removeDir(dir)
    store = dir = undefined
  })
}

/**
 * Runs `suite` on each store. Before each of its tests a fresh store is opened and handed to
 * `opened` (after the file's own beforeEach hooks); after it, the store is closed (and its folder
 * removed; the schemas go with the database).
 */
export function describeOnEachStore(name: string, opened: (store: Store) => void, suite: () => void): void {
  describe(`${name} (embedded store)`, () => {
    withEmbeddedStore(opened)
    suite()
  })

  describePg(`${name} (PostgreSQL)`, () => {
    let db: Awaited<ReturnType<typeof freshDatabase>> | undefined
    let store: Store | undefined
    beforeAll(async () => {
      db = await freshDatabase()
    })
    afterAll(async () => {
      await db?.drop()
    })
    beforeEach(async () => {
      store = await openPostgresStore({ url: db!.url, schema: await freshSchema(db!.url), poolSize: 2 })
      opened(store)
    })
    afterEach(async () => {
      await store?.close()
      store = undefined
    })
    suite()
  })
}
