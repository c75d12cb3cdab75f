/**
 * The dashboard attacks of issue 21 over HTTP against a real `serve`, as curl would make them:
 * open redirects through `next`, account enumeration through sign-up, lock-out behind a reverse
 * proxy (`--trust-proxy`), guessing the current password, guessing device codes, and a
 * requester-chosen key name on the approval page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { safeNext } from '../../src/dashboard/http.js'
import { startServe, type Served } from '../helpers/serve.js'

const PW = 'correct horse battery'

/** A cookie jar and form poster for one visitor (optionally behind a given X-Forwarded-For). */
function visitor(base: string, forwardedFor?: string) {
  const jar = new Map<string, string>()
  const headers = () => ({
    cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '),
    ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}),
  })
  const keep = (res: Response) => {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';')
      const i = pair.indexOf('=')
      const value = pair.slice(i + 1)
      if (value === '' || /Max-Age=0/.test(c)) jar.delete(pair.slice(0, i))
      else jar.set(pair.slice(0, i), value)
    }
    return res
  }
  let csrf = ''
  return {
    jar,
    async get(path: string) {
      const res = keep(await fetch(base + path, { headers: headers(), redirect: 'manual' }))
      const body = await res.text()
      csrf = /name="_csrf" value="([^"]+)"/.exec(body)?.[1] ?? csrf
      return { res, body }
    },
    async post(path: string, fields: Record<string, string>) {
      if (!csrf) await this.get(path.startsWith('/invite/') ? path : '/')
      const res = keep(
        await fetch(base + path, {
          method: 'POST',
          redirect: 'manual',
          headers: { ...headers(), 'content-type': 'application/x-www-form-urlencoded', origin: base },
          body: new URLSearchParams({ ...fields, _csrf: csrf }).toString(),
        }),
      )
      const body = await res.text()
      csrf = /name="_csrf" value="([^"]+)"/.exec(body)?.[1] ?? csrf
      return { res, body }
    },
    async signIn(email: string, password = PW, next?: string) {
      await this.get('/')
      return this.post('/sign-in', { email, password, ...(next === undefined ? {} : { next }) })
    },
  }
}

describe('safeNext', () => {
  const origin = 'http://127.0.0.1:8787'
  it('keeps on-site paths, query and fragment', () => {
    expect(safeNext('/checks?cursor=x#top', origin)).toBe('/checks?cursor=x#top')
    expect(safeNext('/monitors/abc', origin)).toBe('/monitors/abc')
  })
  it('never leaves the site, whatever a browser would make of the value', () => {
    const hostile = [
      '//evil.example',
      '/\\evil.example',
      '/\t/evil.example',
      '/\n/evil.example',
      '/\r\n/evil.example',
      '\t//evil.example',
      '/%09/evil.example',
      '/./\\evil.example',
      '/.//evil.example',
      'https://evil.example/',
      'javascript:alert(1)',
      '/\u0000/evil.example',
      '  //evil.example',
    ]
    for (const next of hostile) {
      const kept = safeNext(next, origin)
      const resolved = new URL(kept, origin)
      expect(resolved.origin, JSON.stringify(next)).toBe(origin)
      expect(kept.startsWith('//'), JSON.stringify(next)).toBe(false)
      expect(kept, JSON.stringify(next)).toMatch(/^\/[^\\\s]*$/)
    }
  })
  it('gives a header-safe value for anything (no 500 on non-ASCII or broken escapes)', () => {
    for (const next of ['/ü', '/%E0%A4%A', '/\u2028', '/😀?q=ä', '/%', '/\uD800'])
      expect(() => new Headers({ location: safeNext(next, origin) }), JSON.stringify(next)).not.toThrow()
  })
})

