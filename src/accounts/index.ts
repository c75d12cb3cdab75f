/**
 * Accounts (docs/decisions.md#accounts-and-the-dashboard), the door: `Accounts` holds one part per
 * concept — `registration` (sign-up, admin-made accounts; ./sign-up.ts), `invites` (invite and setup
 * links), `sessions` (sign-in, sessions, passwords), `keys` (an account's API keys) and `devices`
 * (the device grant of `sitehealth login`) — and disables accounts, which touches sessions and keys
 * alike. Refusals are DomainErrors (shared/domain-error.ts) whose `code` says which.
 */
import type { AccountRecord, AccountStore, Store } from '../store/types.js'
import { refused, type AccountsCore, type SignupPolicy } from './core.js'
import { DeviceGrants } from './device-grant.js'
import { Invites } from './invites.js'
import { AccountKeys } from './keys.js'
import { DEFAULT_COST, type ScryptCost } from './password.js'
import { Sessions } from './sessions.js'
import { Registration } from './sign-up.js'
import {
  DEFAULT_DEVICE_LIMITS,
  DEFAULT_THROTTLE,
  DeviceCodeThrottle,
  SignInThrottle,
  type DeviceCodeLimits,
  type ThrottleLimits,
} from './throttle.js'

export {
  INVALID_LINK,
  INVITE_TTL_MS,
  SESSION_TTL_MS,
  SIGNUP_POLICIES,
  type AccountErrorCode,
  type SignupPolicy,
} from './core.js'
export { DEVICE_POLL_INTERVAL_S, DEVICE_TTL_MS, type CodeEntry, type DevicePoll } from './device-grant.js'
export { MIN_PASSWORD_LENGTH } from './password.js'
export type { SignedIn } from './sessions.js'
export { newToken } from './tokens.js'

export interface AccountsOptions {
  store: Store
  accounts: AccountStore
  signup: SignupPolicy
  initialCredits: number
  throttle?: ThrottleLimits
  deviceLimits?: DeviceCodeLimits
  now?: () => number
  /** scrypt cost of new hashes (tests lower it; the default is OWASP's). */
  passwordCost?: ScryptCost
}

export class Accounts {
  readonly store: Store
  readonly db: AccountStore
  readonly registration: Registration
  readonly invites: Invites
  readonly sessions: Sessions
  readonly keys: AccountKeys
  readonly devices: DeviceGrants
  private readonly core: AccountsCore

  constructor(opts: AccountsOptions) {
    const now = opts.now ?? Date.now
    const limiter = opts.accounts.limiter?.bind(opts.accounts)
    const core: AccountsCore = (this.core = {
      store: opts.store,
      db: opts.accounts,
      initialCredits: opts.initialCredits,
      cost: opts.passwordCost ?? DEFAULT_COST,
      iso: (offsetMs = 0) => new Date(now() + offsetMs).toISOString(),
    })
    this.store = opts.store
    this.db = opts.accounts
    this.invites = new Invites(core)
    this.registration = new Registration(core, this.invites, opts.signup)
    this.sessions = new Sessions(core, new SignInThrottle(opts.throttle ?? DEFAULT_THROTTLE, limiter))
    this.keys = new AccountKeys(core)
    this.devices = new DeviceGrants(
      core,
      new DeviceCodeThrottle(opts.deviceLimits ?? DEFAULT_DEVICE_LIMITS, limiter),
      this.keys,
    )
  }

  /** The sign-up policy: open, by invite, or closed. */
  get signup(): SignupPolicy {
    return this.registration.policy
  }

  /** Disables an account: its sessions end and its keys are revoked, or disabling would lock no one out. */
  async disable(accountId: string): Promise<AccountRecord> {
    const account = await this.db.getAccount(accountId)
    if (!account) throw refused('not_found', 'No such account.')
    if (account.disabled_at) return account
    const at = this.core.iso()
    const updated = (await this.db.updateAccount(accountId, { disabled_at: at }))!
    await this.db.deleteSessionsOf(accountId)
    await this.keys.revokeAll(account.user_id, at)
    return updated
  }
}
