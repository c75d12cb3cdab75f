/**
 * Accounts: sign-up (by policy), sign-in with throttling, sessions, password changes, admin-made
 * accounts and invite links, disabling, the account's API keys, and the device grant behind
 * `sitehealth login`. An account's user is a user of the main store like any admin-API user: it
 * owns credits, keys, checks and monitors the same way.
 */
import { randomUUID } from 'node:crypto'
import { displayPrefix, generateApiKey, hashKey } from '../contract/api-key.js'
import type { KeyRecord, Store } from '../store/types.js'
import { DEFAULT_COST, hashPassword, passwordProblem, verifyPassword, type ScryptCost } from './password.js'
import {
  DEFAULT_DEVICE_LIMITS,
  DEFAULT_THROTTLE,
  DeviceCodeThrottle,
  SignInThrottle,
  type DeviceCodeLimits,
  type ThrottleLimits,
} from './throttle.js'
import { keyNameProblem } from '../contract/key-name.js'
import { newToken, newUserCode, normaliseEmail, normaliseUserCode, tokenHash } from './tokens.js'
import type {
  AccountRecord,
  AccountStore,
  DeviceGrantRecord,
  InviteRecord,
  SessionRecord,
} from '../store/types.js'
import { DuplicateEmailError } from '../store/errors.js'

export const SIGNUP_POLICIES = ['open', 'invite', 'closed'] as const
export type SignupPolicy = (typeof SIGNUP_POLICIES)[number]

const throttled = (waitSec: number) =>
  new AccountError(
    'throttled',
    `Too many failed sign-ins. Try again in ${Math.ceil(waitSec / 60)} minute${waitSec > 60 ? 's' : ''}.`,
    waitSec,
  )

/** A key's name, trimmed, or AccountError('invalid_name') (contract/key-name.ts says why). */
function keyName(input: string): string {
  const problem = keyNameProblem(input)
  if (problem) throw new AccountError('invalid_name', problem)
  return input.trim()
}

/** Sessions last a week; signing in again starts a new one. */
export const SESSION_TTL_MS = 7 * 24 * 3600_000
/** Invite and set-password links. */
export const INVITE_TTL_MS = 7 * 24 * 3600_000
/** One answer for a link that was used (a lost race too), expired or never existed. */
export const INVALID_LINK =
  'This link was already used, has expired or is invalid: ask an administrator for a new one.'
/** RFC 8628 §3.2: expires_in and the polling interval of a device code. */
export const DEVICE_TTL_MS = 10 * 60_000
export const DEVICE_POLL_INTERVAL_S = 5

export type AccountErrorCode =
  | 'invalid_credentials'
  | 'throttled'
  | 'signup_closed'
  | 'email_taken'
  | 'invalid_email'
  | 'weak_password'
  | 'invalid_link'
  | 'not_found'
  | 'invalid_code'
  | 'invalid_name'
  | 'signed_out'

export class AccountError extends Error {
  constructor(
    readonly code: AccountErrorCode,
    message: string,
    readonly retryAfterSec?: number,
  ) {
    super(message)
  }
}

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

export interface SignedIn {
  account: AccountRecord
  session: SessionRecord
}

/** Who is typing a device user code: their session and client address (RFC 8628 §5.1 limits). */
export interface CodeEntry {
  session: string
  client: string
}

export type DevicePoll =
  | { status: 'approved'; key: string; record: KeyRecord }
  | { status: 'authorization_pending' | 'slow_down' | 'access_denied' | 'expired_token' }

export class Accounts {
  readonly store: Store
  readonly db: AccountStore
  readonly signup: SignupPolicy
  private readonly throttle: SignInThrottle
  private readonly codes: DeviceCodeThrottle
  private readonly now: () => number
  private readonly cost: ScryptCost

  constructor(private readonly opts: AccountsOptions) {
    this.store = opts.store
    this.db = opts.accounts
    this.signup = opts.signup
    this.throttle = new SignInThrottle(
      opts.throttle ?? DEFAULT_THROTTLE,
      opts.accounts.limiter?.bind(opts.accounts),
    )
    this.codes = new DeviceCodeThrottle(
      opts.deviceLimits ?? DEFAULT_DEVICE_LIMITS,
      opts.accounts.limiter?.bind(opts.accounts),
    )
    this.now = opts.now ?? Date.now
    this.cost = opts.passwordCost ?? DEFAULT_COST
  }

  private iso(offsetMs = 0) {
    return new Date(this.now() + offsetMs).toISOString()
  }

  // ---- accounts ----

