/** Admin pages: accounts (create, invite, grant credits, disable) and every key. */
import { DomainError } from '../../shared/index.js'
import type { H3Event } from 'h3'
import { type SignedIn } from '../../accounts/index.js'
import { ACCOUNT_PATHS } from '../../contract/accounts.js'
import { pathFor } from '../../contract/routes.js'
import { seeOther } from '../http.js'
import { field, param, type Kit, type Routes } from '../kit.js'
import type { KeyRecord } from '../../store/types.js'
import { allKeysPage, usersPage, type ApiUserRow } from '../pages/admin.js'
import { revokeRoutes } from './keys.js'

const ADMIN = { admin: true }

/**
 * Users that hold keys but no dashboard account (`keys create --user U`, the admin API): they own
 * credits and checks like any user, so the Users page lists them too, oldest first.
 */
export function apiOnlyUsers(keys: KeyRecord[], accountUserIds: Set<string>): ApiUserRow[] {
  const byUser = new Map<string, ApiUserRow>()
  for (const key of keys) {
    if (accountUserIds.has(key.user_id)) continue
    const row = byUser.get(key.user_id) ?? { user_id: key.user_id, activeKeys: 0, since: key.created_at }
    if (!key.revoked_at) row.activeKeys++
    if (key.created_at < row.since) row.since = key.created_at
    byUser.set(key.user_id, row)
  }
  return [...byUser.values()].sort((a, b) => a.since.localeCompare(b.since))
}

export function adminRoutes(k: Kit): Routes {
  const { opts, accounts } = k.deps
  const { store } = opts

  async function usersView(
    event: H3Event,
    s: SignedIn,
    extra: { link?: { label: string; url: string }; error?: string } = {},
    status = 200,
  ) {
    const list = (await accounts.db.listAccounts()).sort((a, b) => a.created_at.localeCompare(b.created_at))
    const users = await Promise.all(
      list.map(async (account) => ({
        account,
        credits: await store.users.availableCredits(account.user_id),
      })),
    )
    const apiUsers = await Promise.all(
      apiOnlyUsers(await store.keys.list(), new Set(list.map((a) => a.user_id))).map(async (u) => ({
        ...u,
        credits: await store.users.availableCredits(u.user_id),
      })),
    )
    return k.page(usersPage(k.ctx(event, s), { users, apiUsers, ...extra }), status)
  }
  const origin = (event: H3Event) => (opts.publicUrl ?? event.url.origin).replace(/\/+$/, '')
  const inviteUrl = (event: H3Event, token: string) =>
    origin(event) + pathFor(ACCOUNT_PATHS.invitePage, { token })

  const adminUsers = k.authed((event, s) => usersView(event, s), true)
  const adminCreateUser = k.signedPost(async (event, form, s) => {
    const credits = form.get('credits') ? Number(form.get('credits')) : null
    if (credits !== null && !(Number.isInteger(credits) && credits >= 0 && credits <= 1e9))
      return usersView(event, s, { error: 'Credits must be a whole number, 0 or more.' }, 400)
    try {
      const { account, setupToken } = await accounts.registration.createByAdmin(
        field(form, 'email'),
        form.get('admin') === '1',
        credits,
      )
      return usersView(event, s, {
        link: { label: `Set-password link for ${account.email}`, url: inviteUrl(event, setupToken) },
      })
    } catch (err) {
      if (!(err instanceof DomainError)) throw err
      return usersView(event, s, { error: err.message }, 400)
    }
  }, ADMIN)
  const adminInvite = k.signedPost(async (event, form, s) => {
    try {
      const token = await accounts.invites.create({ email: form.get('email') || null })
      return usersView(event, s, { link: { label: 'Invite link', url: inviteUrl(event, token) } })
    } catch (err) {
      if (!(err instanceof DomainError)) throw err
      return usersView(event, s, { error: err.message }, 400)
    }
  }, ADMIN)
  const adminGrant = k.signedPost(async (event, form, s) => {
    const account = await accounts.db.getAccount(param(event, 'id'))
    if (!account) return k.notFound(event, s)
    const amount = Number(form.get('amount'))
    if (!(Number.isInteger(amount) && amount >= 1 && amount <= 1e9))
      return usersView(event, s, { error: 'The amount must be a whole number from 1.' }, 400)
    await store.users.grantCredits(account.user_id, amount)
    return seeOther('/admin/users')
  }, ADMIN)
  // an API-only user (keys from `keys create` or the admin API, no dashboard account) by user id
  const adminGrantApiUser = k.signedPost(async (event, form, s) => {
    const userId = field(form, 'user_id')
    const [keys, list] = await Promise.all([store.keys.list(), accounts.db.listAccounts()])
    const known = apiOnlyUsers(keys, new Set(list.map((a) => a.user_id))).some((u) => u.user_id === userId)
    if (!known) return k.notFound(event, s)
    const amount = Number(form.get('amount'))
    if (!(Number.isInteger(amount) && amount >= 1 && amount <= 1e9))
      return usersView(event, s, { error: 'The amount must be a whole number from 1.' }, 400)
    await store.users.grantCredits(userId, amount)
    return seeOther('/admin/users')
  }, ADMIN)
  const adminDisable = k.signedPost(async (event, _form, s) => {
    const account = await accounts.db.getAccount(param(event, 'id'))
    if (!account) return k.notFound(event, s)
    if (account.id === s.account.id)
      return usersView(event, s, { error: 'You cannot disable your own account.' }, 400)
    await accounts.disable(account.id)
    return seeOther('/admin/users')
  }, ADMIN)
  const adminKeys = k.authed(async (event, s) => {
    const keys = (await store.keys.list()).sort((a, b) => b.created_at.localeCompare(a.created_at))
    const owners = new Map((await accounts.db.listAccounts()).map((a) => [a.user_id, a.email]))
    return k.page(allKeysPage(k.ctx(event, s), { keys, owners }))
  }, true)

  return {
    '/admin/users': { GET: adminUsers, POST: adminCreateUser },
    '/admin/invites': { POST: adminInvite },
    '/admin/users/:id/credits': { POST: adminGrant },
    '/admin/api-users/credits': { POST: adminGrantApiUser },
    '/admin/users/:id/disable': { POST: adminDisable },
    '/admin/keys': { GET: adminKeys },
    '/admin/keys/:id/revoke': revokeRoutes(k, '/admin/keys', true),
  }
}
