/**
 * A newcomer's first hour (issue 21), end to end against a real `serve`: what the CLI says and
 * does where a new user met surprises. `config set api-url` never sends the saved key to a
 * server that does not answer as sitehealth; the hints name what works.
 */
import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cliRunner, closedPortUrl, expectOneLineError } from '../helpers/cli.js'
import { startServe, type Served } from '../helpers/serve.js'

let home: string
const { cli } = cliRunner(() => home)
let served: Served
let key: string

/** A local server that is not sitehealth and records every Authorization header it is sent. */
async function recorder(answer: (req: IncomingMessage, res: ServerResponse) => void) {
  const seen: Array<string | undefined> = []
  const server: Server = createServer((req, res) => {
    seen.push(req.headers.authorization)
    answer(req, res)
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`
  return { url, seen, close: () => new Promise((r) => server.close(r)) }
}

const configFile = () => join(home, 'config', 'sitehealth', 'config.json')

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'sitehealth-first-hour-'))
  served = await startServe()
  key = (await served.createKey({ user: 'newcomer', credits: 10 })).key
}, 60_000)
afterAll(async () => {
  await served?.stop()
  await rm(home, { recursive: true, force: true })
})

describe('config set api-url: the saved key goes only to a sitehealth API', { timeout: 60_000 }, () => {
  const saveKey = async () => {
    await mkdir(join(home, 'config', 'sitehealth'), { recursive: true })
    await writeFile(configFile(), JSON.stringify({ api_url: served.url, api_key: key }), { mode: 0o600 })
  }

  it('a JSON server that is not sitehealth is refused before it sees the key', async () => {
    await saveKey()
    const other = await recorder((_req, res) => {
      res.setHeader('content-type', 'application/json')
      res.end(JSON.stringify({ ok: true, hello: 'world' }))
    })
    try {
      const r = await cli(['config', 'set', 'api-url', other.url])
      expectOneLineError(r, 1, /does not answer as a sitehealth API .*no key was sent to it.*--no-check/)
      expect(other.seen.length).toBeGreaterThan(0)
      expect(other.seen.every((a) => a === undefined)).toBe(true)
      expect(JSON.parse(await readFile(configFile(), 'utf8')).api_url).toBe(served.url)
    } finally {
      await other.close()
    }
  })

  it('an HTML page (a proxy, a typo of the domain) is refused the same way', async () => {
    await saveKey()
    const other = await recorder((_req, res) => {
      res.statusCode = 404
      res.setHeader('content-type', 'text/html')
      res.end('<h1>Not here</h1>')
    })
    try {
      const r = await cli(['config', 'set', 'api-url', other.url])
      expect(r.code, r.stderr).toBe(1)
      expect(r.stderr).toMatch(/no key was sent/)
      expect(other.seen.every((a) => a === undefined)).toBe(true)
    } finally {
      await other.close()
    }
  })

  it('a sitehealth server gets the key only after it answered the health route', async () => {
    await saveKey()
    const r = await cli(['config', 'set', 'api-url', served.url])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toMatch(/checked with the API/)
  })

  it('--no-check saves without asking anyone', async () => {
    await saveKey()
    const other = await recorder((_req, res) => res.end('nope'))
    try {
      const r = await cli(['config', 'set', 'api-url', other.url, '--no-check'])
      expect(r.code, r.stderr).toBe(0)
      expect(other.seen).toEqual([])
    } finally {
      await other.close()
    }
  })
})

describe('hints that name what works', { timeout: 60_000 }, () => {
  it("serve's next steps: the CLI as it can be run here, the dashboard, a check that needs no internet", async () => {
    const out = served.output()
    // the tests run bin/run.js with node from the clone, and `sitehealth` is not on this PATH
    expect(out).toContain(`Dashboard: ${served.url}/`)
    expect(out).toMatch(/^ {5}node bin\/run\.js users create --email you@example\.com --admin /m)
    expect(out).toMatch(new RegExp(`^ {5}node bin/run\\.js login --api-url ${served.url}$`, 'm'))
    expect(out).not.toMatch(/^ {5}sitehealth /m)
    const check = new RegExp(`^ {5}node bin/run\\.js (check ${served.url}\\S*)$`, 'm').exec(out)
    expect(check, out).not.toBeNull()
    // the suggested check works: this server itself, no internet
    const env = { SITEHEALTH_API_URL: served.url, SITEHEALTH_API_KEY: key }
    const r = await cli(check![1].split(' '), { env })
    expect(r.code, r.stderr).toBe(0)
  })

  it('get with a word that is no id says what is accepted, not "must be a UUID"', async () => {
    const r = await cli(['get', 'nonexistent'], {
      env: { SITEHEALTH_API_URL: served.url, SITEHEALTH_API_KEY: key },
    })
    expectOneLineError(r, 2, /"nonexistent" is not a check id: give the full id or its short id/)
    expect(r.stderr).not.toMatch(/UUID/)
  })

  it('auth status without a key points at login', async () => {
    await rm(configFile(), { force: true })
    const r = await cli(['auth', 'status', '--api-url', served.url])
    expect(r.code).toBe(4)
    expect(r.stdout).toMatch(/Sign in with `sitehealth login`/)
    const none = await cli(['credits', '--api-url', served.url])
    expectOneLineError(none, 4, /`sitehealth login`/)
  })

  it("a check's failure message is a sentence, with its full stop, in the envelope too", async () => {
    const env = { SITEHEALTH_API_URL: served.url, SITEHEALTH_API_KEY: key }
    const r = await cli(['check', 'http://127.0.0.1:1/', '--json'], { env })
    expect(r.code).toBe(7)
    const { error } = JSON.parse(r.stdout)
    // the server logs it as an expected outcome: one info line with the request id, no stack
    await new Promise((res) => setTimeout(res, 100))
    const logLine = served
      .output()
      .split('\n')
      .find((l) => l.includes(error.request_id) && !/ (GET|POST) /.test(l))
    expect(logLine).toMatch(new RegExp(`info ${error.request_id}: check_failed: Could not connect`))
    expect(served.output()).not.toMatch(/\n\s+at .+:\d+:\d+/)
    expect(error.message).toMatch(/^Could not connect to 127\.0\.0\.1:1: connection refused\.$/)
  })
})

describe('bare hosts: one rule for check, monitors create and the as-code file', { timeout: 60_000 }, () => {
  const env = () => ({ SITEHEALTH_API_URL: served.url, SITEHEALTH_API_KEY: key })

  it('check HOST:PORT tries https and, when nothing answers, says how to ask for http', async () => {
    const port = new URL(await closedPortUrl()).port
    const r = await cli(['check', `127.0.0.1:${port}`], { env: env() })
    expect(r.code, r.stderr).toBe(7)
    const [note, error, ...rest] = r.stderr.split('\n')
    expect(rest).toEqual([])
    expect(note).toBe(`the URL: 127.0.0.1:${port} has no scheme: checking https://127.0.0.1:${port}/`)
    expect(error).toMatch(/^Error: Could not connect to 127\.0\.0\.1:\d+: connection refused\. /)
    expect(
      error.endsWith(
        `No scheme was given, so https was tried: for plain HTTP, use http://127.0.0.1:${port}/.`,
      ),
    ).toBe(true)
  })

  it('monitors create HOST watches https://HOST/ and says so (it refused bare hosts before)', async () => {
    const r = await cli(['monitors', 'create', 'example.invalid', '--json'], { env: env() })
    expect(r.code, r.stderr).toBe(0)
    expect(JSON.parse(r.stdout).url).toBe('https://example.invalid/')
    expect(r.stderr).toContain('example.invalid has no scheme: watching https://example.invalid/.')
    const bad = await cli(['monitors', 'create', 'ftp://files.example'], { env: env() })
    expectOneLineError(bad, 2, /only http and https/)
  })

  it('the as-code file reads a bare host the same way', async () => {
    const file = join(home, 'sitehealth.yaml')
    await writeFile(file, 'monitors:\n  - ref: shop\n    url: shop.invalid\n')
    const deployed = await cli(['deploy', '--file', file, '--yes'], { env: env() })
    expect(deployed.code, deployed.stderr).toBe(0)
    const list = await cli(['monitors', 'list', '--json'], { env: env() })
    const shop = (JSON.parse(list.stdout).monitors as Array<{ ref: string | null; url: string }>).find(
      (m) => m.ref === 'shop',
    )
    expect(shop?.url).toBe('https://shop.invalid/')
    // the next plan compares the same URL: nothing to change
    const again = await cli(['deploy', '--file', file, '--dry-run', '--json'], { env: env() })
    expect(JSON.parse(again.stdout).plan.changes).toEqual([])
  })
})

