/**
 * Links handed out once: invite links (sign up with them) and setup links (the first password of
 * an account an admin made). Only their hashes are stored; each lasts INVITE_TTL_MS.
 */
import type { AccountRecord, InviteRecord } from '../store/types.js'
import { INVALID_LINK, INVITE_TTL_MS, refused, type AccountsCore } from './core.js'
import { hashPassword, passwordProblem } from './password.js'
import { newToken, normaliseEmail, tokenHash } from './tokens.js'

export class Invites {
  constructor(private readonly c: AccountsCore) {}

  /** An invite link's token; with an email, only that address may sign up with it. */
  async create(opts: { email?: string | null; admin?: boolean; credits?: number | null }) {
    const email = opts.email ? normaliseEmail(opts.email) : null
    if (opts.email && !email) throw refused('invalid_email', 'Enter a valid email address.')
    return this.issue({
      kind: 'invite',
      account_id: null,
      email,
      admin: !!opts.admin,
      credits: opts.credits ?? null,
    })
  }

  /** The setup link of an account an admin made. */
  setupLink(account: AccountRecord, credits: number | null): Promise<string> {
    return this.issue({
      kind: 'setup',
      account_id: account.id,
      email: account.email,
      admin: account.admin,
      credits,
    })
  }

  /** The invite or setup link behind a token, if it is still usable. */
  find(token: string): Promise<InviteRecord | undefined> {
    return this.c.db.getInvite(tokenHash(token))
  }

  /** The link of that kind behind a token, or the refusal `invalid_link`. */
  async valid(token: string, kind: InviteRecord['kind']): Promise<InviteRecord> {
    const invite = await this.find(token)
    if (!invite || invite.kind !== kind) throw refused('invalid_link', INVALID_LINK)
    return invite
  }

  /** A setup link sets the first password of an admin-made account. */
  async completeSetup(token: string, password: string): Promise<AccountRecord> {
    const invite = await this.valid(token, 'setup')
    const account = invite.account_id ? await this.c.db.getAccount(invite.account_id) : undefined
    if (!account || account.disabled_at)
      throw refused('invalid_link', 'This link is invalid, used or expired.')
    const problem = passwordProblem(password, account.email)
    if (problem) throw refused('weak_password', problem)
    if (!(await this.c.db.useInvite(invite.id, this.c.iso())))
      throw refused('invalid_link', 'This link has already been used.')
    return (await this.c.db.updateAccount(account.id, {
      password_hash: await hashPassword(password, this.c.cost),
    }))!
  }

  private async issue(i: Pick<InviteRecord, 'kind' | 'account_id' | 'email' | 'admin' | 'credits'>) {
    const token = newToken()
    await this.c.db.createInvite({
      ...i,
      id: tokenHash(token),
      created_at: this.c.iso(),
      expires_at: this.c.iso(INVITE_TTL_MS),
      used_at: null,
    })
    return token
  }
}
