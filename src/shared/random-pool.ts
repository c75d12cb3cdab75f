/**
 * Random bytes from the CSPRNG, drawn 4 KiB at a time: a call per id (uuid7, once or twice a run)
 * went to OpenSSL each time for 16 bytes. Every byte is handed out once; the pool is refilled when
 * spent, as Node's own `randomUUID` does with its cache.
 */
import { randomFillSync } from 'node:crypto'

const POOL_BYTES = 4096
const pool = Buffer.allocUnsafe(POOL_BYTES)
let next = POOL_BYTES

/** Fills `target` with random bytes (at most 4 KiB at once). */
export function fillRandom(target: Buffer): Buffer {
  const n = target.length
  if (n > POOL_BYTES) return randomFillSync(target)
  if (next + n > POOL_BYTES) {
    randomFillSync(pool)
    next = 0
  }
  pool.copy(target, 0, next, next + n)
  // what was handed out is not left in the pool
  pool.fill(0, next, next + n)
  next += n
  return target
}

/** `n` random bytes as lowercase hex. */
export function randomHex(n: number): string {
  return fillRandom(Buffer.allocUnsafe(n)).toString('hex')
}
