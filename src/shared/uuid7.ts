/**
 * UUIDv7 (RFC 9562 §5.7): a 48-bit Unix millisecond timestamp, then random bits. The store uses the
 * check's created_at as the timestamp, so an id alone tells which shard holds the check.
 */
import { fillRandom } from './random-pool.js'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/**
 * Any UUID, any version, either case: what an id parameter or a stored id must look like (ids made
 * here are UUIDv7, ids from elsewhere need not be). The one test of that in src/.
 */
export const isUuid = (s: string): boolean => UUID.test(s)

const UUID7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

export function uuidv7(ms: number): string {
  if (!Number.isSafeInteger(ms) || ms < 0 || ms > 0xffff_ffff_ffff)
    throw new RangeError(`bad UUIDv7 time ${ms}`)
  const b = fillRandom(Buffer.allocUnsafe(16))
  b.writeUIntBE(ms, 0, 6)
  b[6] = 0x70 | (b[6] & 0x0f) // version 7
  b[8] = 0x80 | (b[8] & 0x3f) // variant 10
  const h = b.toString('hex')
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`
}

/** The millisecond timestamp of a UUIDv7 (case-insensitive), or undefined for anything else. */
export function uuidv7Time(id: string): number | undefined {
  const s = id.toLowerCase()
  if (!UUID7.test(s)) return undefined
  return parseInt(s.slice(0, 8) + s.slice(9, 13), 16)
}
