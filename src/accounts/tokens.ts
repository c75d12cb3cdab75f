/** Random tokens handed out once (session cookies, invite links, device codes) and their stored hashes. */
import { createHash, randomBytes, randomInt } from 'node:crypto'

export const newToken = () => randomBytes(32).toString('base64url')
export const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex')

/**
 * RFC 8628 §6.1: a short code a person can read and type: 8 characters from 20 consonants
 * (no vowels, so no words; no look-alikes), shown as XXXX-XXXX.
 */
const USER_CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ'
export function newUserCode(): string {
  let s = ''
  for (let i = 0; i < 8; i++) s += USER_CODE_ALPHABET[randomInt(USER_CODE_ALPHABET.length)]
  return `${s.slice(0, 4)}-${s.slice(4)}`
}
/** What the user typed, normalised: case and separators do not matter. */
export function normaliseUserCode(input: string): string | null {
  const s = input.toUpperCase().replace(/[^A-Z]/g, '')
  if (s.length !== 8 || [...s].some((c) => !USER_CODE_ALPHABET.includes(c))) return null
  return `${s.slice(0, 4)}-${s.slice(4)}`
}

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}$/
/** Lower-cased and trimmed, or null when it is not an email address. */
export function normaliseEmail(input: string): string | null {
  const e = input.trim().toLowerCase()
  return e.length <= 254 && EMAIL.test(e) && /\.[^.@]+$/.test(e.split('@')[1]) ? e : null
}
