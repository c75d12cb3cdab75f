export {
  DatabaseError,
  DEFAULT_POOL_SIZE,
  DEFAULT_STATEMENT_TIMEOUT_MS,
  isPostgresUrl,
  redactUrl,
} from './connect.js'
export { DEFAULT_KEY_CACHE_MS, DEFAULT_KEY_CACHE_SIZE } from './keys.js'
export { SchemaTooNewError, migrateToLatest } from './migrate.js'
export { DEFAULT_PG_LEASE_MS, PostgresStore, openPostgresStore, type PostgresStoreOptions } from './store.js'
