// The lab browser's SSRF guard: every request goes through a proxy that refuses what the check's
// guard refuses (loopback, private, link-local, localhost names), redirects and subresources alike;
// and only the lab's browser may use it: without the proxy's per-run credential, 407.
import { request } from 'node:http'
import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startGuardedProxy, type GuardedProxy, type ProxyCredential } from '../../src/lab/proxy.js'
import { labSite } from './helpers.js'

/** The Proxy-Authorization a request carries: the proxy's own credential unless told otherwise. */
function authorization(proxy: GuardedProxy, credential: ProxyCredential | null = proxy.credential) {
  if (!credential) return {}
  const basic = Buffer.from(`${credential.username}:${credential.password}`).toString('base64')
  return { 'proxy-authorization': `Basic ${basic}` }
}

function viaProxy(proxy: GuardedProxy, url: string, credential?: ProxyCredential | null): Promise<number> {
  const [host, port] = proxy.address.split(':')
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host,
        port: Number(port),
        path: url,
        headers: { host: new URL(url).host, ...authorization(proxy, credential) },
      },
      (res) => {
        res.resume()
        resolve(res.statusCode ?? 0)
      },
    )
    req.on('error', reject)
    req.end()
  })
}

function tunnel(proxy: GuardedProxy, target: string, credential?: ProxyCredential | null): Promise<string> {
  const [host, port] = proxy.address.split(':')
  const auth = Object.entries(authorization(proxy, credential)).map(([k, v]) => `${k}: ${v}\r\n`)
  return new Promise((resolve, reject) => {
    const s = connect({ host, port: Number(port) }, () =>
      s.write(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n${auth.join('')}\r\n`),
    )
    s.once('data', (d) => {
      resolve(d.toString().split('\r\n')[0])
      s.destroy()
    })
    s.on('error', reject)
  })
}

describe('the lab proxy (SSRF guard for the browser)', () => {
  let site: Awaited<ReturnType<typeof labSite>>
  let guarded: GuardedProxy
  let open: GuardedProxy
  beforeAll(async () => {
    site = await labSite((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok')
      return true
    })
    guarded = await startGuardedProxy({ allowPrivateTargets: false })
    open = await startGuardedProxy({ allowPrivateTargets: true })
  })
  afterAll(async () => {
    await guarded.close()
    await open.close()
    await site.close()
  })

  it.each([
    'http://127.0.0.1:9/',
    'http://localhost:9/',
    'http://169.254.169.254/latest/meta-data/',
    'http://10.0.0.1/',
  ])('refuses %s over plain http', async (url) => {
    expect(await viaProxy(guarded, url)).toBe(403)
  })

  it.each(['127.0.0.1:443', 'localhost:443', '[::1]:443', '192.168.1.1:443'])(
    'refuses a tunnel to %s',
    async (target) => {
      expect(await tunnel(guarded, target)).toMatch(/^HTTP\/1\.1 403/)
    },
  )

  it('forwards to a loopback site when private targets are allowed (tests, intranets)', async () => {
    expect(await viaProxy(open, site.url('/x'))).toBe(200)
    expect(site.seen.some((s) => s.path === '/x')).toBe(true)
  })

  it('refuses any other local process: 407 without the credential or with a wrong one, for requests and tunnels', async () => {
    const wrong = { ...open.credential, password: `${open.credential.password}x` }
    expect(await viaProxy(open, site.url('/nocred'), null)).toBe(407)
    expect(await viaProxy(open, site.url('/wrong'), wrong)).toBe(407)
    expect(await tunnel(open, site.url('/').slice('http://'.length, -1), null)).toMatch(/^HTTP\/1\.1 407/)
    expect(site.seen.some((s) => s.path === '/nocred' || s.path === '/wrong')).toBe(false)
    // a credential of its own for every proxy started
    expect(open.credential.password).not.toBe(guarded.credential.password)
    expect(open.credential.password.length).toBeGreaterThanOrEqual(32)
  })

  it('the guarded proxy never reached the loopback site', async () => {
    expect(await viaProxy(guarded, site.url('/never'))).toBe(403)
    expect(site.seen.some((s) => s.path === '/never')).toBe(false)
    expect(guarded.refused.length).toBeGreaterThan(0)
  })
})
