/** Choosing and opening a backend. */
import { openLowdbStore, type LowdbStoreOptions } from './embedded/index.js'
import type { Store } from './types.js'
import type { ChannelSealer } from './channels.js'

export interface OpenStoreOptions {
  /** The embedded store's directory (unused with a database URL). */
  dataDir: string
  /** A postgres:// URL selects the PostgreSQL backend. */
  databaseUrl?: string
  /** PostgreSQL: connections per process. */
  poolSize?: number
  /** PostgreSQL: statement timeout, ms. */
  statementTimeoutMs?: number
  /** PostgreSQL: client-side wait for an answer, ms (docs/decisions.md#faults). */
  queryTimeoutMs?: number
  /** PostgreSQL: wait for a connection from the pool, ms. */
  acquireTimeoutMs?: number
  /** Lease of a credit reservation, ms: how long a check that never ends holds its credit. */
  leaseMs?: number
  /** Runs and events kept per monitor. */
  monitorHistory?: number
  /**
   * Seals alert channels an older version stored in clear (src/store/channels.ts): the server
   * makes it from its secret key, which the store never holds.
   */
  sealChannels?: ChannelSealer
}

/**
 * Opens the store: PostgreSQL for a database URL (connects and migrates), else the embedded store
 * (creates and locks the data dir). The PostgreSQL code is loaded only when asked for, so the
 * embedded default does not pay for it at start-up.
 */
export async function openStore(o: OpenStoreOptions | string): Promise<Store> {
  const opts = typeof o === 'string' ? { dataDir: o } : o
  if (opts.databaseUrl) {
    const { openPostgresStore } = await import('./postgres/index.js')
    return openPostgresStore({
      url: opts.databaseUrl,
      poolSize: opts.poolSize,
      statementTimeoutMs: opts.statementTimeoutMs,
      queryTimeoutMs: opts.queryTimeoutMs,
      acquireTimeoutMs: opts.acquireTimeoutMs,
      leaseMs: opts.leaseMs,
      monitorHistory: opts.monitorHistory,
      sealChannels: opts.sealChannels,
    })
  }
  const lowdb: LowdbStoreOptions = {
    leaseMs: opts.leaseMs,
    monitorHistory: opts.monitorHistory,
    sealChannels: opts.sealChannels,
  }
  return openLowdbStore(opts.dataDir, lowdb)
}
