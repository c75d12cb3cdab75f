/**
 * The storage interface. Everything above the store (routes, auth, credits) talks to this, so
 * another backend can be added without touching routes. Durability contract: when a returned
 * promise of a write method resolves, the write is on disk (a `kill -9` after it loses nothing).
 */
import type { SavedCheck } from '../contract/schemas.js'

export interface UserRecord {
  id: string
  /** Total credits ever granted (initial credits included). */
  credits_granted: number
  /** Credits consumed by saved checks. */
  credits_used: number
  created_at: string
}

export interface KeyRecord {
  id: string
  name: string
  user_id: string
  /** Displayable start of the key, e.g. `shk_live_AbC123`. */
  prefix: string
  /** SHA-256 hex of the full key. The secret itself never touches disk. */
  hash: string
  created_at: string
  last_used_at: string | null
  revoked_at: string | null
}

/** A saved check as stored: the wire shape plus its owner. */
export interface CheckRecord extends SavedCheck {
  user_id: string
}

export interface ListChecksOptions {
  limit: number
  /** Only checks created strictly before this ISO timestamp. */
  before?: string
}

export interface Store {
  // ---- users and credits ----
  getUser(userId: string): UserRecord | undefined
  /** Creates the user with `initialCredits` granted if it does not exist yet. */
  ensureUser(userId: string, initialCredits: number): Promise<UserRecord>
  grantCredits(userId: string, amount: number): Promise<UserRecord>
  /** credits_granted - credits_used - reserved. */
  availableCredits(userId: string): number
  /**
   * Reserve one credit for a check about to run. Synchronous so that concurrent requests cannot
   * overspend: returns false (and reserves nothing) when nothing is available.
   */
  reserveCredit(userId: string): boolean
  /** Give back a reservation whose check failed. */
  releaseCredit(userId: string): void
  /**
   * Save a check and consume its reserved credit in one durable step. Assigns the id (a UUID) and
   * `created_at`, unique per user (bumped by 1 ms on a collision), and returns the saved record and
   * the balance left.
   */
  commitCheck(
    record: Omit<CheckRecord, 'id' | 'created_at'>,
  ): Promise<{ check: CheckRecord; remaining: number }>
  /**
   * Bulk-load saved checks (benchmarks, tests, imports). Imported checks count as used and the same
   * number is granted in the same write, so the balance is unchanged and used = saved checks.
   */
  importChecks(
    userId: string,
    records: Omit<CheckRecord, 'id' | 'created_at' | 'user_id'>[],
    createdAt?: Date[],
  ): Promise<void>

  // ---- checks ----
  getCheck(userId: string, id: string): Promise<CheckRecord | undefined>
  /** Newest first. `next` is the created_at of the last item when older ones exist, else null. */
  listChecks(userId: string, opts: ListChecksOptions): Promise<{ items: CheckRecord[]; next: string | null }>

  // ---- keys ----
  createKey(key: KeyRecord): Promise<KeyRecord>
  listKeys(): KeyRecord[]
  findKeyByHash(hash: string): KeyRecord | undefined
  revokeKey(id: string, at: string): Promise<KeyRecord | undefined>
  /** Record use; may be written lazily (not acknowledged data). */
  touchKey(id: string, at: string): void

  /** Flush pending writes and release the data-dir lock. */
  close(): Promise<void>
}
