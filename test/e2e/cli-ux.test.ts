/**
 * The CLI as a new user meets it (issue 15), end to end against a real `serve`: URL lists checked
 * before any run, "my site is down" vs "the checker is down", one clear line for each mistake,
 * confirmations of admin actions, `config` and `auth`, oclif's help / not-found / version /
 * autocomplete, and colour control. Everything runs with pipes (no terminal): see
 * cli-terminal.test.ts for the pseudo-terminal side.
 */
import { stat, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTargets, type Targets } from '../fixtures/targets.js'
import { startServe, type Served } from '../helpers/serve.js'
import { cliRunner, ESC, expectOneLineError, type Env } from '../helpers/cli.js'

let home: string
const { cli } = cliRunner(() => home)

let served: Served
let targets: Targets
let key: string
let env: Env

const credits = async (e: Env = env) =>
  JSON.parse((await cli(['credits', '--json'], { env: e })).stdout).credits_remaining

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'sitehealth-cli-ux-'))
  targets = await startTargets()
  served = await startServe({
    args: ['--run-limit', '1000', '--rate-limit', '100000'],
    env: { NODE_EXTRA_CA_CERTS: targets.pki.caPath },
  })
  key = (await served.createKey({ user: 'ux', credits: 100, name: 'ux' })).key
  env = { SITEHEALTH_API_URL: served.url, SITEHEALTH_API_KEY: key }
})
afterAll(async () => {
  await served?.stop()
  await targets?.close()
  await rm(home, { recursive: true, force: true })
})

describe('URL lists: every entry checked before any run is spent', { timeout: 180_000 }, () => {
  it('names file and line of every problem, runs nothing, charges nothing', async () => {
    const before = await credits()
    const file = join(home, 'sites.txt')
    await writeFile(
      file,
      `# ours\n${targets.plainHttp}  # the shop\nhttps://exa mple.com\n\nftp://files.example\n`,
    )
    const r = await cli(['check', '--file', file], { env })
    expect(r.code).toBe(2)
    expect(r.stdout).toBe('')
    const lines = r.stderr.split('\n')
    expect(lines).toEqual([
      expect.stringMatching(new RegExp(`^${file}:3: .*contains a space`)),
      expect.stringMatching(new RegExp(`^${file}:5: .*only http and https`)),
      `Error: 2 entries are not URLs that can be checked (${file}:3, ${file}:5). Nothing was checked.`,
    ])
    const j = await cli(['check', '--file', file, '--json'], { env })
    expect(j.code).toBe(2)
    expect(JSON.parse(j.stdout).error.code).toBe('invalid_url')
    expect(await credits()).toBe(before)
  })

  it('strips inline comments; a bare host is read as https://host/ and said so', async () => {
    const file = join(home, 'inline.txt')
    await writeFile(file, `${targets.plainHttp}   # staging, checked hourly\n`)
    const r = await cli(['check', '--file', file, '--json'], { env })
    expect(r.code, r.stderr).toBe(0)
    expect(JSON.parse(r.stdout)[0].data.url).toBe(targets.plainHttp)

    const bare = new URL(targets.healthy).host // 127.0.0.1:PORT: https://127.0.0.1:PORT/ is the healthy site
    const b = await cli(['check', bare, '--json'], { env })
    expect(b.code, b.stderr).toBe(0)
    expect(b.stderr).toContain(`${bare} has no scheme: checking https://${bare}/`)
    expect(JSON.parse(b.stdout).data.url).toBe(`https://${bare}/`)
  })
})

