/**
 * Issue 16 item 3 as an attack: a key holder asks for checks of internal names to learn which
 * private address each resolves to on the server. The answer must say only that the name is
 * private or local; the address goes to the server's log.
 */
import { lookup } from 'node:dns/promises'
import { hostname } from 'node:os'
import { request } from 'undici'
import { describe, expect, it } from 'vitest'
import { startServe } from '../helpers/serve.js'

describe('blocked lookups', () => {
  it(
    'do not reveal the address an internal name resolves to, and log it on the server',
    { timeout: 60_000 },
    async () => {
      // this machine's own name resolves to a loopback address through /etc/hosts
      const name = hostname()
      const { address } = await lookup(name).catch(() => ({ address: '' }))
      if (!address.startsWith('127.'))
        return void console.warn(`skipped: ${name} does not resolve to loopback here`)
      const served = await startServe({ allowPrivate: false })
      try {
        const { key } = await served.createKey({ user: 'mapper', credits: 5 })
        const res = await request(`${served.url}/api/public/v1/checks/run`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ url: `http://${name}:8080/` }),
        })
        const body = (await res.body.json()) as {
          error: { code: string; message: string; request_id: string }
        }
        expect(res.statusCode).toBe(400)
        expect(body.error.code).toBe('invalid_url')
        expect(body.error.message).toBe(`Blocked for safety: ${name} resolves to a private or local address.`)
        expect(body.error.message).not.toContain(address)
        expect(body.error.message).not.toMatch(/loopback/)
        for (let i = 0; i < 20 && !served.output().includes(`${name} resolves to`); i++)
          await new Promise((r) => setTimeout(r, 100))
        expect(served.output(), served.output()).toContain(`${name} resolves to ${address}`)
        // one line, with the request id, as an outcome (info), not an error
        const line = served
          .output()
          .split('\n')
          .find((l) => l.includes(`${name} resolves to ${address}`))
        expect(line).toContain(`info ${body.error.request_id}: invalid_url detail: `)
      } finally {
        await served.stop()
      }
    },
  )
})
