/**
 * Issue 16 items 4, 5 and 9 as attacks on a real `serve` and the built CLI: a weak admin token, a
 * wordlist guesser, a listener squatting the loopback port while `serve` is down, a data dir and
 * token file left open to others, and a forged Host header.
 */
import { execa } from 'execa'
import { once } from 'node:events'
import { chmod, mkdtemp, rm, stat, writeFile } from 'node:fs/promises'
import { createServer, get as httpGet, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { request } from 'undici'
import { describe, expect, it, vi } from 'vitest'
import { CLI, startServe } from '../helpers/serve.js'

// each test spawns serve and the CLI, which take seconds apiece on a busy shared machine
vi.setConfig({ testTimeout: 120_000 })

const KEYS = '/api/admin/v1/keys'
const STRONG = 'Zm9vYmFyLXRlc3QtdG9rZW4tMzItY2hhcnMtbG9uZw'

async function tempDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'sitehealth-harden-'))
}

describe('admin token strength', () => {
  it.each([
    ['the README’s old example', 'change-me'],
    ['31 characters', 'a1b2c3d4e5f6g7h8i9j0k1l2m3n4o5p'],
    ['32 times one letter', 'x'.repeat(32)],
  ])('serve refuses SITEHEALTH_ADMIN_TOKEN = %s and says how to make one', async (_name, token) => {
    const dir = await tempDir()
    try {
      const r = await execa('node', [CLI, 'serve', '--port', '0', '--data-dir', dir], {
        env: { SITEHEALTH_ADMIN_TOKEN: token, NO_COLOR: '1' },
        reject: false,
        timeout: 20_000,
      })
      expect(r.exitCode).toBe(1)
      expect(r.stdout).toBe('')
      expect(r.stderr).toMatch(/SITEHEALTH_ADMIN_TOKEN is too weak/)
      expect(r.stderr).toContain('openssl rand -base64 32')
      expect(r.stderr).not.toMatch(/\n\s+at /)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('serve refuses a weak token file, and starts once it is gone', async () => {
    const dir = await tempDir()
    try {
      await writeFile(join(dir, 'admin-token'), 'hunter2\n', { mode: 0o600 })
      const weak = await execa('node', [CLI, 'serve', '--port', '0', '--data-dir', dir], {
        reject: false,
        timeout: 20_000,
      })
      expect(weak.exitCode).toBe(1)
      expect(weak.stderr.replace(/\s*›?\s+/g, ' ')).toMatch(
        /admin-token is too weak.*openssl rand -base64 32/,
      )
      await rm(join(dir, 'admin-token'))
      const served = await startServe({ dataDir: dir })
      await served.stop()
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})

/** A GET from a chosen local address (undici's Agent does not bind one; node:http does). */
function get(url: string, headers: Record<string, string>, localAddress: string) {
  return new Promise<{ status: number; headers: IncomingHttpHeaders; body: any }>((resolve, reject) => {
    const req = httpGet(url, { headers, localAddress, agent: false }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (d: string) => (text += d))
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(text) }),
      )
    })
    req.on('error', reject)
  })
}

describe('failed admin authentication backs off per client', () => {
  it('stops a guesser after a few tries (even its right guess) while another client is served', async () => {
    const served = await startServe()
    // the guesser comes from 127.0.0.2, a different loopback address than the operator's
    const guesser = '127.0.0.2'
    try {
      const attempt = (token: string, localAddress = '127.0.0.1') =>
        get(`${served.url}${KEYS}`, { authorization: `Bearer ${token}` }, localAddress)
      const statuses: number[] = []
      const t0 = performance.now()
      for (let i = 0; i < 40; i++)
        statuses.push((await attempt(`guess-${i}-${'x'.repeat(30)}`, guesser)).status)
      const elapsed = performance.now() - t0
      const unauthorized = statuses.filter((s) => s === 401).length
      // five free failures (typos), then 429 without the token even being compared; a slot
      // reopens only after a doubling wait (1 s, 2 s, …), so at most a couple more get through
      expect(statuses.slice(0, 6)).toEqual([401, 401, 401, 401, 401, 429])
      expect(unauthorized).toBeLessThanOrEqual(7)
      const right = await attempt(served.adminToken, guesser)
      expect(right.status).toBe(429)
      expect(right.body.error.code).toBe('rate_limited')
      expect(Number(right.headers['retry-after'])).toBeGreaterThanOrEqual(1)
      // the operator on another address is not locked out
      expect((await attempt(served.adminToken)).status).toBe(200)
      expect(elapsed).toBeLessThan(15_000)
    } finally {
      await served.stop()
    }
  })
})

describe('the admin CLI and a listener squatting the loopback port', () => {
  /** An HTTP listener that records every request's headers and answers like an admin API would. */
  async function squatter(port = 0) {
    const seen: IncomingHttpHeaders[] = []
    const server = createServer((req, res) => {
      seen.push(req.headers)
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"keys":[]}')
    })
    server.listen(port, '127.0.0.1')
    await once(server, 'listening')
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      seen,
      close: () => new Promise<void>((r) => server.close(() => r())),
    }
  }

  it('does not send the data dir’s token to a squatter on the port of a stopped serve', async () => {
    const served = await startServe()
    const port = Number(new URL(served.url).port)
    await served.stop({ keepData: true })
    const squat = await squatter(port)
    try {
      const r = await execa(
        'node',
        [CLI, 'keys', 'list', '--api-url', squat.url, '--data-dir', served.dataDir],
        {
          reject: false,
          env: { NO_COLOR: '1' },
        },
      )
      expect(r.exitCode).toBe(4)
      expect(r.stderr).toMatch(/Not sending the admin token file.*--admin-token/)
      expect(squat.seen.filter((h) => h.authorization)).toEqual([])
    } finally {
      await squat.close()
      await rm(served.dataDir, { recursive: true, force: true })
    }
  })

  it('does not send it to another port while the owner runs, and does send it to the owner', async () => {
    const served = await startServe()
    const squat = await squatter()
    try {
      const env = { NO_COLOR: '1', SITEHEALTH_DATA_DIR: served.dataDir }
      const wrong = await execa('node', [CLI, 'keys', 'list', '--api-url', squat.url], { reject: false, env })
      expect(wrong.exitCode).toBe(4)
      expect(wrong.stderr).toMatch(/listens on port \d+, not \d+/)
      expect(squat.seen).toEqual([])
      const right = await execa('node', [CLI, 'keys', 'list', '--json', '--api-url', served.url], {
        reject: false,
        env,
      })
      expect(right.exitCode, right.stderr).toBe(0)
      expect(JSON.parse(right.stdout).keys).toEqual([])
    } finally {
      await squat.close()
      await served.stop()
    }
  })
})

