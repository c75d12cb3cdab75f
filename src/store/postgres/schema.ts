/** The tables as Kysely sees them (the migrations in migrations/ create them). */
import type { ColumnType, Generated } from 'kysely'

type Timestamp = ColumnType<Date, Date | string, Date | string>

export interface UsersTable {
  id: string
  /** All credits ever granted, imports included. */
  credits_granted: ColumnType<string, number | string, number | string>
  /** Credits charged by saved checks. */
  credits_used: ColumnType<string, number | string, number | string>
  /** Credits held by rows of `reservations` (expired ones until swept). */
  credits_held: Generated<number>
  /** created_at (epoch ms) of the user's newest check, -1 when none: the next is at least +1. */
  last_check_ms: Generated<string>
  created_at: Timestamp
}

export interface ReservationsTable {
  id: string
  user_id: string
  expires_at: Timestamp
}

export interface ApiKeysTable {
  id: string
  name: string
  user_id: string
  prefix: string
  hash: string
  created_at: Timestamp
  last_used_at: Timestamp | null
  revoked_at: Timestamp | null
}

export interface ChecksTable {
  id: string
  user_id: string
  /** created_at in epoch ms (bigint): unique per user, the paging key. */
  created_ms: ColumnType<string, number | string, number | string>
  /** The rest of the saved check (url, status, score, risk, summary, signals), key order kept (json, not jsonb). */
  record: ColumnType<Record<string, unknown>, string, string>
}

export interface Database {
  users: UsersTable
  reservations: ReservationsTable
  api_keys: ApiKeysTable
  checks: ChecksTable
}
