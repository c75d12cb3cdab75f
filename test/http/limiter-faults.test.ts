/**
 * A silent Redis (frozen, or cut off by a partition) never errs: each rate-limit count must still
 * end within the limiter's timeout, counted by this instance's fallback limiter, and Redis takes
 * over again when it answers (docs/decisions.md#faults). Redis stays untouched: a TCP proxy stalls.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { openLimiter, type OpenLimiter } from '../../src/http/limiter-store.js'
import type { Store } from '../../src/store/types.js'
import { describeRedis, dropPrefix, REDIS_URL, uniquePrefix } from '../helpers/redis.js'
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.js'

const POLICY = { name: 'api', limit: 5, windowMs: 60_000 }

describeRedis('rate limits on a silent Redis', () => {
  let proxy: TcpProxy
  let open: OpenLimiter
  const prefix = uniquePrefix()
  beforeAll(async () => {
    const u = new URL(REDIS_URL)
    proxy = await startTcpProxy({ host: u.hostname, port: Number(u.port || 6379) })
    open = await openLimiter(
      {
        store: { backend: 'lowdb' } as unknown as Store,
        redisUrl: proxy.via(REDIS_URL),
        redisPrefix: prefix,
        timeoutMs: 300,
      },
      [POLICY],
    )
  })
  afterAll(async () => {
    proxy.resume()
    await open?.close()
    await proxy?.close()
    await dropPrefix(prefix)
  })

  it('answers within the timeout from the fallback limiter while Redis is frozen, and limits there too', async () => {
    expect((await open.limiter.hit('k1', POLICY)).allowed).toBe(true)
    proxy.stall()
    const t0 = Date.now()
    const decisions = []
    for (let i = 0; i < 7; i++) decisions.push(await open.limiter.hit('k2', POLICY))
    // seven counts, each bounded by the 300 ms timeout (before: each waited for Redis to wake up)
    expect(Date.now() - t0).toBeLessThan(7 * 300 + 1500)
    expect(decisions.filter((d) => d.allowed)).toHaveLength(5)
    expect(decisions[6].allowed).toBe(false)
    proxy.resume()
    await expect
      .poll(async () => (await open.limiter.hit('k3', POLICY)).remaining, { timeout: 5000 })
      .toBeLessThan(5)
  })
})
