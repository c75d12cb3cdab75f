/**
 * What every part of accounts shares: the stores, the clock, the password cost, the links' and
 * sessions' lifetimes, and the one way a refusal is raised (shared/domain-error.ts).
 */
import { DomainError, type DomainErrorDetails, type DomainErrorKind } from '../shared/index.js'
import type { AccountStore, Store } from '../store/types.js'
import type { ScryptCost } from './password.js'

export const SIGNUP_POLICIES = ['open', 'invite', 'closed'] as const
export type SignupPolicy = (typeof SIGNUP_POLICIES)[number]

/** Sessions last a week; signing in again starts a new one. */
export const SESSION_TTL_MS = 7 * 24 * 3600_000
/** Invite and set-password links. */
export const INVITE_TTL_MS = 7 * 24 * 3600_000
/** One answer for a link that was used (a lost race too), expired or never existed. */
export const INVALID_LINK =
  'This link was already used, has expired or is invalid: ask an administrator for a new one.'

/** Why accounts refuse, each with the kind of refusal it is. */
const KINDS = {
  invalid_credentials: 'forbidden',
  throttled: 'forbidden',
  signup_closed: 'forbidden',
  signed_out: 'forbidden',
  // refused as input (the API's 400): an admin typed an address that already has an account
  email_taken: 'invalid',
  invalid_email: 'invalid',
  weak_password: 'invalid',
  invalid_name: 'invalid',
  invalid_link: 'not_found',
  not_found: 'not_found',
  invalid_code: 'not_found',
} as const satisfies Record<string, DomainErrorKind>

export type AccountErrorCode = keyof typeof KINDS

/** The field each input refusal names. */
const FIELDS: Partial<Record<AccountErrorCode, string>> = {
  invalid_email: 'email',
  weak_password: 'password',
  invalid_name: 'name',
  email_taken: 'email',
}

/** An accounts refusal: a DomainError whose code says which. */
export function refused(code: AccountErrorCode, message: string, retryAfterSec?: number): DomainError {
  const details: DomainErrorDetails = { code, field: FIELDS[code] }
  if (retryAfterSec !== undefined) details.retryAfterSec = retryAfterSec
  return new DomainError(KINDS[code], message, details)
}

/** "Try again in N minutes", for a throttle's wait in seconds. */
export const minutesLeft = (waitSec: number) => `${Math.ceil(waitSec / 60)} minute${waitSec > 60 ? 's' : ''}`

/** The stores, clock and cost every part works with. */
export interface AccountsCore {
  store: Store
  db: AccountStore
  initialCredits: number
  cost: ScryptCost
  /** Now, or now plus an offset, as ISO 8601. */
  iso(offsetMs?: number): string
}
