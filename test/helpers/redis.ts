/**
 * Redis for tests (docs/decisions.md#scale-out: the CI machine runs one on 127.0.0.1:6379): each test uses its own
 * key prefix and deletes its keys after. Where no Redis answers, the tests are skipped with one
 * line; with CI set they fail instead.
 */
import { randomBytes } from 'node:crypto'
import { Redis } from 'ioredis'
import { describeNeeding } from './needs.js'

export const REDIS_URL = process.env.SITEHEALTH_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'

async function answers(): Promise<string | undefined> {
  const c = new Redis(REDIS_URL, { lazyConnect: true, connectTimeout: 3000, maxRetriesPerRequest: 0 })
  c.on('error', () => {})
  try {
    await c.connect()
    await c.ping()
    return undefined
  } catch (err) {
    return (err as Error).message
  } finally {
    c.disconnect()
  }
}

const problem = await answers()
const missing = problem && `no Redis at ${REDIS_URL} (${problem})`

/** describe() when Redis answers; else a one-line skip, or (CI set) a failing test. */
export function describeRedis(name: string, fn: () => void): void {
  describeNeeding('Redis', missing, name, fn)
}

export const uniquePrefix = () =>
  `sitehealth_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`

/** Deletes every key under `prefix`. */
export async function dropPrefix(prefix: string): Promise<void> {
  const c = new Redis(REDIS_URL)
  try {
    const keys = await c.keys(`${prefix}:*`)
    if (keys.length) await c.del(...keys)
  } finally {
    c.disconnect()
  }
}