  /** A new account's record (password hashed), checked but not stored yet. */
  private async accountRecord(
    emailInput: string,
    password: string | null,
    admin: boolean,
  ): Promise<AccountRecord> {
    const email = normaliseEmail(emailInput)
    if (!email) throw new AccountError('invalid_email', 'Enter a valid email address.')
    if (password !== null) {
      const problem = passwordProblem(password, email)
      if (problem) throw new AccountError('weak_password', problem)
    }
    const id = randomUUID()
    return {
      id,
      email,
      // hashed whether or not the email is taken, so the answer takes as long either way
      password_hash: password === null ? null : await hashPassword(password, this.cost),
      user_id: `acct-${id}`,
      admin,
      disabled_at: null,
      created_at: this.iso(),
    }
  }

  /** An admin-made account: admins see every account, so a taken email is said plainly. */
  private async newAccount(
    emailInput: string,
    password: string | null,
    admin: boolean,
    credits: number | null,
  ): Promise<AccountRecord> {
    const account = await this.accountRecord(emailInput, password, admin)
    try {
      await this.db.createAccount(account)
    } catch (err) {
      if (err instanceof DuplicateEmailError)
        throw new AccountError('email_taken', 'An account with this email already exists.')
      throw err
    }
    await this.store.users.ensure(account.user_id, credits ?? this.opts.initialCredits)
    return account
  }

  /**
   * Sign-up through the open door (policy `open`) or an invite link. It answers the same whether
   * or not the email already has an account (OWASP: no account enumeration; Auth0's sign-up does
   * the same): null when it had one — nothing changes then, and an invite link is not used up, so
   * its real recipient still gets in with it. An invite is claimed in the same step that creates
   * the account (AccountStore.redeemInvite): one link makes one account, however many race for it.
   */
  async signUp(email: string, password: string, inviteToken?: string): Promise<AccountRecord | null> {
    if (inviteToken) {
      const invite = await this.validInvite(inviteToken, 'invite')
      if (invite.email && normaliseEmail(email) !== invite.email)
        throw new AccountError('invalid_email', `This invite is for ${invite.email}.`)
      const account = await this.accountRecord(email, password, invite.admin)
      const outcome = await this.db.redeemInvite(invite.id, this.iso(), account)
      if (outcome === 'used') throw new AccountError('invalid_link', INVALID_LINK)
      if (outcome === 'email_taken') return null
      await this.store.users.ensure(account.user_id, invite.credits ?? this.opts.initialCredits)
      return account
    }
    if (this.signup !== 'open')
      throw new AccountError(
        'signup_closed',
        this.signup === 'invite'
          ? 'Sign-up needs an invite link from an administrator.'
          : 'Sign-up is closed on this server: ask an administrator for an account.',
      )
    const account = await this.accountRecord(email, password, false)
    try {
      await this.db.createAccount(account)
    } catch (err) {
      if (err instanceof DuplicateEmailError) return null
      throw err
    }
    await this.store.users.ensure(account.user_id, this.opts.initialCredits)
    return account
  }

  /** An admin makes an account; its owner sets the password through the returned setup token. */
  async createByAdmin(email: string, admin: boolean, credits: number | null) {
    const account = await this.newAccount(email, null, admin, credits)
    const token = await this.newInvite({
      kind: 'setup',
      account_id: account.id,
      email: account.email,
      admin,
      credits,
    })
    return { account, setupToken: token }
  }

  async createInvite(opts: { email?: string | null; admin?: boolean; credits?: number | null }) {
    const email = opts.email ? normaliseEmail(opts.email) : null
    if (opts.email && !email) throw new AccountError('invalid_email', 'Enter a valid email address.')
    return this.newInvite({
      kind: 'invite',
      account_id: null,
      email,
      admin: !!opts.admin,
      credits: opts.credits ?? null,
    })
  }

  private async newInvite(i: Pick<InviteRecord, 'kind' | 'account_id' | 'email' | 'admin' | 'credits'>) {
    const token = newToken()
    await this.db.createInvite({
      ...i,
      id: tokenHash(token),
      created_at: this.iso(),
      expires_at: this.iso(INVITE_TTL_MS),
      used_at: null,
    })
    return token
  }

  /** The invite or setup link behind a token, if it is still usable. */
  findInvite(token: string): Promise<InviteRecord | undefined> {
    return this.db.getInvite(tokenHash(token))
  }

  private async validInvite(token: string, kind: InviteRecord['kind']): Promise<InviteRecord> {
    const invite = await this.findInvite(token)
    if (!invite || invite.kind !== kind) throw new AccountError('invalid_link', INVALID_LINK)
    return invite
  }

