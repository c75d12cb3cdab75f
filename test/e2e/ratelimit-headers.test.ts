/**
 * docs/decisions.md#api-open-points: every authenticated answer carries `RateLimit` and `RateLimit-Policy`. This walks
 * every operation of the served /openapi.json that takes a bearer key (as a third-party contract
 * run would) and asks it twice with a valid key: once as a 4xx (an unknown id, an empty body) and
 * once as a 2xx where a request without set-up can succeed; both must carry the fields.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServe, type Served } from '../helpers/serve.js'

interface Operation {
  method: string
  path: string
  operationId: string
  security?: Array<Record<string, string[]>>
}

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000'

describe('RateLimit fields on every authenticated answer', () => {
  let serve: Served
  let ops: Operation[]
  beforeAll(async () => {
    serve = await startServe()
    const doc = await (await fetch(`${serve.url}/openapi.json`)).json()
    ops = []
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, any>>))
      for (const [method, op] of Object.entries(item)) {
        if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue
        const security = op.security ?? doc.security
        if (security?.some((s: Record<string, unknown>) => 'apiKey' in s))
          ops.push({ method: method.toUpperCase(), path, operationId: op.operationId, security })
      }
  }, 30_000)
  afterAll(() => serve?.stop())

  const call = (key: string, op: Operation, body?: unknown) =>
    fetch(serve.url + op.path.replace(/\{[^}]+\}/g, UNKNOWN_ID), {
      method: op.method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    })

  it('finds the key routes in the OpenAPI document, revokeOwnKey among them', () => {
    expect(ops.length).toBeGreaterThanOrEqual(10)
    expect(ops.map((o) => o.operationId)).toContain('revokeOwnKey')
  })

  it('4xx answers of every key route carry RateLimit and RateLimit-Policy', async () => {
    const { key } = await serve.createKey({ credits: 0 })
    const seen: string[] = []
    // a GET without parameters has no 4xx to give a valid key; the next test asks it for its 2xx
    const some = ops.filter(
      (o) => o.operationId !== 'revokeOwnKey' && (o.method !== 'GET' || o.path.includes('{')),
    )
    for (const op of some) {
      const res = await call(key, op, op.method === 'GET' || op.method === 'DELETE' ? undefined : {})
      await res.body?.cancel()
      const where = `${op.method} ${op.path} -> ${res.status}`
      expect(res.status, where).toBeGreaterThanOrEqual(400)
      expect(res.status, where).toBeLessThan(500)
      expect(res.headers.get('ratelimit'), where).toMatch(/^"\w+";r=\d+;t=\d+$/)
      expect(res.headers.get('ratelimit-policy'), where).toMatch(/^"\w+";q=\d+;w=\d+$/)
      seen.push(where)
    }
    expect(seen.length).toBe(some.length)
    expect(seen.length).toBeGreaterThanOrEqual(8)
  })

  it('2xx answers carry them too, the caller revoking its own key included', async () => {
    const { key } = await serve.createKey({ credits: 0 })
    const ok = ops.filter((o) => o.method === 'GET' && !o.path.includes('{'))
    expect(ok.length).toBeGreaterThanOrEqual(3)
    for (const op of ok) {
      const res = await call(key, op)
      await res.body?.cancel()
      const where = `${op.method} ${op.path} -> ${res.status}`
      expect(res.status, where).toBe(200)
      expect(res.headers.get('ratelimit'), where).toBeTruthy()
      expect(res.headers.get('ratelimit-policy'), where).toBeTruthy()
    }
    const revoke = ops.find((o) => o.operationId === 'revokeOwnKey')!
    const res = await call(key, revoke)
    expect(res.status).toBe(200)
    expect(res.headers.get('ratelimit')).toMatch(/^"api";r=\d+;t=\d+$/)
    expect(res.headers.get('ratelimit-policy')).toMatch(/^"api";q=\d+;w=\d+$/)
  })
})
