/**
 * Wire shapes of accounts (docs/decisions.md#accounts-and-the-dashboard): the device grant behind `sitehealth login` (shaped like
 * RFC 8628), a key revoking itself (`sitehealth logout`), and the admin API's users and invites.
 */
import { z } from 'zod'
import { KeyName } from './key-name.js'

export const ACCOUNT_PATHS = {
  deviceCode: '/api/auth/v1/device/code',
  deviceToken: '/api/auth/v1/device/token',
  /** Bearer key: revokes the key that calls it. */
  revokeSelf: '/api/auth/v1/key/revoke',
  adminUsers: '/api/admin/v1/users',
  adminUserDisable: '/api/admin/v1/users/:user/disable',
  adminInvites: '/api/admin/v1/invites',
  /** Dashboard pages the CLI points at. */
  devicePage: '/device',
  invitePage: '/invite/:token',
} as const

/** RFC 8628 §3.5 error codes, returned in our error envelope with status 400. */
export const DEVICE_ERRORS = ['authorization_pending', 'slow_down', 'access_denied', 'expired_token'] as const
export type DeviceError = (typeof DEVICE_ERRORS)[number]

export const DeviceCodeRequest = z.object({ name: KeyName }).meta({ id: 'DeviceCodeRequest' })
export type DeviceCodeRequest = z.infer<typeof DeviceCodeRequest>

export const DeviceCode = z
  .object({
    device_code: z.string(),
    user_code: z.string(),
    verification_uri: z.string(),
    verification_uri_complete: z.string(),
    expires_in: z.int(),
    interval: z.int(),
  })
  .meta({ id: 'DeviceCode' })
export type DeviceCode = z.infer<typeof DeviceCode>

export const DeviceTokenRequest = z
  .object({ device_code: z.string().min(1).max(200) })
  .meta({ id: 'DeviceTokenRequest' })
export type DeviceTokenRequest = z.infer<typeof DeviceTokenRequest>

export const UserCreateRequest = z
  .object({
    email: z.string().min(3).max(254),
    admin: z.boolean().optional(),
    credits: z.int().min(0).max(1_000_000_000).optional(),
  })
  .meta({ id: 'UserCreateRequest' })
export type UserCreateRequest = z.infer<typeof UserCreateRequest>

export const AccountInfo = z
  .object({
    user_id: z.string(),
    email: z.string(),
    admin: z.boolean(),
    disabled_at: z.string().nullable(),
    created_at: z.string(),
    credits_remaining: z.int(),
    /** false until the owner has set a password through the setup link. */
    password_set: z.boolean(),
  })
  .meta({ id: 'AccountInfo' })
export type AccountInfo = z.infer<typeof AccountInfo>

export const UserCreated = AccountInfo.extend({
  setup_url: z.string().meta({ description: 'One-time link where the owner sets a password (7 days).' }),
}).meta({ id: 'UserCreated' })
export type UserCreated = z.infer<typeof UserCreated>

export const UserList = z.object({ users: z.array(AccountInfo) }).meta({ id: 'UserList' })
export type UserList = z.infer<typeof UserList>

export const InviteCreateRequest = z
  .object({
    email: z.string().min(3).max(254).optional(),
    admin: z.boolean().optional(),
    credits: z.int().min(0).max(1_000_000_000).optional(),
  })
  .meta({ id: 'InviteCreateRequest' })
export type InviteCreateRequest = z.infer<typeof InviteCreateRequest>

export const InviteCreated = z
  .object({ invite_url: z.string(), expires_at: z.string() })
  .meta({ id: 'InviteCreated' })
export type InviteCreated = z.infer<typeof InviteCreated>
