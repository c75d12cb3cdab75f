/**
 * The storage contract. Everything above the store (routes, auth, admin, commands) talks to these
 * interfaces only, so a backend (embedded, PostgreSQL) can be swapped without touching them.
 *
 * A Store is composed of one interface per concern: `users` (users and their credits), `keys`,
 * `checks`, `accounts`, `monitors` (itself five: MonitorStore below), `statusPages`, `maintenance`,
 * `monitorGauges`. A new concern is a new interface in a file of its own here, a new property of
 * Store, and one file per backend (src/store/<backend>/<concern>.ts) wired into that backend's
 * store.ts.
 *
 * Every method is asynchronous: a database answers over the network. Durability: when a write's
 * promise resolves, the write is durable (a `kill -9` or a crash after it loses nothing), except
 * `keys.touch`, which records key use lazily.
 *
 * Several processes may share one PostgreSQL store; everything here then holds across them.
 */
import type { SavedCheck } from '../contract/schemas.js'
import type { MonitorDefinitionStore } from './monitors.js'
import type { ScheduleStore } from './schedule.js'
import type { RunLogStore } from './run-log.js'
import type { DeliveryQueueStore } from './delivery-queue.js'
import type { HistoryStore } from './history.js'
import type { StatusPageStore } from './status-pages.js'
import type { StatusIncidentStore } from './status-incidents.js'
import type { SubscriberStore } from './status-subscribers.js'
import type { MaintenanceStore } from './maintenance.js'
import type { MonitorGaugeStore } from './gauges.js'

export type * from './accounts.js'
import type { AccountStore } from './accounts.js'
import type { Awaitable } from './awaitable.js'

export interface UserRecord {
  id: string
  /** Total credits ever granted (initial credits and imports included). */
  credits_granted: number
  /** Credits consumed: by saved checks, and by runs charged with no check (`chargeCredit`). */
  credits_used: number
  created_at: string
}

export interface KeyRecord {
  id: string
  name: string
  user_id: string
  /** Displayable start of the key, e.g. `shk_live_AbC123`. */
  prefix: string
  /** SHA-256 hex of the full key. The secret itself is never stored. */
  hash: string
  created_at: string
  last_used_at: string | null
  revoked_at: string | null
}

/** A saved check as stored: the wire shape plus its owner. */
export interface CheckRecord extends SavedCheck {
  user_id: string
}

/** What a caller hands to `checks.commit`: the store assigns the id and created_at. */
export type NewCheck = Omit<CheckRecord, 'id' | 'created_at'>
/** What `checks.import` takes: the owner is the user imported into. */
export type ImportedCheck = Omit<CheckRecord, 'id' | 'created_at' | 'user_id'>

export interface ListChecksOptions {
  limit: number
  /** Only checks created strictly before this ISO timestamp. */
  before?: string
}

/**
 * One credit held for a run about to be made. It ends by `checks.commit` (charged, with the saved
 * check), by `users.chargeCredit` (charged, with no check: a run that reached its target but keeps
 * no health check), by `users.releaseCredit` (returned), or by its lease running out (returned: the
 * process holding it died or never came back).
 */
export interface Reservation {
  readonly id: string
  readonly user_id: string
  /** Epoch ms after which the reservation no longer holds a credit. */
  readonly expires_at: number
}

/** Users and their credits. */
export interface UserStore {
  get(userId: string): Promise<UserRecord | undefined>
  /** Creates the user with `initialCredits` granted if it does not exist yet; else returns it unchanged. */
  ensure(userId: string, initialCredits: number): Promise<UserRecord>
  /** Adds credits (a non-negative integer); creates the user when missing. */
  grantCredits(userId: string, amount: number): Promise<UserRecord>
  /** credits_granted - credits_used - live reservations; never below zero. A plain number when the
   * backend holds balances in memory (see awaitable.ts). */
  availableCredits(userId: string): Awaitable<number>
  /**
   * Holds one credit for a check about to run, atomically: concurrent callers (in this process or
   * any other sharing the store) never hold more than is available. Undefined when nothing is.
   */
  reserveCredit(userId: string): Promise<Reservation | undefined>
  /** Returns a reservation's credit (a failed check). Releasing twice, or after commit, does nothing. */
  releaseCredit(reservation: Reservation): Promise<void>
  /**
   * Charges a reservation with no check saved (a run that reached its target but keeps no health
   * check), in one durable step, and returns the balance left. The same rules as `checks.commit`:
   * a reservation no longer live (its lease ran out, or it was charged already) charges a free
   * credit if one is available, else InsufficientCreditsError; on any failure the reservation is
   * left for the caller to release.
   */
  chargeCredit(reservation: Reservation): Promise<{ remaining: number }>
}

