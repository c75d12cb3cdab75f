export { DataDirLockedError } from './lock.js'
export { DEFAULT_CACHED_SHARDS, DEFAULT_SHARD_SIZE, userDirName } from './shards.js'
export { DEFAULT_LEASE_MS, LowdbStore, openLowdbStore, type LowdbStoreOptions } from './store.js'
