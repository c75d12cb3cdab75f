/**
 * The node-level fast path of GET /credits answers exactly like the h3 route it stands in front of:
 * the same statuses, bodies and headers for success, a missing, malformed, unknown or revoked key
 * and a rate-limited key; key use is recorded; everything else reaches h3.
 */
import { randomUUID } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { toNodeHandler } from 'h3/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { displayPrefix, generateApiKey } from '../../src/contract/api-key.js'
import { createApp } from '../../src/server/app.js'
import { hashKey } from '../../src/contract/api-key.js'
import { DEFAULT_LIMITS, type ServerOptions } from '../../src/server/context.js'
import { withFastPath } from '../../src/server/fast-path.js'
import { RateLimiter } from '../../src/http/rate-limit.js'
import { openLowdbStore, type LowdbStore } from '../../src/store/index.js'
import { removeDir, tempDir } from '../store/helpers.js'

const CREDITS = '/api/public/v1/credits'

let dir: string
let store: LowdbStore
let fast: Server
let plain: Server
const logs: string[] = []

async function listen(handler: Parameters<typeof createServer>[1]): Promise<Server> {
  const s = createServer(handler)
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r))
  return s
}
const base = (s: Server) => `http://127.0.0.1:${(s.address() as AddressInfo).port}`

async function newKey(user: string): Promise<{ key: string; id: string }> {
  await store.users.ensure(user, 7)
  const key = generateApiKey()
  const id = randomUUID()
  await store.keys.create({
    id,
    name: 't',
    user_id: user,
    prefix: displayPrefix(key),
    hash: hashKey(key),
    created_at: new Date().toISOString(),
    last_used_at: null,
    revoked_at: null,
  })
  return { key, id }
}

async function get(s: Server, path: string, auth?: string, method = 'GET') {
  const res = await fetch(base(s) + path, { method, headers: auth ? { authorization: auth } : {} })
  const text = await res.text()
  // framing aside (h3 sends its error bodies chunked, the fast path with a length), and the
  // per-response date and id
  const skip = ['date', 'x-request-id', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']
  const headers = Object.fromEntries([...res.headers].filter(([k]) => !skip.includes(k)))
  const body = text ? JSON.parse(text) : undefined
  if (body?.error?.request_id) {
    expect(body.error.request_id).toBe(res.headers.get('x-request-id'))
    body.error.request_id = '(id)'
  }
  expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
  return { status: res.status, headers, body }
}

beforeAll(async () => {
  dir = await tempDir()
  store = await openLowdbStore(dir)
  const opts: ServerOptions = {
    store,
    initialCredits: 7,
    allowPrivateTargets: false,
    adminToken: 'x'.repeat(40),
    limits: { ...DEFAULT_LIMITS, apiLimit: 3, apiWindowSec: 60 },
    checkTimeoutMs: 1000,
    log: (line) => logs.push(line),
  }
  // one limiter per server, so each path counts its own requests below
  const { app } = createApp({ ...opts, limiter: new RateLimiter() })
  plain = await listen(toNodeHandler(app))
  const limiter = new RateLimiter()
  const { app: app2 } = createApp({ ...opts, limiter })
  fast = await listen(withFastPath({ ...opts, limiter }, limiter, toNodeHandler(app2)))
})

afterAll(async () => {
  for (const s of [fast, plain]) {
    s.closeAllConnections()
    await new Promise((r) => s.close(r))
  }
  await store.close()
  await removeDir(dir)
})

describe('GET /credits fast path', () => {
  it('answers like the h3 route: success, bad keys, revoked key, rate limit', async () => {
    const { key, id } = await newKey('fast')
    const revoked = await newKey('fast-revoked')
    await store.keys.revoke(revoked.id, new Date().toISOString())
    const cases = [
      undefined,
      'Basic abc',
      'Bearer shk_live_nope',
      `Bearer ${generateApiKey()}`,
      `Bearer ${revoked.key}`,
      `Bearer ${key}`,
    ]
    for (const auth of cases) {
      const viaH3 = await get(plain, CREDITS, auth)
      const viaFast = await get(fast, CREDITS, auth)
      expect(viaFast, String(auth)).toEqual(viaH3)
    }
    const ok = await get(fast, `${CREDITS}?x=1`, `Bearer ${key}`)
    expect(ok.status).toBe(200)
    expect(ok.body).toMatchObject({ credits_remaining: 7, plan: null })
    expect(ok.headers).toMatchObject({
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      'ratelimit-policy': '"api";q=3;w=60',
    })
    // each server has counted this key twice (fast) and once (h3): the third request is the last
    // allowed one on each, the fourth is refused alike
    expect((await get(fast, CREDITS, `Bearer ${key}`)).headers.ratelimit).toMatch(/^"api";r=0;t=\d+$/)
    expect((await get(plain, CREDITS, `Bearer ${key}`)).status).toBe(200)
    expect((await get(plain, CREDITS, `Bearer ${key}`)).headers.ratelimit).toMatch(/^"api";r=0;t=\d+$/)
    const fastLimited = await get(fast, CREDITS, `Bearer ${key}`)
    const h3Refused = await get(plain, CREDITS, `Bearer ${key}`)
    expect(fastLimited.status).toBe(429)
    expect(fastLimited).toEqual(h3Refused)
    expect(fastLimited.headers['retry-after']).toMatch(/^\d+$/)
    expect(fastLimited.body.error.code).toBe('rate_limited')
    // key use is recorded by the fast path too
    const used = (await store.keys.list()).find((k) => k.id === id)
    expect(used?.last_used_at).not.toBeNull()
    // one access-log line per request, in the same format
    expect(logs.at(-1)).toMatch(/^GET \/api\/public\/v1\/credits 429 \d+\.\dms [0-9a-f-]{36}$/)
    expect(logs.some((l) => /^GET \/api\/public\/v1\/credits 200 /.test(l))).toBe(true)
  })

  it('leaves other methods, HEAD and other paths to h3', async () => {
    const { key } = await newKey('fast-other')
    for (const [path, method] of [
      [CREDITS, 'POST'],
      [CREDITS, 'HEAD'],
      [`${CREDITS}/`, 'GET'],
      ['/api/public/v1/creditsx', 'GET'],
    ] as const) {
      const viaFast = await get(fast, path, `Bearer ${key}`, method)
      const viaH3 = await get(plain, path, `Bearer ${key}`, method)
      expect(viaFast.status, `${method} ${path}`).toBe(viaH3.status)
      expect(viaFast.body).toEqual(viaH3.body)
    }
  })
})
