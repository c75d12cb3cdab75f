/**
 * New accounts: sign-up through the open door or an invite link, and accounts an admin makes (their
 * owner sets the password through a setup link). An account's user is a user of the main store
 * like any admin-API user: it owns credits, keys, checks and monitors the same way.
 */
import { randomUUID } from 'node:crypto'
import { DuplicateEmailError } from '../store/errors.js'
import type { AccountRecord } from '../store/types.js'
import { INVALID_LINK, refused, type AccountsCore, type SignupPolicy } from './core.js'
import type { Invites } from './invites.js'
import { hashPassword, passwordProblem } from './password.js'
import { normaliseEmail } from './tokens.js'

export class Registration {
  constructor(
    private readonly c: AccountsCore,
    private readonly invites: Invites,
    readonly policy: SignupPolicy,
  ) {}

  /**
   * Sign-up through the open door (policy `open`) or an invite link. It answers the same whether
   * or not the email already has an account (OWASP: no account enumeration; Auth0's sign-up does
   * the same): null when it had one — nothing changes then, and an invite link is not used up, so
   * its real recipient still gets in with it. An invite is claimed in the same step that creates
   * the account (AccountStore.redeemInvite): one link makes one account, however many race for it.
   */
  async signUp(email: string, password: string, inviteToken?: string): Promise<AccountRecord | null> {
    if (inviteToken) {
      const invite = await this.invites.valid(inviteToken, 'invite')
      if (invite.email && normaliseEmail(email) !== invite.email)
        throw refused('invalid_email', `This invite is for ${invite.email}.`)
      const account = await this.record(email, password, invite.admin)
      const outcome = await this.c.db.redeemInvite(invite.id, this.c.iso(), account)
      if (outcome === 'used') throw refused('invalid_link', INVALID_LINK)
      if (outcome === 'email_taken') return null
      await this.c.store.users.ensure(account.user_id, invite.credits ?? this.c.initialCredits)
      return account
    }
    if (this.policy !== 'open')
      throw refused(
        'signup_closed',
        this.policy === 'invite'
          ? 'Sign-up needs an invite link from an administrator.'
          : 'Sign-up is closed on this server: ask an administrator for an account.',
      )
    const account = await this.record(email, password, false)
    try {
      await this.c.db.createAccount(account)
    } catch (err) {
      if (err instanceof DuplicateEmailError) return null
      throw err
    }
    await this.c.store.users.ensure(account.user_id, this.c.initialCredits)
    return account
  }

  /**
   * An admin makes an account; its owner sets the password through the returned setup token.
   * Admins see every account, so a taken email is said plainly.
   */
  async createByAdmin(email: string, admin: boolean, credits: number | null) {
    const account = await this.record(email, null, admin)
    try {
      await this.c.db.createAccount(account)
    } catch (err) {
      if (err instanceof DuplicateEmailError)
        throw refused('email_taken', 'An account with this email already exists.')
      throw err
    }
    await this.c.store.users.ensure(account.user_id, credits ?? this.c.initialCredits)
    const setupToken = await this.invites.setupLink(account, credits)
    return { account, setupToken }
  }

  /** A new account's record (password hashed), checked but not stored yet. */
  private async record(emailInput: string, password: string | null, admin: boolean): Promise<AccountRecord> {
    const email = normaliseEmail(emailInput)
    if (!email) throw refused('invalid_email', 'Enter a valid email address.')
    if (password !== null) {
      const problem = passwordProblem(password, email)
      if (problem) throw refused('weak_password', problem)
    }
    const id = randomUUID()
    return {
      id,
      email,
      // hashed whether or not the email is taken, so the answer takes as long either way
      password_hash: password === null ? null : await hashPassword(password, this.c.cost),
      user_id: `acct-${id}`,
      admin,
      disabled_at: null,
      created_at: this.c.iso(),
    }
  }
}
