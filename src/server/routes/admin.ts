/** The admin API of docs/decisions.md#admin-api: key issuance and credit grants, behind the admin token. */
import { randomUUID } from 'node:crypto'
import type { H3Event } from 'h3'
import { displayPrefix, generateApiKey } from '../../contract/api-key.js'
import {
  CreditGrantRequest,
  KeyCreateRequest,
  PATHS,
  UserId,
  type CreditGrantResult,
  type KeyCreated,
  type KeyList,
  type KeyRevoked,
} from '../../contract/index.js'
import { hashKey } from '../../contract/api-key.js'
import { AdminAuthThrottle, authenticateAdmin } from '../auth.js'
import { parseWith, readJson } from '../../http/body.js'
import type { ServerOptions } from '../context.js'
import { badRequest, notFound } from '../../http/errors.js'

export function adminRoutes(opts: ServerOptions) {
  const { store } = opts
  const throttle = new AdminAuthThrottle()
  const admin = (event: H3Event) => authenticateAdmin(event, opts.adminToken, throttle)
  /** A user id as given, or the user id of the dashboard account with this email (as `keys create --user`). */
  const creditedUser = async (who: string): Promise<string> => {
    if (!who.includes('@')) {
      if (!UserId.safeParse(who).success)
        throw badRequest('Invalid user id: give a user id or the email of a dashboard account.')
      return who
    }
    const account = await store.accounts.findAccountByEmail(who.trim().toLowerCase())
    if (!account) throw notFound(`No dashboard account has the email ${who}.`)
    return account.user_id
  }

  return {
    [PATHS.adminKeys]: {
      POST: async (event: H3Event): Promise<KeyCreated> => {
        admin(event)
        const req = parseWith(KeyCreateRequest, await readJson(event), 'key request')
        const userId = req.user ?? 'default'
        await store.users.ensure(userId, req.credits ?? opts.initialCredits)
        const key = generateApiKey()
        const record = await store.keys.create({
          id: randomUUID(),
          name: req.name,
          user_id: userId,
          prefix: displayPrefix(key),
          hash: hashKey(key),
          created_at: new Date().toISOString(),
          last_used_at: null,
          revoked_at: null,
        })
        event.res.status = 201
        return {
          id: record.id,
          name: record.name,
          key,
          prefix: record.prefix,
          user_id: record.user_id,
          created_at: record.created_at,
        }
      },
      GET: async (event: H3Event): Promise<KeyList> => {
        admin(event)
        return {
          keys: (await store.keys.list()).map(({ hash: _hash, ...k }) => k),
        }
      },
    },
    [PATHS.adminRevoke]: {
      POST: async (event: H3Event): Promise<KeyRevoked> => {
        admin(event)
        const id = String(event.context.params?.id ?? '')
        const key = await store.keys.revoke(id, new Date().toISOString())
        if (!key || !key.revoked_at) throw notFound('No API key with this id.')
        return { id: key.id, revoked_at: key.revoked_at }
      },
    },
    [PATHS.adminCredits]: {
      POST: async (event: H3Event): Promise<CreditGrantResult> => {
        admin(event)
        const user = await creditedUser(decodeURIComponent(String(event.context.params?.user ?? '')))
        const { amount } = parseWith(CreditGrantRequest, await readJson(event), 'credit grant')
        await store.users.grantCredits(user, amount)
        return { user_id: user, credits_remaining: await store.users.availableCredits(user) }
      },
    },
  }
}