describe('my site is down (7) vs the checker is down (1)', { timeout: 180_000 }, () => {
  it('an unreachable target exits 7, and counts as score 0 under --fail-under (exit 3)', async () => {
    const down = targets.closedPort
    const r = await cli(['check', down], { env })
    expectOneLineError(r, 7, /nothing was charged/)
    const j = await cli(['check', down, '--json'], { env })
    expect(j.code).toBe(7)
    expect(JSON.parse(j.stdout).error.code).toBe('check_failed')
    const gate = await cli(['check', targets.plainHttp, down, '--fail-under', '0'], { env })
    expect(gate.code).toBe(3)
    expect(gate.stderr).toContain(`Below --fail-under 0: ${down} (0)`)
    expect(gate.stdout).toMatch(/^2 URLs: 1 passed, 0 below 0, 1 failed; 1 credit used, \d+ left\.$/m)
  })

  it('an API that cannot be reached exits 1, whatever --fail-under says', async () => {
    const r = await cli(['check', targets.plainHttp, '--fail-under', '50'], {
      env: { ...env, SITEHEALTH_API_URL: targets.closedPort.replace(/\/$/, '') },
    })
    expectOneLineError(r, 1, /Cannot reach .*connection refused.*Is the server running\?/)
  })

  it('--timeout: a hung API gives up after the time asked, exit 1', async () => {
    const hung = targets.neverAnswers.replace(/\/$/, '')
    const started = Date.now()
    const r = await cli(['credits', '--timeout', '1'], { env: { ...env, SITEHEALTH_API_URL: hung } })
    const elapsed = Date.now() - started
    expectOneLineError(r, 1, /No answer from .* within 1 s\..*--timeout/)
    // generous: process start-up included; the default would have been 60 s
    expect(elapsed).toBeLessThan(20_000)
    const viaEnv = await cli(['credits', '--json'], {
      env: { ...env, SITEHEALTH_API_URL: hung, SITEHEALTH_TIMEOUT: '1' },
    })
    expect(JSON.parse(viaEnv.stdout).error.code).toBe('timeout')
  })
})

describe('one clear line for each mistake', { timeout: 180_000 }, () => {
  it('https against a plain-http API: no OpenSSL dump, the http URL suggested', async () => {
    const wrong = served.url.replace('http:', 'https:')
    const r = await cli(['credits', '--api-url', wrong], { env })
    expectOneLineError(r, 1, /does not speak TLS there; is it http:\/\/127\.0\.0\.1:\d+\?/)
    expect(r.stderr).not.toMatch(/SSL routines|ssl3_get_record|:error:/)
  })

  it('an API URL copied with /api/public/v1 on the end still works', async () => {
    const r = await cli(['credits', '--json', '--api-url', `${served.url}/api/public/v1`], { env })
    expect(r.code, r.stderr).toBe(0)
    expect(JSON.parse(r.stdout).credits_remaining).toEqual(expect.any(Number))
  })

  it('out of credits and revoked keys: each says what to do, once', async () => {
    const broke = await served.createKey({ user: 'ux-broke', credits: 0, name: 'broke' })
    const r = await cli(['check', targets.plainHttp], { env: { ...env, SITEHEALTH_API_KEY: broke.key } })
    expectOneLineError(r, 5)
    expect(r.stderr.match(/[Aa]sk/g)).toHaveLength(1)

    const gone = await served.createKey({ user: 'ux', name: 'gone' })
    await cli(['keys', 'revoke', gone.id, '--yes', '--api-url', served.url, '--data-dir', served.dataDir])
    const rv = await cli(['credits'], { env: { ...env, SITEHEALTH_API_KEY: gone.key } })
    expectOneLineError(rv, 4, /revoked.*config set api-key/)
    expect(rv.stderr.match(/new key/gi)).toHaveLength(1)
  })

  it('a blocked private target hints at --allow-private-targets when the server is this machine', async () => {
    const strict = await startServe({ allowPrivate: false })
    try {
      const k = (await strict.createKey({ credits: 5 })).key
      const r = await cli(['check', targets.plainHttp], {
        env: { SITEHEALTH_API_URL: strict.url, SITEHEALTH_API_KEY: k },
      })
      expectOneLineError(
        r,
        2,
        /Blocked for safety.*restart it with `sitehealth serve --allow-private-targets`/,
      )
      // the start-up banner says how to make an account and sign the CLI in
      expect(strict.output()).toMatch(
        /users create --email you@example\.com --admin --api-url http:\/\/127\.0\.0\.1:\d+ --data-dir /,
      )
    } finally {
      await strict.stop()
    }
  })
})

