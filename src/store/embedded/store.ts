/**
 * The embedded backend: lowdb JSON documents under the data dir, written durably (temp file,
 * fsync, rename, fsync of the directory: durable-file.ts), behind a data-dir lock (lock.ts).
 * One concern per file:
 *
 *   <dataDir>/sitehealth.lock   lock.ts      pid of the process serving this dir
 *   <dataDir>/users.json        users.ts     users and granted credits
 *                               credits.ts   credit reservations (memory: one process per dir)
 *   <dataDir>/keys.json         keys.ts      API keys (hashes only)
 *   <dataDir>/checks/...        shards.ts    saved checks, sharded per user; checks.ts reads/writes
 *   <dataDir>/accounts.json     accounts.ts  dashboard accounts, sessions, invites, device grants
 *   <dataDir>/monitors/...      monitors.ts  monitors, runs, events (snapshot + group-commit journal);
 *                               channels.ts  their alert channels sealed on load if stored in clear
 *   <dataDir>/status-pages.json status-pages.ts  public status pages
 *   <dataDir>/status-incidents.json, status-subscribers.json, status-outbox.json  their
 *                               incidents, subscribers and the notices on their way to them
 *
 * A new concern gets its own file holding its own document(s), constructed here with the shared
 * LowdbContext, loaded in `open` and flushed in `close`.
 */
import { resolve } from 'node:path'
import type { Store } from '../types.js'
import type { ChannelSealer } from '../channels.js'
import { LowdbAccounts } from './accounts.js'
import { LowdbChecks } from './checks.js'
import { LowdbContext } from './context.js'
import { CreditLedger } from './credits.js'
import { ensureDir, probeDir, removeTempFiles } from './durable-file.js'
import { DEFAULT_TOUCH_FLUSH_MS, LowdbKeys } from './keys.js'
import { acquireDirLock, removeStaleLockTemps, type DirLock } from './lock.js'
import { LowdbMonitorStore } from './monitors.js'
import { LowdbStatusPages } from './status-pages.js'
import { LowdbStatusIncidents } from './status-incidents.js'
import { LowdbStatusSubscribers } from './status-subscribers.js'
import { LowdbMaintenance } from './maintenance.js'
import { LowdbMonitorGauges } from './gauges.js'
import { DEFAULT_CACHED_SHARDS, DEFAULT_SHARD_SIZE, Shards } from './shards.js'
import { LowdbUsers } from './users.js'

/** How long an unfinished reservation holds its credit: the longest check time limit (120 s) plus
 * 30 s, within the "at most 60 s after the check time limit" of docs/decisions.md#scale-out. */
export const DEFAULT_LEASE_MS = 150_000

export interface LowdbStoreOptions {
  /** Checks per shard file (default DEFAULT_SHARD_SIZE). */
  shardSize?: number
  /** Shards kept in memory, least recently used evicted (default 32). */
  cachedShards?: number
  /** How long key use (keys.touch) may stay in memory only (default 1000 ms). */
  touchFlushMs?: number
  /** Lease of a credit reservation, ms (default DEFAULT_LEASE_MS). */
  leaseMs?: number
  /** Runs and events kept per monitor (default 100). */
  monitorHistory?: number
  /** Where load-time warnings go (a torn journal tail cut off); default: a line on stderr. */
  warn?: (line: string) => void
  /** Clock in epoch ms (tests). */
  now?: () => number
  /** Seals alert channels an older version stored in clear (src/store/channels.ts). */
  sealChannels?: ChannelSealer
}

export class LowdbStore implements Store {
  readonly backend = 'lowdb' as const
  readonly users: LowdbUsers
  readonly keys: LowdbKeys
  readonly checks: LowdbChecks
  readonly accounts: LowdbAccounts
  readonly monitors: LowdbMonitorStore
  readonly statusPages: LowdbStatusPages
  readonly statusIncidents: LowdbStatusIncidents
  readonly statusSubscribers: LowdbStatusSubscribers
  readonly maintenance: LowdbMaintenance
  readonly monitorGauges: LowdbMonitorGauges
  readonly shards: Shards
  private readonly ctx: LowdbContext
  private lock: DirLock | undefined
  private closing: Promise<void> | undefined

  private constructor(dataDir: string, opts: LowdbStoreOptions) {
    const now = opts.now ?? Date.now
    this.ctx = new LowdbContext(dataDir, now)
    this.shards = new Shards(
      this.ctx,
      opts.shardSize ?? DEFAULT_SHARD_SIZE,
      opts.cachedShards ?? DEFAULT_CACHED_SHARDS,
    )
    this.users = new LowdbUsers(
      this.ctx,
      this.shards,
      new CreditLedger(opts.leaseMs ?? DEFAULT_LEASE_MS, now),
    )
    this.keys = new LowdbKeys(this.ctx, opts.touchFlushMs ?? DEFAULT_TOUCH_FLUSH_MS)
    this.checks = new LowdbChecks(this.ctx, this.shards, this.users)
    this.accounts = new LowdbAccounts(this.ctx)
    this.monitors = new LowdbMonitorStore(dataDir, {
      historyLimit: opts.monitorHistory,
      warn: opts.warn,
      sealChannels: opts.sealChannels,
    })
    this.statusPages = new LowdbStatusPages(this.ctx)
    this.statusIncidents = new LowdbStatusIncidents(this.ctx)
    this.statusSubscribers = new LowdbStatusSubscribers(this.ctx)
    this.maintenance = new LowdbMaintenance(this.ctx)
    this.monitorGauges = new LowdbMonitorGauges(this.monitors)
  }

  get dataDir(): string {
    return this.ctx.dataDir
  }

  /** Files and bytes written so far (tests and benchmarks measure write cost with it). */
  get stats() {
    return this.ctx.stats
  }

  get shardSize(): number {
    return this.shards.shardSize
  }

  /**
   * Opens the store in `dataDir` (created with mode 0700 if missing) and locks the directory.
   * Rejects with DataDirLockedError when another live process holds it.
   */
  static async open(dataDir: string, opts: LowdbStoreOptions = {}): Promise<LowdbStore> {
    const store = new LowdbStore(resolve(dataDir), opts)
    await ensureDir(store.dataDir)
    store.lock = await acquireDirLock(store.dataDir)
    try {
      await removeTempFiles(store.dataDir)
      await removeStaleLockTemps(store.dataDir)
      await store.users.load()
      await store.keys.load()
      await store.shards.load()
      await store.accounts.load()
      await store.monitors.load()
      await store.statusPages.load()
      await store.statusIncidents.load()
      await store.statusSubscribers.load()
      await store.maintenance.load()
    } catch (err) {
      await store.lock.release()
      throw err
    }
    return store
  }

  /** A small durable write (temp file, fsync) in the data dir, removed again: fails on a full disk. */
  async probe(): Promise<void> {
    await probeDir(this.ctx.dataDir)
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      this.ctx.closing = true
      try {
        await this.ctx.drain()
        await this.keys.flush()
        await this.users.idle()
        await this.monitors.close()
      } finally {
        await this.lock?.release()
      }
    })()
    return this.closing
  }
}

/** Opens (and locks) the embedded store in `dataDir`. */
export function openLowdbStore(dataDir: string, opts?: LowdbStoreOptions): Promise<LowdbStore> {
  return LowdbStore.open(dataDir, opts)
}