  /** A setup link sets the first password of an admin-made account. */
  async completeSetup(token: string, password: string): Promise<AccountRecord> {
    const invite = await this.validInvite(token, 'setup')
    const account = invite.account_id ? await this.db.getAccount(invite.account_id) : undefined
    if (!account || account.disabled_at)
      throw new AccountError('invalid_link', 'This link is invalid, used or expired.')
    const problem = passwordProblem(password, account.email)
    if (problem) throw new AccountError('weak_password', problem)
    if (!(await this.db.useInvite(invite.id, this.iso())))
      throw new AccountError('invalid_link', 'This link has already been used.')
    return (await this.db.updateAccount(account.id, {
      password_hash: await hashPassword(password, this.cost),
    }))!
  }

  async disable(accountId: string): Promise<AccountRecord> {
    const account = await this.db.getAccount(accountId)
    if (!account) throw new AccountError('not_found', 'No such account.')
    if (account.disabled_at) return account
    const at = this.iso()
    const updated = (await this.db.updateAccount(accountId, { disabled_at: at }))!
    await this.db.deleteSessionsOf(accountId)
    // a disabled account's keys stop working too: otherwise disabling would not lock anyone out
    for (const k of await this.store.keys.list())
      if (k.user_id === account.user_id && !k.revoked_at) await this.store.keys.revoke(k.id, at)
    return updated
  }

  // ---- sessions ----

  async signIn(emailInput: string, password: string, client: string): Promise<{ token: string } & SignedIn> {
    const email = normaliseEmail(emailInput) ?? emailInput.trim().toLowerCase().slice(0, 254)
    const { waitSec } = await this.throttle.attempt(email, client)
    if (waitSec > 0) throw throttled(waitSec)
    const account = await this.db.findAccountByEmail(email)
    const ok = await verifyPassword(password, account?.password_hash ?? null, this.cost)
    if (!account || !ok || account.disabled_at)
      throw new AccountError('invalid_credentials', 'Wrong email or password.')
    await this.throttle.succeeded(email, client)
    return { ...(await this.startSession(account)), account }
  }

  /** A fresh session id at every sign-in (no fixation). */
  private async startSession(account: AccountRecord): Promise<{ token: string; session: SessionRecord }> {
    const token = newToken()
    const session: SessionRecord = {
      id: tokenHash(token),
      account_id: account.id,
      csrf: newToken(),
      created_at: this.iso(),
      expires_at: this.iso(SESSION_TTL_MS),
    }
    await this.db.createSession(session)
    return { token, session }
  }

  /** The live session of a cookie's token, with its account; disabled accounts have none. */
  async sessionFor(token: string | undefined): Promise<SignedIn | undefined> {
    if (!token || token.length > 100) return undefined
    const session = await this.db.getSession(tokenHash(token))
    const account = session && (await this.db.getAccount(session.account_id))
    if (!session || !account || account.disabled_at) return undefined
    return { session, account }
  }

  async signOut(session: SessionRecord): Promise<void> {
    await this.db.deleteSession(session.id)
  }

  /**
   * Ends every other session of the account, so a stolen session dies with the old password. The
   * current password is guessed against the same per-account budget as sign-in (a stolen cookie
   * is no way around it), and the run of failures that uses the budget up signs this session out.
   */
  async changePassword(who: SignedIn, current: string, next: string, client: string): Promise<void> {
    const email = who.account.email
    const attempt = await this.throttle.attempt(email, client)
    if (attempt.waitSec > 0) {
      await this.db.deleteSession(who.session.id)
      throw new AccountError(
        'signed_out',
        'Too many wrong passwords: this session was signed out. Sign in again to continue.',
        attempt.waitSec,
      )
    }
    if (!(await verifyPassword(current, who.account.password_hash, this.cost))) {
      if (attempt.left === 0) {
        await this.db.deleteSession(who.session.id)
        throw new AccountError(
          'signed_out',
          'Too many wrong passwords: this session was signed out. Sign in again to continue.',
        )
      }
      throw new AccountError('invalid_credentials', 'The current password is wrong.')
    }
    await this.throttle.succeeded(email, client)
    const problem = passwordProblem(next, who.account.email)
    if (problem) throw new AccountError('weak_password', problem)
    await this.db.updateAccount(who.account.id, { password_hash: await hashPassword(next, this.cost) })
    await this.db.deleteSessionsOf(who.account.id, who.session.id)
  }

  // ---- API keys of an account's user ----

  async createKey(userId: string, nameInput: string): Promise<{ key: string; record: KeyRecord }> {
    const name = keyName(nameInput)
    const key = generateApiKey()
    const record = await this.store.keys.create({
      id: randomUUID(),
      name,
      user_id: userId,
      prefix: displayPrefix(key),
      hash: hashKey(key),
      created_at: this.iso(),
      last_used_at: null,
      revoked_at: null,
    })
    return { key, record }
  }

