/**
 * The dashboard over HTTP, without a browser: its headers satisfy our own security_headers signal,
 * hashed assets are cached for a year, pages for nobody, and state-changing requests need the
 * CSRF token.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { securityHeaders } from '../../src/checks/signals/security-headers.js'
import { healthyProbe, NOW } from '../checks/probe-builder.js'
import { startServe, type Served } from '../helpers/serve.js'

let serve: Served
beforeAll(async () => {
  serve = await startServe({ args: ['--signup', 'open'] })
})
afterAll(() => serve?.stop())

const headersOf = (res: Response) => Object.fromEntries([...res.headers.entries()])

describe('dashboard over HTTP', () => {
  it('scores ok on our own security_headers signal (served behind https), with a CSP free of inline script', async () => {
    const res = await fetch(serve.url)
    expect(res.status).toBe(200)
    const headers = headersOf(res)
    expect(headers['content-security-policy']).not.toMatch(/unsafe-inline|unsafe-eval/)
    expect(headers['content-security-policy']).toMatch(/script-src 'self'/)
    const probe = healthyProbe({ response: { headers: { ...headers } } })
    const signal = securityHeaders({ ...probe, finalUrl: 'https://health.example.com/' }, NOW)
    expect(signal.status, signal.message).toBe('ok')
    expect(signal.details.missing).toEqual([])
    expect(signal.details.weak).toEqual([])
    // the pages themselves carry no inline script or style
    const html = await res.text()
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/)
    expect(html).not.toMatch(/\sstyle=/)
  })

  it('serves hashed assets with a year of immutable caching, pages with no-store, unknown assets 404', async () => {
    const html = await (await fetch(serve.url)).text()
    const assets = [...html.matchAll(/(?:href|src)="(\/assets\/[^"]+)"/g)].map((m) => m[1])
    expect(assets.length).toBeGreaterThanOrEqual(2)
    for (const path of assets) {
      expect(path).toMatch(/-[A-Z0-9]{8}\.(js|css)$/)
      const res = await fetch(serve.url + path)
      expect(res.status).toBe(200)
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
      expect(res.headers.get('content-type')).toMatch(/^(text\/javascript|text\/css)/)
    }
    expect((await fetch(serve.url)).headers.get('cache-control')).toBe('no-store')
    expect((await fetch(`${serve.url}/assets/app-NOPE.js`)).status).toBe(404)
  })

  it('refuses form posts without the CSRF token, and cross-site ones with it', async () => {
    const first = await fetch(serve.url)
    const csrfCookie = /sh_csrf=([^;]+)/.exec(first.headers.get('set-cookie') ?? '')![1]
    const token = /name="_csrf" value="([^"]+)"/.exec(await first.text())![1]
    expect(token).toBe(csrfCookie)
    const form = (body: string, headers: Record<string, string> = {}) =>
      fetch(`${serve.url}/sign-up`, {
        method: 'POST',
        redirect: 'manual',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          cookie: `sh_csrf=${csrfCookie}`,
          ...headers,
        },
        body,
      })
    const account = 'email=zoe%40example.com&password=correct+horse+battery'
    expect((await form(account)).status).toBe(403)
    expect((await form(`${account}&_csrf=wrong`)).status).toBe(403)
    expect((await form(`${account}&_csrf=${token}`, { origin: 'http://evil.example' })).status).toBe(403)
    expect((await form(`${account}&_csrf=${token}`, { 'sec-fetch-site': 'cross-site' })).status).toBe(403)
    const ok = await form(`${account}&_csrf=${token}`, { origin: serve.url })
    expect(ok.status).toBe(303)
    expect(ok.headers.get('location')).toBe('/?signed-up')
  })

  it('the device-grant API answers in the envelope, shaped like RFC 8628', async () => {
    const res = await fetch(`${serve.url}/api/auth/v1/device/code`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'laptop' }),
    })
    expect(res.status).toBe(200)
    const body = await res.json()
    expect(body).toMatchObject({ verification_uri: `${serve.url}/device`, expires_in: 600, interval: 5 })
    expect(body.user_code).toMatch(/^[A-Z]{4}-[A-Z]{4}$/)
    const poll = await fetch(`${serve.url}/api/auth/v1/device/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ device_code: body.device_code }),
    })
    expect(poll.status).toBe(400)
    expect((await poll.json()).error.code).toBe('authorization_pending')
    const bad = await fetch(`${serve.url}/api/auth/v1/device/code`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    })
    expect(bad.status).toBe(400)
    expect((await bad.json()).ok).toBe(false)
  })
})
