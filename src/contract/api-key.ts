/**
 * API key format (docs/decisions.md#names): `shk_live_` + a base62 secret from a CSPRNG + a 6-character base62
 * CRC32 of the secret. The checksum lets a client catch a typo before any request, and lets secret
 * scanners match our keys, as GitHub's token format does.
 */
import { hash, randomInt } from 'node:crypto'
import { crc32 } from 'node:zlib'

export const KEY_PREFIX = 'shk_live_'
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
const SECRET_LENGTH = 36
const CHECKSUM_LENGTH = 6
const KEY_PATTERN = new RegExp(`^${KEY_PREFIX}([0-9A-Za-z]{32,128})([0-9A-Za-z]{${CHECKSUM_LENGTH}})$`)

function base62(n: number, width: number): string {
  let out = ''
  do {
    out = ALPHABET[n % 62] + out
    n = Math.floor(n / 62)
  } while (n > 0)
  return out.padStart(width, '0')
}

/** The stored form of a key: its SHA-256 in hex (one-shot `crypto.hash`: no Hash object per request). */
export const hashKey = (key: string): string => hash('sha256', key)

export function checksum(secret: string): string {
  return base62(crc32(secret), CHECKSUM_LENGTH)
}

export function generateApiKey(): string {
  let secret = ''
  for (let i = 0; i < SECRET_LENGTH; i++) secret += ALPHABET[randomInt(62)]
  return KEY_PREFIX + secret + checksum(secret)
}

/** True when the key has our shape and its checksum matches: a cheap, offline typo check. */
export function isWellFormedApiKey(key: string): boolean {
  const m = KEY_PATTERN.exec(key)
  return m !== null && checksum(m[1]) === m[2]
}

/** What is safe to show of a key: the prefix and the first characters of the secret. */
export function displayPrefix(key: string): string {
  return key.slice(0, KEY_PREFIX.length + 6)
}
