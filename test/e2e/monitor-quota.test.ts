/**
 * Issue 31 item 6 against a real `serve` (docs/monitoring.md#how-many-monitors): an account has at
 * most --max-monitors-per-account monitors of every type and creates at most
 * --monitor-create-rate a minute, through the API and the dashboard's forms alike. Past the cap:
 * 409 `conflict`, nothing stored, nothing charged; past the rate: 429 `rate_limited` with
 * Retry-After. Creates racing each other (and, on PostgreSQL, racing over two instances) cannot
 * pass the cap.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServe, type Served } from '../helpers/serve.js'
import { describePg, freshDatabase } from '../store/postgres/pg.js'

const LIMITS = ['--max-monitors-per-account', '3', '--monitor-create-rate', '5', '--rate-limit', '100000']
const PW = 'correct horse battery'
const HEARTBEAT = { type: 'heartbeat', interval_seconds: 300, grace_seconds: 60 }

interface Answer {
  status: number
  body: any
  headers: Headers
}

async function api(base: string, key: string, method: string, path: string, body?: unknown): Promise<Answer> {
  const res = await fetch(`${base}/api/public/v1${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await res.text()
  return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers }
}

const count = async (base: string, key: string) =>
  (await api(base, key, 'GET', '/monitors?limit=50')).body.monitors.length as number
const credits = async (base: string, key: string) =>
  (await api(base, key, 'GET', '/credits')).body.credits_remaining as number

/** A signed-up dashboard visitor: a cookie jar, the form token, form posts. */
function visitor(base: string) {
  const jar = new Map<string, string>()
  let csrf = ''
  const keep = async (res: Response) => {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';')
      const i = pair.indexOf('=')
      jar.set(pair.slice(0, i), pair.slice(i + 1))
    }
    const body = await res.text()
    csrf = /name="_csrf" value="([^"]+)"/.exec(body)?.[1] ?? csrf
    return { status: res.status, body, headers: res.headers }
  }
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ')
  return {
    get: async (path: string) =>
      keep(await fetch(base + path, { headers: { cookie: cookie() }, redirect: 'manual' })),
    async post(path: string, fields: Record<string, string>) {
      if (!csrf) await this.get('/')
      return keep(
        await fetch(base + path, {
          method: 'POST',
          redirect: 'manual',
          headers: { cookie: cookie(), 'content-type': 'application/x-www-form-urlencoded', origin: base },
          body: new URLSearchParams({ ...fields, _csrf: csrf }).toString(),
        }),
      )
    },
  }
}