describe('admin commands confirm what they cannot undo', { timeout: 180_000 }, () => {
  const admin = () => ['--api-url', served.url, '--data-dir', served.dataDir]

  it('credits grant to a user without keys asks first; without a terminal it needs --yes', async () => {
    const r = await cli(['credits', 'grant', '--user', 'uxx', '--amount', '5', ...admin()])
    expectOneLineError(
      r,
      2,
      /User uxx has no API key \(known users: .*ux.*\)\. Create uxx with 5 credits\? Pass --yes/,
    )
    const y = await cli(['credits', 'grant', '--user', 'uxx', '--amount', '5', '--yes', '--json', ...admin()])
    // the refused grant changed nothing: 5, not 10
    expect(JSON.parse(y.stdout)).toEqual({ user_id: 'uxx', credits_remaining: 5 })
    const known = await cli(['credits', 'grant', '--user', 'ux', '--amount', '1', ...admin()])
    expect(known.code, known.stderr).toBe(0)
  })

  it('keys create --credits for an existing user is refused, nothing created', async () => {
    const count = async () =>
      JSON.parse((await cli(['keys', 'list', '--json', ...admin()])).stdout).keys.length
    const before = await count()
    const r = await cli(['keys', 'create', '--name', 'x', '--user', 'ux', '--credits', '50', ...admin()])
    expectOneLineError(r, 2, /User ux already exists.*credits grant --user ux --amount 50/)
    expect(await count()).toBe(before)
  })

  it('keys revoke needs --yes without a terminal, warns about the key in use, accepts a short id', async () => {
    const k = await served.createKey({ user: 'ux', name: 'mine' })
    const mine = { ...env, SITEHEALTH_API_KEY: k.key }
    const no = await cli(['keys', 'revoke', k.id, ...admin()], { env: mine })
    expect(no.code).toBe(2)
    expect(no.stderr).toMatch(/this is the key this CLI uses \(SITEHEALTH_API_KEY\)/)
    expect(no.stderr).toMatch(/Pass --yes/)
    expect((await cli(['credits'], { env: mine })).code).toBe(0)
    const yes = await cli(['keys', 'revoke', k.id.slice(-8), '--yes', ...admin()], { env: mine })
    expect(yes.code, yes.stderr).toBe(0)
    expect(yes.stdout).toContain(`Revoked API key ${k.id}`)
    expect((await cli(['credits'], { env: mine })).code).toBe(4)
  })
})

describe('config and auth: a key holder needs no admin rights', { timeout: 180_000 }, () => {
  const cfgEnv = (): Env => ({}) // nothing from the environment: the file decides

  it('config set validates with the API, writes mode 0600, never shows the key whole', async () => {
    const bad = await served.createKey({ user: 'ux', name: 'soon-revoked' })
    await cli(['keys', 'revoke', bad.id, '--yes', '--api-url', served.url, '--data-dir', served.dataDir])

    const url = await cli(['config', 'set', 'api-url', served.url], { env: cfgEnv() })
    expect(url.code, url.stderr).toBe(0)
    const refused = await cli(['config', 'set', 'api-key', bad.key], { env: cfgEnv() })
    expectOneLineError(refused, 4, /revoked/)
    // one character changed: a key that already ends in "x" needs another letter to be a typo
    const typo = await cli(
      ['config', 'set', 'api-key', `${key.slice(0, -1)}${key.endsWith('x') ? 'y' : 'x'}`],
      {
        env: cfgEnv(),
      },
    )
    expectOneLineError(typo, 2, /checksum/)
    const ok = await cli(['config', 'set', 'api-key', '-'], { env: cfgEnv(), input: `${key}\n` })
    expect(ok.code, ok.stderr).toBe(0)

    const file = join(home, 'config', 'sitehealth', 'config.json')
    expect((await stat(file)).mode & 0o777).toBe(0o600)
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ api_url: served.url, api_key: key })

    const get = await cli(['config', 'get', 'api-key'], { env: cfgEnv() })
    expect(get.stdout).toBe(`${key.slice(0, 15)}…`)
    const list = await cli(['config', 'list'], { env: cfgEnv() })
    expect(list.stdout.split('\n')).toEqual([`api-url\t${served.url}`, `api-key\t${key.slice(0, 15)}…`])
    expect(list.stdout).not.toContain(key)
    expect((await cli(['credits'], { env: cfgEnv() })).code).toBe(0)
  })

  it('auth status names the URL, the key prefix and where each came from', async () => {
    const fromFile = await cli(['auth', 'status', '--json'], { env: cfgEnv() })
    expect(fromFile.code, fromFile.stderr).toBe(0)
    expect(JSON.parse(fromFile.stdout)).toMatchObject({
      api_url: served.url,
      api_url_source: 'config',
      key_prefix: `${key.slice(0, 15)}…`,
      api_key_source: 'config',
      authenticated: true,
      credits_remaining: expect.any(Number),
    })
    const human = await cli(['auth', 'status', '--api-url', served.url], { env: { SITEHEALTH_API_KEY: key } })
    expect(human.stdout).toMatch(/^API URL\s+http:\/\/127\.0\.0\.1:\d+\s+\(from --api-url\)$/m)
    expect(human.stdout).toMatch(/^API key\s+shk_live_\w{6}…\s+\(from SITEHEALTH_API_KEY\)$/m)
    expect(human.stdout).toMatch(/^status\s+key accepted; \d+ credits remaining$/m)
    expect(human.stdout).not.toContain(key)
    const none = await cli(['auth', 'status', '--json'], {
      env: { SITEHEALTH_API_URL: served.url, XDG_CONFIG_HOME: join(home, 'empty') },
    })
    expect(none.code).toBe(4)
    expect(JSON.parse(none.stdout)).toMatchObject({
      authenticated: false,
      api_key_source: 'none',
      key_prefix: null,
    })
  })

  it('auth token prints the key alone, for scripts; config unset removes it', async () => {
    const t = await cli(['auth', 'token'], { env: cfgEnv() })
    expect(t).toMatchObject({ code: 0, stdout: key })
    expect((await cli(['config', 'unset', 'api-key'], { env: cfgEnv() })).code).toBe(0)
    expectOneLineError(await cli(['auth', 'token'], { env: cfgEnv() }), 4, /config set api-key/)
    expect((await cli(['config', 'get', 'api-key'], { env: cfgEnv() })).code).toBe(1)
  })
})

