import { openLowdbStore, type LowdbStore } from '../../../src/store/index.js'
import type { Store } from '../../../src/store/types.js'
import { describeStoreContract, type ContractOptions } from '../contract/index.js'
import { dirBytes, removeDir, tempDir } from '../helpers.js'

describeStoreContract('lowdb', async () => {
  const dirs: string[] = []
  // small shards, so that pages and reads cross shard boundaries
  const open = (dir: string, o: ContractOptions = {}) =>
    openLowdbStore(dir, {
      shardSize: 7,
      cachedShards: 2,
      now: o.now,
      leaseMs: o.leaseMs,
      monitorHistory: o.monitorHistory,
    })
  return {
    async open(o) {
      const dir = await tempDir()
      dirs.push(dir)
      return open(dir, o)
    },
    async reopen(store: Store, o) {
      await store.close()
      return open((store as LowdbStore).dataDir, o)
    },
    async dispose() {
      for (const d of dirs) await removeDir(d)
    },
    raw: (store: Store) => dirBytes((store as LowdbStore).dataDir),
  }
})
