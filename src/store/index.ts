/**
 * The storage entry point: `openStore` opens the embedded lowdb backend (the only one so far)
 * behind the Store interface of types.ts.
 */
import { LowdbStore } from './lowdb-store.js'
import type { Store } from './types.js'

export type { CheckRecord, KeyRecord, ListChecksOptions, Store, UserRecord } from './types.js'
export { DataDirLockedError } from './lock.js'
export {
  DEFAULT_SHARD_SIZE,
  InsufficientCreditsError,
  LowdbStore,
  StoreClosedError,
  openLowdbStore,
  type LowdbStoreOptions,
} from './lowdb-store.js'

/**
 * Opens the store in `dataDir` (created with mode 0700 if missing) and locks the directory.
 * Rejects with DataDirLockedError when another live process holds it.
 */
export async function openStore(dataDir: string): Promise<Store> {
  return LowdbStore.open(dataDir)
}