describe('monitors per account and creates per minute (embedded)', () => {
  let served: Served
  beforeAll(async () => {
    served = await startServe({ args: ['--signup', 'open', '--quiet', ...LIMITS] })
  }, 60_000)
  afterAll(async () => served?.stop())

  it('refuses the monitor past the cap with 409 conflict naming it: heartbeats count, nothing stored or charged', async () => {
    const { key } = await served.createKey({ user: 'alice', credits: 10 })
    for (let i = 0; i < 3; i++)
      expect(
        (await api(served.url, key, 'POST', '/monitors', { ...HEARTBEAT, name: `job ${i}` })).status,
      ).toBe(201)
    const before = await credits(served.url, key)
    const over = await api(served.url, key, 'POST', '/monitors', {
      url: `${served.url}/health`,
      name: 'one more',
    })
    expect(over.status).toBe(409)
    expect(over.body.ok).toBe(false)
    expect(over.body.error.code).toBe('conflict')
    expect(over.body.error.message).toContain('limit of 3 monitors')
    const hb = await api(served.url, key, 'POST', '/monitors', { ...HEARTBEAT, name: 'job 4' })
    expect(hb.status).toBe(409)
    expect(await count(served.url, key)).toBe(3)
    // the refused http monitor never ran: nothing was charged
    await new Promise((r) => setTimeout(r, 1500))
    expect(await credits(served.url, key)).toBe(before)
    // a delete makes room again
    const [first] = (await api(served.url, key, 'GET', '/monitors')).body.monitors
    expect((await api(served.url, key, 'DELETE', `/monitors/${first.id}`)).status).toBe(204)
    expect((await api(served.url, key, 'POST', '/monitors', { ...HEARTBEAT, name: 'again' })).status).toBe(
      201,
    )
  })

  it('refuses creates past the minute’s rate with 429 rate_limited and Retry-After', async () => {
    const { key } = await served.createKey({ user: 'bob' })
    for (let i = 0; i < 5; i++) {
      const made = await api(served.url, key, 'POST', '/monitors', { ...HEARTBEAT, name: `b${i}` })
      expect(made.status).toBe(201)
      // deleting keeps bob under the cap: the rate counts monitors made, not monitors held
      expect((await api(served.url, key, 'DELETE', `/monitors/${made.body.id}`)).status).toBe(204)
    }
    const limited = await api(served.url, key, 'POST', '/monitors', { ...HEARTBEAT, name: 'b5' })
    expect(limited.status).toBe(429)
    expect(limited.body.error.code).toBe('rate_limited')
    expect(limited.body.error.message).toContain('at most 5 a minute')
    const wait = Number(limited.headers.get('retry-after'))
    expect(wait).toBeGreaterThanOrEqual(1)
    expect(wait).toBeLessThanOrEqual(60)
    expect(await count(served.url, key)).toBe(0)
  })

  it('lets exactly the cap through when creates race', async () => {
    const { key } = await served.createKey({ user: 'dave' })
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        api(served.url, key, 'POST', '/monitors', { ...HEARTBEAT, name: `d${i}` }),
      ),
    )
    const statuses = answers.map((a) => a.status)
    expect(statuses.filter((s) => s === 201)).toHaveLength(3)
    expect(statuses.every((s) => s === 201 || s === 409 || s === 429)).toBe(true)
    expect(await count(served.url, key)).toBe(3)
  })

  it('holds the dashboard’s forms to the same cap and rate, as page errors', async () => {
    const v = visitor(served.url)
    expect((await v.post('/sign-up', { email: 'carol@example.com', password: PW })).status).toBe(303)
    expect((await v.post('/sign-in', { email: 'carol@example.com', password: PW })).status).toBe(303)
    await v.get('/monitors') // the signed-in session's form token
    const heartbeat = (name: string) =>
      v.post('/monitors/heartbeat', { name, interval_seconds: '300', grace_minutes: '5' })
    const ids: string[] = []
    for (let i = 0; i < 3; i++) {
      const made = await heartbeat(`c${i}`)
      expect(made.status).toBe(200)
      ids.push(/\/monitors\/([0-9a-f-]{36})/.exec(made.body)![1])
    }
    const capped = await heartbeat('c3')
    expect(capped.status).toBe(409)
    expect(capped.body).toContain('limit of 3 monitors')
    const http = await v.post('/monitors', {
      url: `${served.url}/health`,
      name: 'web',
      interval_seconds: '300',
    })
    expect(http.status).toBe(409)
    expect(http.body).toContain('limit of 3 monitors')
    // two more creates fit in the minute (refusals gave their places back), the third does not
    for (let i = 0; i < 2; i++) {
      expect((await v.post(`/monitors/${ids.pop()}/delete`, {})).status).toBe(303)
      expect((await heartbeat(`refill ${i}`)).status).toBe(200)
    }
    expect((await v.post(`/monitors/${ids.pop()}/delete`, {})).status).toBe(303)
    const limited = await heartbeat('one-too-many')
    expect(limited.status).toBe(429)
    expect(limited.body).toContain('Too many monitors created')
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    const list = await v.get('/monitors')
    expect(list.body).not.toContain('one-too-many')
  })
})

describePg('monitors per account on PostgreSQL, two instances', () => {
  const ADMIN = 'test-admin-token-0123456789abcdef0123456789'
  let db: Awaited<ReturnType<typeof freshDatabase>>
  const served: Served[] = []
  beforeAll(async () => {
    db = await freshDatabase()
    const start = () =>
      startServe({
        args: ['--database-url', db.url, '--quiet', ...LIMITS],
        env: { SITEHEALTH_ADMIN_TOKEN: ADMIN },
      })
    served.push(await start())
    served.push(await start())
  }, 90_000)
  afterAll(async () => {
    for (const s of served) await s.stop().catch(() => {})
    await db?.drop()
  })

  it('counts the cap and the rate across instances: racing creates on both pass neither', async () => {
    const [a, b] = served
    const { key } = await a.createKey({ user: 'erin' })
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        api(i % 2 ? a.url : b.url, key, 'POST', '/monitors', { ...HEARTBEAT, name: `e${i}` }),
      ),
    )
    const statuses = answers.map((x) => x.status)
    expect(statuses.filter((s) => s === 201)).toHaveLength(3)
    expect(statuses.every((s) => s === 201 || s === 409 || s === 429)).toBe(true)
    expect(await count(b.url, key)).toBe(3)
    // the minute's count is shared: 3 made, 2 left between both instances
    const { key: k2 } = await b.createKey({ user: 'frank' })
    const made: number[] = []
    for (let i = 0; i < 6; i++) {
      const r = await api(i % 2 ? a.url : b.url, k2, 'POST', '/monitors', { ...HEARTBEAT, name: `f${i}` })
      made.push(r.status)
      if (r.status === 201) await api(a.url, k2, 'DELETE', `/monitors/${r.body.id}`)
    }
    expect(made).toEqual([201, 201, 201, 201, 201, 429])
  })
})
