/**
 * Signing in and out, sessions, and password changes. Failed guesses at a password are throttled
 * per account and per client (./throttle.ts), at sign-in and at a password change alike.
 */
import type { AccountRecord, SessionRecord } from '../store/types.js'
import { SESSION_TTL_MS, minutesLeft, refused, type AccountsCore } from './core.js'
import { hashPassword, passwordProblem, verifyPassword } from './password.js'
import type { SignInThrottle } from './throttle.js'
import { newToken, normaliseEmail, tokenHash } from './tokens.js'

export interface SignedIn {
  account: AccountRecord
  session: SessionRecord
}

const SIGNED_OUT = 'Too many wrong passwords: this session was signed out. Sign in again to continue.'

export class Sessions {
  constructor(
    private readonly c: AccountsCore,
    private readonly throttle: SignInThrottle,
  ) {}

  async signIn(emailInput: string, password: string, client: string): Promise<{ token: string } & SignedIn> {
    const email = normaliseEmail(emailInput) ?? emailInput.trim().toLowerCase().slice(0, 254)
    const { waitSec } = await this.throttle.attempt(email, client)
    if (waitSec > 0)
      throw refused('throttled', `Too many failed sign-ins. Try again in ${minutesLeft(waitSec)}.`, waitSec)
    const account = await this.c.db.findAccountByEmail(email)
    const ok = await verifyPassword(password, account?.password_hash ?? null, this.c.cost)
    if (!account || !ok || account.disabled_at)
      throw refused('invalid_credentials', 'Wrong email or password.')
    await this.throttle.succeeded(email, client)
    return { ...(await this.start(account)), account }
  }

  /** The live session of a cookie's token, with its account; disabled accounts have none. */
  async of(token: string | undefined): Promise<SignedIn | undefined> {
    if (!token || token.length > 100) return undefined
    const session = await this.c.db.getSession(tokenHash(token))
    const account = session && (await this.c.db.getAccount(session.account_id))
    if (!session || !account || account.disabled_at) return undefined
    return { session, account }
  }

  async signOut(session: SessionRecord): Promise<void> {
    await this.c.db.deleteSession(session.id)
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
      await this.c.db.deleteSession(who.session.id)
      throw refused('signed_out', SIGNED_OUT, attempt.waitSec)
    }
    if (!(await verifyPassword(current, who.account.password_hash, this.c.cost))) {
      if (attempt.left === 0) {
        await this.c.db.deleteSession(who.session.id)
        throw refused('signed_out', SIGNED_OUT)
      }
      throw refused('invalid_credentials', 'The current password is wrong.')
    }
    await this.throttle.succeeded(email, client)
    const problem = passwordProblem(next, who.account.email)
    if (problem) throw refused('weak_password', problem)
    await this.c.db.updateAccount(who.account.id, { password_hash: await hashPassword(next, this.c.cost) })
    await this.c.db.deleteSessionsOf(who.account.id, who.session.id)
  }

  /** A fresh session id at every sign-in (no fixation). */
  private async start(account: AccountRecord): Promise<{ token: string; session: SessionRecord }> {
    const token = newToken()
    const session: SessionRecord = {
      id: tokenHash(token),
      account_id: account.id,
      csrf: newToken(),
      created_at: this.c.iso(),
      expires_at: this.c.iso(SESSION_TTL_MS),
    }
    await this.c.db.createSession(session)
    return { token, session }
  }
}
