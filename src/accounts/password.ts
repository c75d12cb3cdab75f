/**
 * Password hashing with scrypt from node:crypto: memory-hard, built into Node (nothing to compile
 * or download, unlike the argon2 bindings), run on libuv's thread pool so a sign-in never blocks
 * the event loop. Parameters are OWASP's Password Storage Cheat Sheet minimum for scrypt
 * (N=2^17, r=8, p=1: 128 MiB and roughly 0.1-0.4 s per hash) and are stored with each hash, so
 * they can be raised later without invalidating existing passwords.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto'

export interface ScryptCost {
  logN: number
  r: number
  p: number
}
export const DEFAULT_COST: ScryptCost = { logN: 17, r: 8, p: 1 }
const KEY_LENGTH = 32
export const MIN_PASSWORD_LENGTH = 10
export const MAX_PASSWORD_LENGTH = 256

function derive(password: string, salt: Buffer, logN: number, r: number, p: number): Promise<Buffer> {
  const opts: ScryptOptions = { N: 2 ** logN, r, p, maxmem: 256 * 2 ** logN * r }
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, opts, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  )
}

/** `cost` is for tests only (a lower cost keeps them quick); the stored hash records it. */
export async function hashPassword(password: string, cost: ScryptCost = DEFAULT_COST): Promise<string> {
  const salt = randomBytes(16)
  const key = await derive(password, salt, cost.logN, cost.r, cost.p)
  return `scrypt$${cost.logN}$${cost.r}$${cost.p}$${salt.toString('base64url')}$${key.toString('base64url')}`
}

/**
 * Constant-time comparison; false for anything that is not one of our hashes. Without a stored
 * hash (unknown email, no password yet) a dummy of the same cost is verified, so a sign-in takes
 * as long whether the account exists or not (no account enumeration by timing).
 */
export async function verifyPassword(
  password: string,
  stored: string | null,
  cost: ScryptCost = DEFAULT_COST,
): Promise<boolean> {
  const dummy = `scrypt$${cost.logN}$${cost.r}$${cost.p}$${ZERO_SALT}$${ZERO_KEY}`
  const parts = (stored ?? dummy).split('$')
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false
  const [, logN, r, p, salt, key] = parts
  // bounds on what a stored hash may ask for: a tampered record must not exhaust memory
  if (!(
    Number(logN) >= 12 &&
    Number(logN) <= 20 &&
    Number(r) >= 1 &&
    Number(r) <= 32 &&
    Number(p) >= 1 &&
    Number(p) <= 16
  ))
    return false
  const expected = Buffer.from(key, 'base64url')
  const actual = await derive(password, Buffer.from(salt, 'base64url'), Number(logN), Number(r), Number(p))
  return actual.length === expected.length && timingSafeEqual(actual, expected) && stored !== null
}

const ZERO_SALT = Buffer.alloc(16).toString('base64url')
const ZERO_KEY = Buffer.alloc(KEY_LENGTH).toString('base64url')

/** Why a new password is refused, or null (NIST SP 800-63B: length, not composition rules). */
export function passwordProblem(password: string, email?: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH)
    return `The password must be at least ${MIN_PASSWORD_LENGTH} characters long.`
  if (password.length > MAX_PASSWORD_LENGTH)
    return `The password must be at most ${MAX_PASSWORD_LENGTH} characters long.`
  if (email && password.toLowerCase() === email.toLowerCase()) return 'The password must not be your email.'
  return null
}