describe('what oclif users expect', { timeout: 180_000 }, () => {
  it('help check, -h, -v, version', async () => {
    const help = await cli(['help', 'check'])
    expect(help.code).toBe(0)
    expect(help.stdout).toMatch(/^Run a health check/)
    expect(help.stdout).toContain('--fail-under')
    expect((await cli(['check', '-h'])).stdout).toBe(help.stdout)
    const v = await cli(['-v'])
    expect(v.stdout).toMatch(/^sitehealth\/\d+\.\d+\.\d+ \S+ node-v\d+/)
    expect((await cli(['version'])).stdout).toBe(v.stdout)
    expect((await cli(['--version'])).stdout).toBe(v.stdout)
  })

  it('a typo: the nearest user command with the URL intact, one line, exit 127, also in a pipe', async () => {
    const r = await cli(['chek', 'https://example.com'])
    expectOneLineError(r, 127, /chek is not a sitehealth command/)
    expect(r.stderr).toContain('Did you mean `sitehealth check https://example.com`?')
    expect(r.stderr).not.toMatch(/credits grant/)
    const far = await cli(['xyzzy'])
    expectOneLineError(far, 127, /xyzzy is not a sitehealth command\. Run `sitehealth help`/)
  })

  it('shell completion for bash, zsh and fish', async () => {
    for (const shell of ['bash', 'zsh', 'fish']) {
      const r = await cli(['autocomplete', shell])
      expect(r.code, r.stderr).toBe(0)
      expect(r.stdout).toContain(`sitehealth autocomplete`)
    }
    const script = await cli(['autocomplete', 'script', 'bash'])
    expect(script.code, script.stderr).toBe(0)
    expect(script.stdout).toContain('SITEHEALTH_AC_BASH_SETUP_PATH')
  })
})

describe('colour control', { timeout: 180_000 }, () => {
  it('FORCE_COLOR and CLICOLOR_FORCE colour a pipe; --no-color beats them; NO_COLOR alone is plain', async () => {
    for (const force of [{ FORCE_COLOR: '1' }, { CLICOLOR_FORCE: '1' }]) {
      const r = await cli(['credits'], { env: { ...env, ...force } })
      expect(r.stdout).toContain(ESC)
      const off = await cli(['credits', '--no-color'], { env: { ...env, ...force } })
      expect(off.stdout).not.toContain(ESC)
    }
    expect((await cli(['credits'], { env: { ...env, NO_COLOR: '1' } })).stdout).not.toContain(ESC)
    expect((await cli(['credits', '--json'], { env: { ...env, FORCE_COLOR: '1' } })).stdout).not.toContain(
      ESC,
    )
  })
})
