/**
 * JSON routes of accounts: the device grant (`sitehealth login`), a key revoking itself
 * (`sitehealth logout`), and the admin API's users and invites (`sitehealth users ...`).
 */
import type { H3Event } from 'h3'
import { clientAddress } from '../../http/client-address.js'
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible'
import {
  ACCOUNT_PATHS,
  DeviceCodeRequest,
  DeviceTokenRequest,
  InviteCreateRequest,
  UserCreateRequest,
  pathFor,
  type AccountInfo,
  type DeviceCode,
  type ErrorCode,
  type InviteCreated,
  type KeyCreated,
  type KeyRevoked,
  type UserCreated,
  type UserList,
} from '../../contract/index.js'
import { authenticateAdmin } from '../auth.js'
import { keyGuard } from '../guard.js'
import type { RateLimiter } from '../../http/rate-limit.js'
import { parseWith, readJson } from '../../http/body.js'
import type { ServerOptions } from '../context.js'
import { ServiceError, notFound } from '../../http/errors.js'
import { INVITE_TTL_MS, type Accounts } from '../../accounts/index.js'
import type { AccountRecord } from '../../store/types.js'

export function originOf(opts: ServerOptions, event: H3Event): string {
  return (opts.publicUrl ?? event.url.origin).replace(/\/+$/, '')
}

export async function accountInfo(accounts: Accounts, a: AccountRecord): Promise<AccountInfo> {
  return {
    user_id: a.user_id,
    email: a.email,
    admin: a.admin,
    disabled_at: a.disabled_at,
    created_at: a.created_at,
    credits_remaining: await accounts.store.users.availableCredits(a.user_id),
    password_set: a.password_hash !== null,
  }
}

/** Why a device grant gave no key yet (RFC 8628 §3.5 error codes). */
const NOT_APPROVED = {
  authorization_pending: 'Waiting for approval in the dashboard.',
  slow_down: 'Polling too fast: wait longer between requests.',
  access_denied: 'The request was denied in the dashboard.',
  expired_token: 'The code expired or was already used: run `sitehealth login` again.',
}

export function accountApiRoutes(opts: ServerOptions, accounts: Accounts, limiter: RateLimiter) {
  const guard = keyGuard(opts, limiter)
  // A device code costs a write: bound how fast one client can ask for them (on every instance).
  const codeOpts = { points: 10, duration: 60, keyPrefix: 'device' }
  const codeLimiter = accounts.db.limiter?.(codeOpts) ?? new RateLimiterMemory(codeOpts)
  const admin = (event: H3Event) => authenticateAdmin(event, opts.adminToken)

  return {
    [ACCOUNT_PATHS.deviceCode]: {
      POST: async (event: H3Event): Promise<DeviceCode> => {
        const { name } = parseWith(DeviceCodeRequest, await readJson(event), 'device code request')
        try {
          await codeLimiter.consume(clientAddress(event))
        } catch (e) {
          if (!(e instanceof RateLimiterRes)) throw e
          const wait = Math.ceil(e.msBeforeNext / 1000)
          throw new ServiceError(429, 'rate_limited', `Too many login requests. Retry in ${wait} s.`, {
            'retry-after': String(wait),
          })
        }
        const grant = await accounts.devices.start(name, clientAddress(event))
        const page = `${originOf(opts, event)}${ACCOUNT_PATHS.devicePage}`
        return {
          device_code: grant.deviceCode,
          user_code: grant.userCode,
          verification_uri: page,
          verification_uri_complete: `${page}?code=${encodeURIComponent(grant.userCode)}`,
          expires_in: grant.expiresInSec,
          interval: grant.intervalSec,
        }
      },
    },
    [ACCOUNT_PATHS.deviceToken]: {
      POST: async (event: H3Event): Promise<KeyCreated> => {
        const { device_code } = parseWith(DeviceTokenRequest, await readJson(event), 'device token request')
        const r = await accounts.devices.poll(device_code)
        if (r.status !== 'approved')
          throw new ServiceError(400, r.status as ErrorCode, NOT_APPROVED[r.status])
        return {
          id: r.record.id,
          name: r.record.name,
          key: r.key,
          prefix: r.record.prefix,
          user_id: r.record.user_id,
          created_at: r.record.created_at,
        }
      },
    },
    [ACCOUNT_PATHS.revokeSelf]: {
      POST: async (event: H3Event): Promise<KeyRevoked> => {
        // counted like every key route, so its answer carries RateLimit and RateLimit-Policy too
        const key = await guard(event, 'api')
        const revoked = await accounts.keys.revoke(key.user_id, key.id)
        return { id: revoked.id, revoked_at: revoked.revoked_at! }
      },
    },
    [ACCOUNT_PATHS.adminUsers]: {
      POST: async (event: H3Event): Promise<UserCreated> => {
        admin(event)
        const req = parseWith(UserCreateRequest, await readJson(event), 'user request')
        const { account, setupToken } = await accounts.registration.createByAdmin(
          req.email,
          !!req.admin,
          req.credits ?? null,
        )
        event.res.status = 201
        return {
          ...(await accountInfo(accounts, account)),
          setup_url: `${originOf(opts, event)}${pathFor(ACCOUNT_PATHS.invitePage, { token: setupToken })}`,
        }
      },
      GET: async (event: H3Event): Promise<UserList> => {
        admin(event)
        const all = (await accounts.db.listAccounts()).sort((a, b) =>
          a.created_at.localeCompare(b.created_at),
        )
        return { users: await Promise.all(all.map((a) => accountInfo(accounts, a))) }
      },
    },
    [ACCOUNT_PATHS.adminUserDisable]: {
      POST: async (event: H3Event): Promise<AccountInfo> => {
        admin(event)
        const who = decodeURIComponent(String(event.context.params?.user ?? ''))
        const account =
          (await accounts.db.findAccountByUser(who)) ??
          (await accounts.db.findAccountByEmail(who.toLowerCase()))
        if (!account) throw notFound('No account with this user id or email.')
        return await accountInfo(accounts, await accounts.disable(account.id))
      },
    },
    [ACCOUNT_PATHS.adminInvites]: {
      POST: async (event: H3Event): Promise<InviteCreated> => {
        admin(event)
        const req = parseWith(InviteCreateRequest, await readJson(event), 'invite request')
        const token = await accounts.invites.create(req)
        event.res.status = 201
        return {
          invite_url: `${originOf(opts, event)}${pathFor(ACCOUNT_PATHS.invitePage, { token })}`,
          expires_at: new Date(Date.now() + INVITE_TTL_MS).toISOString(),
        }
      },
    },
  }
}