// every sign-in and sign-up runs scrypt at the production cost, on a shared machine
describe('dashboard attacks over HTTP', { timeout: 180_000 }, () => {
  let serve: Served
  beforeAll(async () => {
    serve = await startServe({ args: ['--signup', 'open'] })
  }, 30_000)
  afterAll(() => serve?.stop())

  it('sign-in with a hostile next redirects on-site only and never answers 500', async () => {
    const v = visitor(serve.url)
    expect((await v.post('/sign-up', { email: 'nx@example.com', password: PW })).res.status).toBe(303)
    // five: more concurrent sign-ins than the account's budget would be throttled (each is counted first)
    const hostile = ['/\t/evil.example', '/\\evil.example', '/ü', '/%E0%A4%A', '/\n/x']
    const answers = await Promise.all(
      hostile.map((next) => visitor(serve.url).signIn('nx@example.com', PW, next)),
    )
    for (const [i, next] of hostile.entries()) {
      const { res } = answers[i]
      expect(res.status, JSON.stringify(next)).toBe(303)
      expect(new URL(res.headers.get('location')!, serve.url).origin, JSON.stringify(next)).toBe(serve.url)
    }
  })

  it('open sign-up answers the same whether or not the email has an account', async () => {
    const first = await visitor(serve.url).post('/sign-up', { email: 'enum@example.com', password: PW })
    const answers = []
    for (const email of ['enum@example.com', ' ENUM@example.com ', 'fresh@example.com']) {
      const v = visitor(serve.url)
      const { res, body } = await v.post('/sign-up', { email, password: 'some other password' })
      answers.push({
        status: res.status,
        location: res.headers.get('location'),
        body,
        session: v.jar.has('sh_session'),
      })
    }
    expect(first.res.status).toBe(303)
    expect(answers[0]).toEqual(answers[2])
    expect(answers[1]).toEqual(answers[2])
    const page = await visitor(serve.url).get(answers[0].location!)
    expect(page.body).not.toMatch(/already exists/i)
  })

  it('password change is throttled and a run of wrong guesses signs the session out', async () => {
    const v = visitor(serve.url)
    await v.post('/sign-up', { email: 'pw@example.com', password: PW })
    expect((await v.signIn('pw@example.com')).res.status).toBe(303)
    await v.get('/account')
    const statuses: number[] = []
    for (let i = 0; i < 8; i++)
      statuses.push(
        (await v.post('/account/password', { current: `guess ${i} xxxxx`, password: 'new password 123' })).res
          .status,
      )
    expect(statuses.slice(0, 4)).toEqual([400, 400, 400, 400])
    expect(statuses).toContain(429)
    // signed out: the account page sends the visitor to sign in
    expect((await v.get('/account')).res.status).toBe(303)
  })

  it('the approval page shows the requester-chosen name as labelled, quoted data with where and when', async () => {
    const v = visitor(serve.url)
    await v.post('/sign-up', { email: 'dev@example.com', password: PW })
    await v.signIn('dev@example.com')
    const started = await fetch(`${serve.url}/api/auth/v1/device/code`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Approve: Security team says OK' }),
    })
    const { user_code } = await started.json()
    const { res, body } = await v.get(`/device?code=${user_code}`)
    expect(res.status).toBe(200)
    expect(body).toMatch(/Key name, as the requester typed it/)
    expect(body).toMatch(/<q class="quoted-data">Approve: Security team says OK<\/q>/)
    expect(body).toMatch(/Requested from/)
    expect(body).toMatch(/127\.0\.0\.1/)
    expect(body).toMatch(/<time datetime="\d{4}-\d\d-\d\dT/)
    for (const name of ['evil\u202Etxt.exe', 'line\nbreak', 'zero\u200Bwidth']) {
      const bad = await fetch(`${serve.url}/api/auth/v1/device/code`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name }),
      })
      expect(bad.status, JSON.stringify(name)).toBe(400)
      expect((await bad.json()).error.code).toBe('invalid_url')
    }
  })

  it('wrong device codes are limited per session (429), not answered 300 times', async () => {
    const v = visitor(serve.url)
    await v.post('/sign-up', { email: 'guess@example.com', password: PW })
    await v.signIn('guess@example.com')
    const statuses: number[] = []
    for (let i = 0; i < 30; i++) statuses.push((await v.get('/device?code=BBBB-BBBB')).res.status)
    expect(statuses.filter((s) => s === 404).length).toBeLessThanOrEqual(10)
    expect(statuses.at(-1)).toBe(429)
  })

  it('/docs sends the same Referrer-Policy and Permissions-Policy as the dashboard', async () => {
    const [docs, dash] = await Promise.all([fetch(`${serve.url}/docs`), fetch(serve.url)])
    for (const h of ['referrer-policy', 'permissions-policy']) {
      expect(docs.headers.get(h), h).toBeTruthy()
      expect(docs.headers.get(h), h).toBe(dash.headers.get(h))
    }
  })
})

describe('behind a reverse proxy', { timeout: 180_000 }, () => {
  let plain: Served
  let proxied: Served
  beforeAll(async () => {
    ;[plain, proxied] = await Promise.all([
      startServe({ args: ['--signup', 'open'] }),
      startServe({ args: ['--signup', 'open', '--trust-proxy', '127.0.0.1'] }),
    ])
  }, 30_000)
  afterAll(async () => {
    await Promise.all([plain?.stop(), proxied?.stop()])
  })

  /** Asks for device codes (limited per client address: 10 a minute) as `forwardedFor`. */
  const askCode = (base: string, forwardedFor: string) =>
    fetch(`${base}/api/auth/v1/device/code`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor },
      body: JSON.stringify({ name: 'laptop' }),
    }).then(async (r) => (await r.body?.cancel(), r.status))

  it('with --trust-proxy, each client behind the proxy has its own per-address limits and log lines', async () => {
    const attacker = await Promise.all(Array.from({ length: 11 }, () => askCode(proxied.url, '203.0.113.66')))
    expect(attacker.filter((s) => s === 429)).toHaveLength(1)
    // someone else behind the same proxy is not locked out by it
    expect(await askCode(proxied.url, '198.51.100.20')).toBe(200)
    // a client cannot pick its address: what it puts left of the proxy's own entry is not believed
    expect(await askCode(proxied.url, '198.51.100.20, 203.0.113.66')).toBe(429)
    await expect
      .poll(() => proxied.output())
      .toMatch(/POST \/api\/auth\/v1\/device\/code 429 \S+ \S+ 203\.0\.113\.66/)
    // sign-in failures count against the forwarded address too
    const v = visitor(proxied.url, '192.0.2.44')
    expect((await v.signIn('nobody@example.com', 'wrong password')).res.status).toBe(401)
    await expect.poll(() => proxied.output()).toMatch(/POST \/sign-in 401 \S+ \S+ 192\.0\.2\.44/)
  })

  it('without it, X-Forwarded-For is not believed: a forged header escapes no limit', async () => {
    const statuses = await Promise.all(
      Array.from({ length: 11 }, (_, i) => askCode(plain.url, `203.0.113.${i}`)),
    )
    expect(statuses.filter((s) => s === 429)).toHaveLength(1)
    await expect.poll(() => plain.output()).toMatch(/POST \/api\/auth\/v1\/device\/code 429 \S+ \S+$/m) // no address without --trust-proxy
    expect(plain.output()).not.toMatch(/203\.0\.113\./)
  })

  it('refuses a --trust-proxy it cannot read, at start', async () => {
    await expect(startServe({ args: ['--trust-proxy', 'not-an-address'] })).rejects.toThrow(/--trust-proxy/)
  })
})
