import { once } from 'node:events'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { ApiError, SitehealthClient } from '../../src/client/client.js'
import { generateApiKey } from '../../src/contract/api-key.js'

/** A server answering each request with the next of `replies` (the last one repeats). */
async function scripted(replies: { status: number; headers?: Record<string, string>; body: unknown }[]) {
  let n = 0
  const server = createServer((req, res) => {
    const r = replies[Math.min(n++, replies.length - 1)]
    res.writeHead(r.status, { 'content-type': 'application/json', ...r.headers })
    res.end(JSON.stringify(r.body))
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests: () => n }
}

const busy = {
  status: 503,
  headers: { 'retry-after': '1' },
  body: { ok: false, error: { code: 'server_busy', message: 'Every check slot is taken.' } },
}
const balance = { status: 200, body: { user_id: 'u', credits_remaining: 3 } }
const KEY = generateApiKey()

describe('SitehealthClient waits out Retry-After', () => {
  let server: Server | undefined
  afterEach(() => void server?.close())

  it('on 503 server_busy: waits, tries again, and reports the wait', async () => {
    const s = await scripted([busy, balance])
    server = s.server
    const waits: [number, string][] = []
    const client = new SitehealthClient({
      baseUrl: s.url,
      apiKey: KEY,
      maxRetryWaitSeconds: 5,
      onRateLimitWait: (sec, code) => waits.push([sec, code]),
    })
    await expect(client.credits()).resolves.toMatchObject({ credits_remaining: 3 })
    expect(waits).toEqual([[1, 'server_busy']])
    expect(s.requests()).toBe(2)
  })

  it('on 503 service_unavailable: retries a GET after Retry-After, never a run (it may have been charged)', async () => {
    const down = {
      ...busy,
      body: { ok: false, error: { code: 'service_unavailable', message: 'The database did not answer.' } },
    }
    const s = await scripted([down, balance])
    server = s.server
    const waits: [number, string][] = []
    const client = new SitehealthClient({
      baseUrl: s.url,
      apiKey: KEY,
      maxRetryWaitSeconds: 5,
      onRateLimitWait: (sec, code) => waits.push([sec, code]),
    })
    await expect(client.credits()).resolves.toMatchObject({ credits_remaining: 3 })
    expect(waits).toEqual([[1, 'service_unavailable']])
    s.server.close()

    const t = await scripted([down, balance])
    server = t.server
    const runner = new SitehealthClient({ baseUrl: t.url, apiKey: KEY, maxRetryWaitSeconds: 5 })
    await expect(runner.runCheck('https://example.com/')).rejects.toMatchObject({
      status: 503,
      code: 'service_unavailable',
      retryAfter: 1,
    })
    expect(t.requests()).toBe(1)
  })

  it('does not retry another 503, nor when told not to wait', async () => {
    const other = { ...busy, body: { ok: false, error: { code: 'internal_error', message: 'x' } } }
    const s = await scripted([other, balance])
    server = s.server
    const client = new SitehealthClient({ baseUrl: s.url, apiKey: KEY, maxRetryWaitSeconds: 5 })
    await expect(client.credits()).rejects.toBeInstanceOf(ApiError)
    expect(s.requests()).toBe(1)
    s.server.close()

    const t = await scripted([busy, balance])
    server = t.server
    const eager = new SitehealthClient({ baseUrl: t.url, apiKey: KEY })
    await expect(eager.credits()).rejects.toMatchObject({ status: 503, code: 'server_busy', retryAfter: 1 })
    expect(t.requests()).toBe(1)
  })
})
