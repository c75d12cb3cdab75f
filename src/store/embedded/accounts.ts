/**
 * The embedded backend of the account concern (docs/decisions.md#accounts-and-the-dashboard): one document, `<dataDir>/accounts.json`
 * (mode 0600, written durably: temp file, fsync, rename, fsync of the directory). Writes are
 * serialised; each applies its change to a copy and only makes it visible once it is on disk, so
 * a failed write changes nothing and nothing unacknowledged is ever read. Expired sessions,
 * invites and device grants are dropped at the next write.
 */
import { join } from 'node:path'
import { DuplicateEmailError } from '../errors.js'
import type {
  AccountRecord,
  AccountStore,
  DeviceGrantRecord,
  DeviceGrantStatus,
  InviteRecord,
  InviteRedemption,
  SessionRecord,
} from '../types.js'
import type { Chain, LowdbContext } from './context.js'

interface AccountsDoc {
  version: 1
  accounts: AccountRecord[]
  sessions: SessionRecord[]
  invites: InviteRecord[]
  device_grants: DeviceGrantRecord[]
}

const empty = (): AccountsDoc => ({ version: 1, accounts: [], sessions: [], invites: [], device_grants: [] })

export class LowdbAccounts implements AccountStore {
  private doc: AccountsDoc = empty()
  private readonly queue: Chain = { chain: Promise.resolve() }
  private readonly polls = new Map<string, string>()

  constructor(private readonly ctx: LowdbContext) {}

  private get file() {
    return join(this.ctx.dataDir, 'accounts.json')
  }

  async load(): Promise<void> {
    const d = await this.ctx.adapter<AccountsDoc>(this.file).read()
    if (d === null) return
    if (!Array.isArray(d.accounts) || !Array.isArray(d.sessions)) throw new Error(`Corrupt ${this.file}`)
    this.doc = { ...empty(), ...d }
  }

  private get now() {
    return this.ctx.now
  }

  /** Apply `change` to a copy, write it, then make it visible. Resolves with change's result. */
  private write<R>(change: (doc: AccountsDoc) => R): Promise<R> {
    return this.ctx.enqueue(this.queue, async () => {
      const next: AccountsDoc = structuredClone(this.doc)
      const result = change(next)
      const now = new Date(this.now()).toISOString()
      next.sessions = next.sessions.filter((s) => s.expires_at > now)
      next.invites = next.invites.filter((i) => i.expires_at > now && !i.used_at)
      next.device_grants = next.device_grants.filter((g) => g.expires_at > now)
      await this.ctx.adapter<AccountsDoc>(this.file).write(next)
      this.doc = next
      return result
    })
  }

  createAccount(account: AccountRecord): Promise<AccountRecord> {
    return this.write((d) => {
      if (d.accounts.some((a) => a.email === account.email)) throw new DuplicateEmailError(account.email)
      d.accounts.push(account)
      return account
    })
  }
  /** Everything, expired sessions, invites and grants left out (copying the store: `db import`). */
  all(): Omit<AccountsDoc, 'version'> {
    const now = new Date(this.now()).toISOString()
    const d = this.doc
    return {
      accounts: [...d.accounts],
      sessions: d.sessions.filter((s) => s.expires_at > now),
      invites: d.invites.filter((i) => i.expires_at > now && !i.used_at),
      device_grants: d.device_grants.filter((g) => g.expires_at > now),
    }
  }

  async getAccount(id: string) {
    return this.doc.accounts.find((a) => a.id === id)
  }
  async findAccountByEmail(email: string) {
    return this.doc.accounts.find((a) => a.email === email)
  }
  async findAccountByUser(userId: string) {
    return this.doc.accounts.find((a) => a.user_id === userId)
  }
  async listAccounts() {
    return [...this.doc.accounts]
  }
  updateAccount(id: string, patch: Partial<Omit<AccountRecord, 'id' | 'user_id'>>) {
    return this.write((d) => {
      const i = d.accounts.findIndex((a) => a.id === id)
      if (i < 0) return undefined
      d.accounts[i] = { ...d.accounts[i], ...patch }
      return d.accounts[i]
    })
  }

  async createSession(session: SessionRecord) {
    await this.write((d) => d.sessions.push(session))
  }
  async getSession(id: string) {
    const s = this.doc.sessions.find((x) => x.id === id)
    return s && s.expires_at > new Date(this.now()).toISOString() ? s : undefined
  }
  async deleteSession(id: string) {
    await this.write((d) => {
      d.sessions = d.sessions.filter((s) => s.id !== id)
    })
  }
  async deleteSessionsOf(accountId: string, except?: string) {
    await this.write((d) => {
      d.sessions = d.sessions.filter((s) => s.account_id !== accountId || s.id === except)
    })
  }

  async createInvite(invite: InviteRecord) {
    await this.write((d) => d.invites.push(invite))
  }
  async getInvite(id: string) {
    const i = this.doc.invites.find((x) => x.id === id)
    return i && !i.used_at && i.expires_at > new Date(this.now()).toISOString() ? i : undefined
  }
  useInvite(id: string, at: string) {
    return this.write((d) => {
      const i = d.invites.find((x) => x.id === id)
      if (!i || i.used_at || i.expires_at <= at) return false
      i.used_at = at
      return true
    })
  }

  redeemInvite(id: string, at: string, account: AccountRecord) {
    return this.write((d): InviteRedemption => {
      const i = d.invites.find((x) => x.id === id)
      if (!i || i.used_at || i.expires_at <= at) return 'used'
      if (d.accounts.some((a) => a.email === account.email)) return 'email_taken'
      i.used_at = at
      d.accounts.push(account)
      return 'redeemed'
    })
  }

  async createDeviceGrant(grant: DeviceGrantRecord) {
    await this.write((d) => d.device_grants.push(grant))
  }
  async getDeviceGrant(id: string) {
    const g = this.doc.device_grants.find((x) => x.id === id)
    return g && { ...g, client_address: g.client_address ?? null }
  }
  async findDeviceGrantByUserCode(userCode: string) {
    const g = this.doc.device_grants.find((x) => x.user_code === userCode)
    return g && { ...g, client_address: g.client_address ?? null }
  }
  transitionDeviceGrant(id: string, from: DeviceGrantStatus, patch: Partial<DeviceGrantRecord>) {
    return this.write((d) => {
      const g = d.device_grants.find((x) => x.id === id)
      if (!g || g.status !== from) return false
      Object.assign(g, patch, { id: g.id })
      return true
    })
  }
  expirePendingDeviceGrants(at: string) {
    return this.write((d) => {
      let n = 0
      for (const g of d.device_grants)
        if (g.status === 'pending' && g.expires_at > at) {
          g.expires_at = at
          n++
        }
      return n
    })
  }
  async touchDeviceGrant(id: string, at: string): Promise<string | null> {
    // poll times live in memory only: losing them on a restart only forgets one slow_down
    const previous = this.polls.get(id) ?? null
    this.polls.set(id, at)
    return previous
  }
}