describe('permissions and the Host header', () => {
  it('fixes a data dir and token file open to others, with a warning', async () => {
    const dir = await tempDir()
    try {
      await chmod(dir, 0o755)
      await writeFile(join(dir, 'admin-token'), STRONG + '\n')
      await chmod(join(dir, 'admin-token'), 0o644)
      const served = await startServe({ dataDir: dir })
      try {
        expect((await stat(dir)).mode & 0o777).toBe(0o700)
        expect((await stat(join(dir, 'admin-token'))).mode & 0o777).toBe(0o600)
        expect(served.output()).toMatch(/warning: .* was open to group\/other \(mode 755\); set to 700/)
        expect(served.output()).toMatch(
          /admin-token was open to group\/other \(mode 644\); set to 600.*rotate/,
        )
      } finally {
        await served.stop()
      }
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('never reflects a client-sent Host header into /meta or /openapi.json', async () => {
    const served = await startServe()
    try {
      const host = { host: 'evil.example:666' }
      const meta = (await (
        await request(`${served.url}/api/public/v1/meta`, { headers: host })
      ).body.json()) as any
      expect(meta.docs_url).toBe(`${served.url}/docs`)
      expect(meta.openapi_url).toBe(`${served.url}/openapi.json`)
      const doc = (await (await request(`${served.url}/openapi.json`, { headers: host })).body.json()) as any
      expect(doc.servers[0].url).toBe(served.url)
      expect(JSON.stringify(doc)).not.toContain('evil.example')
    } finally {
      await served.stop()
    }
  })
})
