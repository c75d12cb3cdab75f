/**
 * A real `serve` whose rate-limit windows live in Redis, through a TCP proxy the test controls
 * (the shared Redis is never touched): a silent Redis (frozen, partitioned) and a Redis that
 * refuses must not stop the API. Authenticated requests are answered by the in-process limiter
 * within `--redis-timeout`, /ready says `degraded` (200), and all is as before once Redis is back.
 * FAULTS_VERBOSE=1 prints what a client saw (docs/operations.md).
 */
import { afterEach, expect, it } from 'vitest'
import { startServe } from '../helpers/serve.js'
import { startTcpProxy } from '../helpers/tcp-proxy.js'
import {
  client,
  countingSite,
  during,
  measure,
  summary,
  timed,
  until,
  type Timed,
} from '../helpers/fault-kit.js'
import { REDIS_URL, describeRedis, dropPrefix, uniquePrefix } from '../helpers/redis.js'

const teardown: Array<() => Promise<unknown>> = []
afterEach(async () => {
  for (const t of teardown.splice(0).reverse()) await t().catch(() => {})
})

function expectAnswered(replies: Timed[], boundMs: number, where: string) {
  for (const r of replies) {
    const what = `${where}: ${r.status} in ${Math.round(r.ms)} ms ${r.error ?? JSON.stringify(r.json).slice(0, 200)}`
    expect(r.status, what).toBe(200)
    expect(r.ms, what).toBeLessThan(boundMs)
  }
}

describeRedis('serve with Redis through a proxy that fails', () => {
  it('a stalled, then refusing Redis: authenticated requests are answered by the fallback limiter, /ready is degraded', async () => {
    const u = new URL(REDIS_URL)
    const proxy = await startTcpProxy({ host: u.hostname, port: Number(u.port || 6379) })
    teardown.push(() => proxy.close())
    const prefix = uniquePrefix()
    teardown.push(() => dropPrefix(prefix))
    const site = await countingSite()
    teardown.push(() => site.close())
    const served = await startServe({
      args: ['--redis-url', proxy.via(REDIS_URL), '--redis-prefix', prefix, '--redis-timeout', '1'],
    })
    teardown.push(() => served.stop())
    const { key } = await served.createKey({ user: 'redis-faults', credits: 100 })
    const call = client(served.url, key)
    expect((await call('GET', '/credits')).status).toBe(200)
    const ready = await timed(`${served.url}/api/public/v1/ready`)
    expect(ready.json.dependencies.map((d: { name: string }) => d.name)).toEqual(['disk', 'redis'])
    expect(ready.json.status).toBe('ready')

    proxy.stall()
    const stalled = await during(3000, () => call('GET', '/credits'))
    const run = await call('POST', '/checks/run', { url: site.url('/x') })
    const readyStalled = await timed(`${served.url}/api/public/v1/ready`)
    proxy.resume()
    // --redis-timeout is 1 s: every count waits at most that, then this instance decides
    expectAnswered([...stalled, run], 2500, 'Redis stalled')
    expect(run.json.ok).toBe(true)
    expect(readyStalled.status).toBe(200)
    expect(readyStalled.ms).toBeLessThan(1500)
    expect(readyStalled.json.status).toBe('degraded')
    expect(readyStalled.json.dependencies[1]).toMatchObject({
      name: 'redis',
      status: 'down',
      required: false,
    })

    await proxy.refuse()
    const refused = await during(2000, () => call('GET', '/credits'))
    await proxy.accept()
    expectAnswered(refused, 2500, 'Redis refusing')

    const back = await until(
      async () => (await timed(`${served.url}/api/public/v1/ready`)).json?.status === 'ready',
      15_000,
      'Redis to be ready again',
      200,
    )
    expect((await call('GET', '/credits')).status).toBe(200)
    expect(served.proc.exitCode).toBeNull()
    measure('redis-stall-and-refuse', {
      stalled: summary(stalled),
      run_while_stalled_ms: Math.round(run.ms),
      ready_while_stalled_ms: Math.round(readyStalled.ms),
      refused: summary(refused),
      ready_again_after_ms: Math.round(back.ms),
    })
  }, 60_000)
})
