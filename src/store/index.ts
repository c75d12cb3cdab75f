/**
 * The storage entry point: `openStore` (open.ts) opens the backend a deployment asked for behind
 * the Store interface of types.ts (the embedded lowdb store in a data dir, unless a database URL is
 * given). The PostgreSQL backend is imported from './postgres/index.js' where needed.
 */

export type {
  CheckRecord,
  CheckStore,
  ImportedCheck,
  KeyRecord,
  KeyStore,
  ListChecksOptions,
  NewCheck,
  Reservation,
  Store,
  UserRecord,
  UserStore,
} from './types.js'
export { DatabaseError, DuplicateEmailError, InsufficientCreditsError, StoreClosedError } from './errors.js'
export {
  DataDirLockedError,
  DEFAULT_LEASE_MS,
  DEFAULT_SHARD_SIZE,
  LowdbStore,
  openLowdbStore,
  type LowdbStoreOptions,
} from './embedded/index.js'

export { openStore, type OpenStoreOptions } from './open.js'
export {
  StorageFullError,
  unavailableDependency,
  unavailableMessage,
  type Dependency,
} from './unavailable.js'
