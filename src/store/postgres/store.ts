/**
 * The PostgreSQL backend: any number of `serve` processes share one database and act as one
 * service. One concern per file:
 *
 *   connect.ts     pool, TLS (the URL's sslmode), statement timeout, one-line connection errors
 *   migrate.ts     versioned migrations (migrations/) under an advisory lock; newer schemas refused
 *   users.ts       users and balances            credits.ts  reservations with leases, the sweep
 *   keys.ts        API keys, the bounded lookup cache, batched key use
 *   checks.ts      saved checks: commit (check + charge in one statement), import, get, paging
 *   monitors.ts    monitors, runs, events; due runs claimed as leased rows (FOR UPDATE SKIP LOCKED)
 *   status-pages.ts public status pages (slug unique in the table)
 *   status-incidents.ts, status-subscribers.ts  their incidents and subscribers
 *   accounts.ts    dashboard accounts, sessions, invites, device grants; the shared sign-in throttle
 *   import.ts      copying an embedded data dir in (`sitehealth db import`)
 *
 * A new concern is a file here and one in embedded/, wired into both store.ts files.
 */
import { sql, type Kysely } from 'kysely'
import type pg from 'pg'
import type { Store } from '../types.js'
import { PgAccounts } from './accounts.js'
import { PgChecks } from './checks.js'
import { connect, describeConnectError, type ConnectOptions } from './connect.js'
import { PgCredits } from './credits.js'
import { PgKeys, type PgKeysOptions } from './keys.js'
import { migrateToLatest, type MigrationResult } from './migrate.js'
import type { ChannelSealer } from '../channels.js'
import { PgMonitors } from './monitors.js'
import { PgStatusPages } from './status-pages.js'
import { PgStatusIncidents } from './status-incidents.js'
import { PgStatusSubscribers } from './status-subscribers.js'
import { PgMaintenance } from './maintenance.js'
import { PgMonitorGauges } from './gauges.js'
import type { Database } from './schema.js'
import { PgUsers } from './users.js'

/** See embedded/store.ts: the longest check time limit (120 s) plus 30 s. */
export const DEFAULT_PG_LEASE_MS = 150_000
/** How often each instance returns expired reservations (one sweeper at a time across instances). */
export const SWEEP_EVERY_MS = 5000

export interface PostgresStoreOptions extends ConnectOptions, PgKeysOptions {
  /** Lease of a credit reservation, ms. */
  leaseMs?: number
  /** Apply pending migrations at open (default true). */
  migrate?: boolean
  /** Runs and events kept per monitor (default 100). */
  monitorHistory?: number
  /** Clock in epoch ms for created_at (tests). */
  now?: () => number
  /** Seals alert channels an older version stored in clear (migration 0015, channels.ts). */
  sealChannels?: ChannelSealer
}

export class PostgresStore implements Store {
  readonly backend = 'postgres' as const
  readonly users: PgUsers
  readonly keys: PgKeys
  readonly checks: PgChecks
  readonly monitors: PgMonitors
  readonly statusPages: PgStatusPages
  readonly statusIncidents: PgStatusIncidents
  readonly statusSubscribers: PgStatusSubscribers
  readonly maintenance: PgMaintenance
  readonly monitorGauges: PgMonitorGauges
  readonly accounts: PgAccounts
  readonly credits: PgCredits
  migration: MigrationResult | undefined
  private sweeper: NodeJS.Timeout | undefined
  private closing: Promise<void> | undefined

  private constructor(
    readonly db: Kysely<Database>,
    /** The driver's pool under `db` (the rate limiters share it). */
    readonly pool: pg.Pool,
    o: PostgresStoreOptions,
  ) {
    const now = o.now ?? Date.now
    this.credits = new PgCredits(db, o.leaseMs ?? DEFAULT_PG_LEASE_MS)
    this.users = new PgUsers(db, this.credits, now)
    this.keys = new PgKeys(db, o)
    this.checks = new PgChecks(db, now)
    this.monitors = new PgMonitors(db, { historyLimit: o.monitorHistory, pool, sealChannels: o.sealChannels })
    this.accounts = new PgAccounts(db, pool, { now: o.now })
    this.statusPages = new PgStatusPages(db)
    this.statusIncidents = new PgStatusIncidents(db)
    this.statusSubscribers = new PgStatusSubscribers(db)
    this.maintenance = new PgMaintenance(db)
    this.monitorGauges = new PgMonitorGauges(db)
  }

  /** Connects, applies pending migrations, and starts the reservation sweep. */
  static async open(o: PostgresStoreOptions): Promise<PostgresStore> {
    const { db, pool } = connect(o)
    const store = new PostgresStore(db, pool, o)
    try {
      try {
        await sql`SELECT 1`.execute(db)
      } catch (err) {
        throw describeConnectError(o.url, err)
      }
      if (o.migrate !== false) store.migration = await migrateOnce(o, db)
    } catch (err) {
      await db.destroy().catch(() => {})
      throw err
    }
    const every = Math.min(SWEEP_EVERY_MS, Math.max(50, Math.floor(store.credits.leaseMs / 2)))
    store.sweeper = setInterval(() => void store.credits.sweep().catch(() => {}), every).unref()
    return store
  }

  async probe(): Promise<void> {
    await sql`SELECT 1`.execute(this.db)
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      if (this.sweeper) clearInterval(this.sweeper)
      try {
        await this.keys.close().catch(() => {})
      } finally {
        await this.db.destroy()
      }
    })()
    return this.closing
  }
}

/**
 * Migrations wait for the migration lock while another instance migrates, which may take longer
 * than the client-side query timeout of requests: with one set, they run on a connection of
 * their own without it (the statement timeout still bounds every statement).
 */
async function migrateOnce(o: PostgresStoreOptions, db: Kysely<Database>): Promise<MigrationResult> {
  const ctx = { sealChannels: o.sealChannels }
  if (!o.queryTimeoutMs) return migrateToLatest(db, ctx)
  const own = connect({ ...o, queryTimeoutMs: undefined, poolSize: 1 })
  try {
    return await migrateToLatest(own.db, ctx)
  } finally {
    await own.db.destroy()
  }
}

export function openPostgresStore(o: PostgresStoreOptions): Promise<PostgresStore> {
  return PostgresStore.open(o)
}