export interface CheckStore {
  /**
   * Saves a check and charges its reservation in one durable step (never one without the other).
   * Assigns the id (a UUIDv7) and `created_at`, unique per user (bumped by 1 ms on a collision), and
   * returns the saved record and the balance left. When the reservation is no longer live (its
   * lease ran out), a credit is charged if one is available, else InsufficientCreditsError; on any
   * failure the reservation is left for the caller to release.
   */
  commit(reservation: Reservation, record: NewCheck): Promise<{ check: CheckRecord; remaining: number }>
  /**
   * Bulk-load saved checks (benchmarks, tests). Imported checks count as used and the same number
   * is granted with them, so the balance is unchanged and credits_used = saved checks. Dates
   * default to "now, each earlier one a millisecond before"; all land after the user's newest check.
   */
  import(userId: string, records: ImportedCheck[], createdAt?: Date[]): Promise<void>
  /** The user's check with this id (case-insensitive), or undefined, also for another user's. */
  get(userId: string, id: string): Promise<CheckRecord | undefined>
  /** Newest first. `next` is the created_at of the last item when older ones exist, else null. */
  list(userId: string, opts: ListChecksOptions): Promise<{ items: CheckRecord[]; next: string | null }>
}

export interface KeyStore {
  /** Rejects when the id or the hash exists already. */
  create(key: KeyRecord): Promise<KeyRecord>
  /** All keys, newest first. */
  list(): Promise<KeyRecord[]>
  /**
   * Revocation is visible to every process sharing the store within 5 s. A plain value when the key
   * is in memory (the embedded store, a cached key; see awaitable.ts).
   */
  findByHash(hash: string): Awaitable<KeyRecord | undefined>
  /** Sets revoked_at once; undefined for an unknown id. */
  revoke(id: string, at: string): Promise<KeyRecord | undefined>
  /** Records use; written lazily (not acknowledged data), never blocks the request. */
  touch(id: string, at: string): void
}

/**
 * Everything of monitors a backend keeps, by concern: definitions (monitors.ts), the schedule
 * (schedule.ts), the run log (run-log.ts), the delivery queue (delivery-queue.ts) and history
 * (history.ts). A backend implements them together (a run's end writes to four of them in one
 * step); a caller depends on the ones it uses.
 */
export interface MonitorStore
  extends MonitorDefinitionStore, ScheduleStore, RunLogStore, DeliveryQueueStore, HistoryStore {
  close(): Promise<void>
}

export interface Store {
  /** Which backend this is, for logs and messages. */
  readonly backend: 'lowdb' | 'postgres'
  readonly users: UserStore
  readonly keys: KeyStore
  readonly checks: CheckStore
  /** Dashboard accounts, sessions, invites, device grants (docs/decisions.md#accounts-and-the-dashboard). */
  readonly accounts: AccountStore
  /** Monitors, their schedule, runs and events, deliveries and history (docs/decisions.md#monitors-and-alerts). */
  readonly monitors: MonitorStore
  /** Public status pages (docs/decisions.md#the-public-face; status-pages.ts). */
  readonly statusPages: StatusPageStore
  /** Incidents posted on status pages (docs/status-pages.md; status-incidents.ts). */
  readonly statusIncidents: StatusIncidentStore
  /** Subscribers of status pages (docs/status-pages.md; status-subscribers.ts). */
  readonly statusSubscribers: SubscriberStore
  /** Maintenance windows (docs/decisions.md#monitoring-depth; maintenance.ts). */
  readonly maintenance: MaintenanceStore
  /** Per-monitor figures for /metrics (gauges.ts). */
  readonly monitorGauges: MonitorGaugeStore
  /**
   * Whether the backend answers now, for readiness (docs/operations.md): PostgreSQL runs
   * `SELECT 1` through the pool; the embedded store writes a small temp file durably in its data
   * dir and removes it (a full or read-only disk fails it). Rejects with the driver's error.
   */
  probe(): Promise<void>
  /** Flushes pending writes and releases the backend (lock, pool). */
  close(): Promise<void>
}