describe('one identity without a browser: keys create --user EMAIL', { timeout: 60_000 }, () => {
  it('gives the key to that dashboard account; an unknown email creates nothing', async () => {
    const admin = ['--api-url', served.url, '--data-dir', served.dataDir]
    const made = await cli([
      'users',
      'create',
      '--email',
      'ann@example.com',
      '--credits',
      '42',
      '--json',
      ...admin,
    ])
    expect(made.code, made.stderr).toBe(0)
    const { user_id } = JSON.parse(made.stdout)
    const key = await cli([
      'keys',
      'create',
      '--name',
      'laptop',
      '--user',
      'Ann@Example.com',
      '--json',
      ...admin,
    ])
    expect(key.code, key.stderr).toBe(0)
    const created = JSON.parse(key.stdout)
    expect(created.user_id).toBe(user_id)
    const credits = await cli(['credits', '--json', '--api-url', served.url, '--api-key', created.key])
    expect(JSON.parse(credits.stdout).credits_remaining).toBe(42)

    const unknown = await cli(['keys', 'create', '--name', 'x', '--user', 'nobody@example.com', ...admin])
    expectOneLineError(
      unknown,
      2,
      /No dashboard account has the email nobody@example\.com.*Nothing was created\./,
    )
    const withCredits = await cli([
      'keys',
      'create',
      '--name',
      'x',
      '--user',
      'ann@example.com',
      '--credits',
      '5',
      ...admin,
    ])
    expectOneLineError(withCredits, 2, /exists already, so --credits would be ignored/)
  })
})