  async keysOf(userId: string): Promise<KeyRecord[]> {
    return (await this.store.keys.list())
      .filter((k) => k.user_id === userId)
      .sort((a, b) => b.created_at.localeCompare(a.created_at))
  }

  /** Revokes one of the user's keys; another user's key is not found. */
  async revokeKey(userId: string | null, id: string): Promise<KeyRecord> {
    const key = (await this.store.keys.list()).find(
      (k) => k.id === id && (userId === null || k.user_id === userId),
    )
    if (!key) throw new AccountError('not_found', 'No such key.')
    if (key.revoked_at) return key
    return (await this.store.keys.revoke(id, this.iso()))!
  }

  // ---- device grant (RFC 8628) ----

  /** A `sitehealth login` request from `client` (its address, shown on the approval page). */
  async startDeviceGrant(nameInput: string, client: string | null) {
    const name = keyName(nameInput)
    const deviceCode = newToken()
    let userCode = newUserCode()
    while (await this.db.findDeviceGrantByUserCode(userCode)) userCode = newUserCode()
    const grant: DeviceGrantRecord = {
      id: tokenHash(deviceCode),
      user_code: userCode,
      name,
      status: 'pending',
      account_id: null,
      key_id: null,
      created_at: this.iso(),
      expires_at: this.iso(DEVICE_TTL_MS),
      polled_at: null,
      client_address: client,
    }
    await this.db.createDeviceGrant(grant)
    return { deviceCode, userCode, expiresInSec: DEVICE_TTL_MS / 1000, intervalSec: DEVICE_POLL_INTERVAL_S }
  }

  /**
   * The pending request a typed code names, or undefined (unknown, expired or already answered).
   * Every attempt counts against the session's and the address's limits before the code is looked
   * up (AccountError `throttled` past them); misses count across the server (RFC 8628 §5.1).
   */
  async pendingGrant(userCodeInput: string, who: CodeEntry): Promise<DeviceGrantRecord | undefined> {
    const wait = await this.codes.attempt(who.session, who.client)
    if (wait > 0)
      throw new AccountError(
        'throttled',
        `Too many codes tried. Try again in ${Math.ceil(wait / 60)} minute${wait > 60 ? 's' : ''}.`,
        wait,
      )
    const code = normaliseUserCode(userCodeInput)
    const grant = code ? await this.db.findDeviceGrantByUserCode(code) : undefined
    if (grant && grant.status === 'pending' && grant.expires_at > this.iso()) return grant
    if (await this.codes.missed()) await this.db.expirePendingDeviceGrants(this.iso())
    return undefined
  }

  async answerDeviceGrant(
    account: AccountRecord,
    userCode: string,
    approve: boolean,
    who: CodeEntry,
  ): Promise<DeviceGrantRecord> {
    const grant = await this.pendingGrant(userCode, who)
    if (!grant)
      throw new AccountError(
        'invalid_code',
        'This code is unknown, expired or already used. Run `sitehealth login` again.',
      )
    const done = await this.db.transitionDeviceGrant(grant.id, 'pending', {
      status: approve ? 'approved' : 'denied',
      account_id: account.id,
    })
    if (!done) throw new AccountError('invalid_code', 'This code has already been answered.')
    return { ...grant, status: approve ? 'approved' : 'denied', account_id: account.id }
  }

  /** The CLI's poll: the key, once, after approval; the secret is made here, so it is never stored. */
  async pollDeviceGrant(deviceCode: string): Promise<DevicePoll> {
    const grant = await this.db.getDeviceGrant(tokenHash(deviceCode))
    const now = this.iso()
    if (!grant || grant.expires_at <= now || grant.status === 'used') return { status: 'expired_token' }
    if (grant.status === 'denied') return { status: 'access_denied' }
    if (grant.status === 'pending') {
      const previous = await this.db.touchDeviceGrant(grant.id, now)
      const tooSoon = previous && Date.parse(now) - Date.parse(previous) < (DEVICE_POLL_INTERVAL_S * 1000) / 2
      return { status: tooSoon ? 'slow_down' : 'authorization_pending' }
    }
    const account = grant.account_id ? await this.db.getAccount(grant.account_id) : undefined
    if (!account || account.disabled_at) return { status: 'access_denied' }
    if (!(await this.db.transitionDeviceGrant(grant.id, 'approved', { status: 'used' })))
      return { status: 'expired_token' }
    const { key, record } = await this.createKey(account.user_id, grant.name)
    return { status: 'approved', key, record }
  }
}
