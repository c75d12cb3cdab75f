/**
 * The account concern of the storage interface: accounts, sign-in sessions, invite / set-password
 * links and device-grant requests (`sitehealth login`). Only hashes of session tokens, invite
 * tokens and device codes are stored: a copy of the data dir or database lets nobody sign in.
 */
import type { RateLimiterAbstract } from 'rate-limiter-flexible'

export interface AccountRecord {
  id: string
  /** Lower-cased; unique. */
  email: string
  /** `scrypt$…` (password.ts); null until the account's owner sets one through a setup link. */
  password_hash: string | null
  /** The user (docs/decisions.md#admin-api) that owns this account's credits, keys, checks and monitors. */
  user_id: string
  admin: boolean
  disabled_at: string | null
  created_at: string
}

export interface SessionRecord {
  /** SHA-256 hex of the cookie's token. */
  id: string
  account_id: string
  /** The synchronizer token every state-changing form of this session must carry. */
  csrf: string
  created_at: string
  expires_at: string
}

export interface InviteRecord {
  /** SHA-256 hex of the link's token. */
  id: string
  /** `invite`: anyone with the link creates an account; `setup`: an existing account sets its password. */
  kind: 'invite' | 'setup'
  /** For `setup`, the account; for `invite`, null. */
  account_id: string | null
  /** Fixed email for the new account (or null: the visitor chooses). */
  email: string | null
  admin: boolean
  credits: number | null
  created_at: string
  expires_at: string
  used_at: string | null
}

export type DeviceGrantStatus = 'pending' | 'approved' | 'denied' | 'used'

export interface DeviceGrantRecord {
  /** SHA-256 hex of the device code (the CLI's secret). */
  id: string
  /** What the user types in the dashboard, e.g. `WDJB-MJHT` (RFC 8628 §6.1). */
  user_code: string
  /** The key's name, e.g. `sitehealth login on laptop`. */
  name: string
  status: DeviceGrantStatus
  /** Who approved or denied it. */
  account_id: string | null
  /** The key made when the CLI collected an approved grant. */
  key_id: string | null
  created_at: string
  expires_at: string
  /** When the CLI last polled (RFC 8628 `slow_down`). */
  polled_at: string | null
  /** The address the request came from, shown on the approval page (null in older records). */
  client_address: string | null
}

/** What redeeming an invite came to. */
export type InviteRedemption = 'redeemed' | 'used' | 'email_taken'

export interface AccountStore {
  /** Rejects with DuplicateEmailError when the email is taken (also across instances). */
  createAccount(account: AccountRecord): Promise<AccountRecord>
  getAccount(id: string): Promise<AccountRecord | undefined>
  findAccountByEmail(email: string): Promise<AccountRecord | undefined>
  findAccountByUser(userId: string): Promise<AccountRecord | undefined>
  listAccounts(): Promise<AccountRecord[]>
  updateAccount(
    id: string,
    patch: Partial<Omit<AccountRecord, 'id' | 'user_id'>>,
  ): Promise<AccountRecord | undefined>

  createSession(session: SessionRecord): Promise<void>
  /** A live (unexpired) session. */
  getSession(id: string): Promise<SessionRecord | undefined>
  deleteSession(id: string): Promise<void>
  /** Ends every session of an account (password change, disable). `except` keeps one. */
  deleteSessionsOf(accountId: string, except?: string): Promise<void>

  createInvite(invite: InviteRecord): Promise<void>
  /** An unused, unexpired link. */
  getInvite(id: string): Promise<InviteRecord | undefined>
  /** Marks it used; false when it was already used (two tabs racing), so a link works once. */
  useInvite(id: string, at: string): Promise<boolean>
  /**
   * Claims an unused, unexpired invite and creates `account` with it, as one step: the claim comes
   * first, so however many sign-ups race for one link (across instances too) exactly one account
   * is made; `used` when the link was gone. When the account's email is taken nothing changes and
   * the link stays usable (`email_taken`).
   */
  redeemInvite(id: string, at: string, account: AccountRecord): Promise<InviteRedemption>

  createDeviceGrant(grant: DeviceGrantRecord): Promise<void>
  getDeviceGrant(id: string): Promise<DeviceGrantRecord | undefined>
  findDeviceGrantByUserCode(userCode: string): Promise<DeviceGrantRecord | undefined>
  /**
   * Moves a grant from `from` to the patch's status in one step; false when it was no longer in
   * `from` (approved twice, collected twice).
   */
  transitionDeviceGrant(
    id: string,
    from: DeviceGrantStatus,
    patch: Partial<DeviceGrantRecord>,
  ): Promise<boolean>
  /**
   * Ends every pending grant (its expiry set to `at`), after repeated wrong user codes (RFC 8628
   * §5.1): a guesser then has nothing left to find. Returns how many were ended.
   */
  expirePendingDeviceGrants(at: string): Promise<number>
  /** Records a poll; returns the previous poll time (across instances on a shared backend). */
  touchDeviceGrant(id: string, at: string): Promise<string | null>
  /**
   * A rate-limiter-flexible limiter whose counts every process sharing this store sees (sign-in
   * throttling, device-code requests). A backend used by one process only leaves it out, and
   * callers use a memory limiter.
   */
  limiter?(o: LimiterOptions): RateLimiterAbstract
}

export interface LimiterOptions {
  points: number
  /** Window, seconds. */
  duration: number
  /** Keeps one limiter's keys apart from another's. */
  keyPrefix: string
}
