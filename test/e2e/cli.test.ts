/**
 * The client commands end to end: the built CLI (bin/run.js) spawned with execa against a real
 * `serve` and local target sites, as a user or a CI script would run them. stdout is a pipe here,
 * never a TTY: so every human output doubles as the "no escape codes, no spinner" check.
 * HOME and XDG dirs point at a temp dir so the config file is the test's own.
 */
import { execa } from 'execa'
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generateApiKey } from '../../src/contract/api-key.js'
import { startTargets, type Targets } from '../fixtures/targets.js'
import {
  cliRunner,
  closedPortUrl,
  expectEnvelope,
  expectOneLineError,
  expectPlain,
  type Env,
} from '../helpers/cli.js'
import { CLI, startServe, type Served } from '../helpers/serve.js'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
const GATE = join(import.meta.dirname, 'ci-gate.sh')

let home: string
const { cli, baseEnv } = cliRunner(() => home)

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'sitehealth-cli-home-'))
})
afterAll(async () => {
  await rm(home, { recursive: true, force: true })
})

describe('client commands against a real serve', { timeout: 180_000 }, () => {
  let served: Served
  let targets: Targets
  let key: string
  let env: Env
  let deadApi: string

  beforeAll(async () => {
    targets = await startTargets()
    served = await startServe({
      args: ['--run-limit', '1000', '--rate-limit', '100000'],
      env: { NODE_EXTRA_CA_CERTS: targets.pki.caPath },
    })
    key = (await served.createKey({ user: 'alice', credits: 100, name: 'e2e' })).key
    env = { SITEHEALTH_API_URL: served.url, SITEHEALTH_API_KEY: key }
    deadApi = await closedPortUrl()
  })
  afterAll(async () => {
    await served?.stop()
    await targets?.close()
  })

  describe('status (no key needed)', { timeout: 180_000 }, () => {
    it('human: health, metadata and the API URL used', async () => {
      const r = await cli(['status', '--api-url', served.url])
      expect(r.code, r.stderr).toBe(0)
      expectPlain(r)
      expect(r.stdout).toContain(`is up at ${served.url}`)
      expect(r.stdout).toMatch(/capabilities\s+.*website_health_check/)
      expect(r.stdout).toContain(`${served.url}/docs`)
      expect(r.stdout).toContain(`${served.url}/openapi.json`)
    })

    it('--json: both API bodies and the URL, nothing else', async () => {
      const r = await cli(['status', '--json'], { env: { SITEHEALTH_API_URL: served.url } })
      expect(r.code, r.stderr).toBe(0)
      const body = JSON.parse(r.stdout)
      expect(body.api_url).toBe(served.url)
      expect(body.health).toMatchObject({ ok: true, service: 'sitehealth', version: 'v1' })
      expect(body.meta.capabilities).toContain('website_health_check')
    })
  })

  describe('check', { timeout: 180_000 }, () => {
    it('human: every signal, missing headers, score, risk, summary, id, credits', async () => {
      const r = await cli(['check', targets.missingHeaders], { env })
      expect(r.code, r.stderr).toBe(0)
      expectPlain(r)
      for (const label of ['reachability', 'https', 'response time', 'security headers', 'pagespeed'])
        expect(r.stdout).toMatch(
          new RegExp(`^  ${label}\\s+(ok|warning|needs_review|unavailable)\\s+\\S`, 'm'),
        )
      expect(r.stdout).toMatch(/^ {2}security headers\s+\w+\s+.*\n?.*content-security-policy/m)
      expect(r.stdout).toMatch(/^ {2}score\s+\d+\/100$/m)
      expect(r.stdout).toMatch(/^ {2}risk\s+\w+/m)
      expect(r.stdout).toMatch(/^ {2}summary\s+\S/m)
      expect(r.stdout).toMatch(/^ {2}check id\s+[0-9a-f-]{36}/m)
      expect(r.stdout).toMatch(/^ {2}credits\s+\d+ left/m)
    })

    it('--json: exactly the run result', async () => {
      const r = await cli(['check', targets.healthy, '--json'], { env })
      expect(r.code, r.stderr).toBe(0)
      const body = JSON.parse(r.stdout)
      expect(body.ok).toBe(true)
      expect(body.data.url).toBe(targets.healthy)
      expect(body.data.id).toMatch(UUID)
      expect(Object.keys(body.data.checks).sort()).toEqual(
        ['https', 'pagespeed', 'reachability', 'responseTime', 'securityHeaders'].sort(),
      )
      expect(body.credits.used).toBe(1)
      expect(r.stderr).toBe('')
    })

    it('several URLs --json: one array with each result or error envelope; exit code of the first failure', async () => {
      // userinfo passes the CLI's own checks and is refused by the server (docs/decisions.md#api-open-points)
      const refused = 'https://user:pw@example.com/'
      const r = await cli(['check', targets.healthy, refused, targets.plainHttp, '--json'], {
        env,
      })
      expect(r.code).toBe(2)
      const body = JSON.parse(r.stdout)
      expect(body).toHaveLength(3)
      expect(body[0].ok).toBe(true)
      // every item names its URL: results in data.url, error envelopes in url
      expect(body[1]).toMatchObject({ ok: false, url: refused, error: { code: 'invalid_url' } })
      expect(body[2].ok).toBe(true)
      expect(body[2].data.url).toBe(targets.plainHttp)
    })

    it('several URLs, human: every result, the failure on stderr', async () => {
      const r = await cli(['check', targets.healthy, 'https://user:pw@example.com/', targets.plainHttp], {
        env,
      })
      expect(r.code).toBe(2)
      expectPlain(r)
      expect(r.stdout.match(/^ {2}check id /gm)).toHaveLength(2)
      expect(r.stderr).toMatch(/^https:\/\/user:pw@example\.com\/: Error: /m)
      // the closing line: how many passed / failed, credits used
      expect(r.stdout.trim().split('\n').at(-1)).toMatch(
        /^3 URLs: 2 checked, 1 failed; 2 credits used, \d+ left\.$/,
      )
    })

    it('--file: one URL a line, blank lines and # comments skipped', async () => {
      const file = join(home, 'urls.txt')
      await writeFile(file, `# our sites\n${targets.healthy}\n\n   # staging\n${targets.plainHttp}\n`)
      const r = await cli(['check', '--file', file, '--json'], { env })
      expect(r.code, r.stderr).toBe(0)
      expect(JSON.parse(r.stdout).map((x: any) => x.data.url)).toEqual([targets.healthy, targets.plainHttp])
    })

    it('--file - reads stdin; even one URL from a file gives an array', async () => {
      const r = await cli(['check', '--file', '-', '--json'], { env, input: `# one\n${targets.plainHttp}\n` })
      expect(r.code, r.stdout + r.stderr).toBe(0)
      const body = JSON.parse(r.stdout)
      expect(Array.isArray(body)).toBe(true)
      expect(body[0].data.url).toBe(targets.plainHttp)
    })

    it('--fail-under: 3 when a score is below, after printing everything; 0 when none is', async () => {
      const low = await cli(['check', targets.healthy, '--fail-under', '101'], { env })
      expect(low.code).toBe(3)
      expect(low.stdout).toMatch(/^ {2}score\s+\d+\/100$/m)
      expect(low.stderr).toContain(`Below --fail-under 101: ${targets.healthy}`)
      const lowJson = await cli(['check', targets.healthy, '--fail-under', '101', '--json'], { env })
      expect(lowJson.code).toBe(3)
      expect(JSON.parse(lowJson.stdout).ok).toBe(true)
      const ok = await cli(['check', targets.healthy, '--fail-under', '0'], { env })
      expect(ok.code, ok.stderr).toBe(0)
    })
  })

  describe('exit codes', { timeout: 180_000 }, () => {
    it('1: the API cannot be reached', async () => {
      const r = await cli(['credits', '--api-url', deadApi], { env })
      expectOneLineError(r, 1, /Cannot reach .*Is the server running\?/)
      expectEnvelope(await cli(['credits', '--api-url', deadApi, '--json'], { env }), 1, 'network_error')
      expectEnvelope(await cli(['status', '--api-url', deadApi, '--json']), 1, 'network_error')
    })

    it('2: invalid URL (nothing charged), bad flags, bad option values, unknown id, no URL', async () => {
      const before = JSON.parse((await cli(['credits', '--json'], { env })).stdout).credits_remaining
      expectOneLineError(await cli(['check', 'ftp://example.com/'], { env }), 2)
      expectEnvelope(await cli(['check', 'javascript:alert(1)', '--json'], { env }), 2, 'invalid_url')
      expect(JSON.parse((await cli(['credits', '--json'], { env })).stdout).credits_remaining).toBe(before)

      expectOneLineError(await cli(['recent', '--bogus'], { env }), 2, /Nonexistent flag: --bogus/)
      expectEnvelope(await cli(['recent', '--limit', '7', '--json'], { env }), 2, 'usage_error')
      expectOneLineError(await cli(['check', '--fail-under', 'lots', targets.healthy], { env }), 2)
      expectOneLineError(await cli(['get'], { env }), 2, /Missing 1 required arg: id/)
      expectOneLineError(await cli(['check'], { env }), 2, /No URL given/)
      expectOneLineError(
        await cli(['get', '00000000-0000-4000-8000-000000000000'], { env }),
        2,
        /sitehealth recent/,
      )
      expectEnvelope(
        await cli(['get', '00000000-0000-4000-8000-000000000000', '--json'], { env }),
        2,
        'not_found',
      )
    })

    it('4: no key — the message names the three ways to give one', async () => {
      const r = await cli(['credits'], { env: { SITEHEALTH_API_URL: served.url } })
      expectOneLineError(r, 4)
      expect(r.stderr).toContain('--api-key')
      expect(r.stderr).toContain('SITEHEALTH_API_KEY')
      expect(r.stderr).toContain('config set api-key')
      expectEnvelope(
        await cli(['credits', '--json'], { env: { SITEHEALTH_API_URL: served.url } }),
        4,
        'no_api_key',
      )
    })

    it('4: a key with a bad checksum is refused before any request', async () => {
      // one character changed: the checksum no longer matches
      const typo = key.slice(0, 12) + (key[12] === 'a' ? 'b' : 'a') + key.slice(13)
      // the API URL is dead: had a request been made, this would be exit 1 (network)
      const r = await cli(['credits', '--api-url', deadApi, '--api-key', typo])
      expectOneLineError(r, 4, /checksum.*typo.*--api-key/)
      expectEnvelope(
        await cli(['check', targets.healthy, '--json'], { env: { ...env, SITEHEALTH_API_KEY: typo } }),
        4,
        'invalid_api_key',
      )
    })

    it('4: a well-formed key the server does not know', async () => {
      expectEnvelope(
        await cli(['credits', '--json', '--api-key', generateApiKey()], { env }),
        4,
        'invalid_api_key',
      )
    })

    it('4: a revoked key (revoked with `keys revoke`)', async () => {
      const created = await served.createKey({ user: 'alice', name: 'to-revoke' })
      const revoke = await cli([
        'keys',
        'revoke',
        created.id,
        '--api-url',
        served.url,
        '--data-dir',
        served.dataDir,
        '--yes',
      ])
      expect(revoke.code, revoke.stderr).toBe(0)
      expect(revoke.stdout).toContain(`Revoked API key ${created.id}`)
      const r = await cli(['check', targets.healthy], { env: { ...env, SITEHEALTH_API_KEY: created.key } })
      expectOneLineError(r, 4, /revoked/i)
      expectEnvelope(
        await cli(['credits', '--json'], { env: { ...env, SITEHEALTH_API_KEY: created.key } }),
        4,
        'revoked_api_key',
      )
    })

    it('5: no credits left; `credits grant` fixes it', async () => {
      const broke = (await served.createKey({ user: 'broke', credits: 0 })).key
      const brokeEnv = { ...env, SITEHEALTH_API_KEY: broke }
      const r = await cli(['check', targets.healthy], { env: brokeEnv })
      expectOneLineError(r, 5, /credits grant/)
      expectEnvelope(
        await cli(['check', targets.healthy, '--json'], { env: brokeEnv }),
        5,
        'insufficient_credits',
      )

      const grant = await cli(
        [
          'credits',
          'grant',
          '--user',
          'broke',
          '--amount',
          '1',
          '--json',
          '--admin-token',
          served.adminToken,
        ],
        {
          env: { SITEHEALTH_API_URL: served.url },
        },
      )
      expect(grant.code, grant.stderr).toBe(0)
      expect(JSON.parse(grant.stdout)).toEqual({ user_id: 'broke', credits_remaining: 1 })
      expect((await cli(['check', targets.healthy], { env: brokeEnv })).code).toBe(0)
    })

    it('6: rate limited for longer than the CLI waits', async () => {
      const strict = await startServe({ args: ['--run-limit', '1', '--run-window', '600'] })
      try {
        const k = (await strict.createKey()).key
        const e = { SITEHEALTH_API_URL: strict.url, SITEHEALTH_API_KEY: k }
        expect((await cli(['check', targets.plainHttp], { env: e })).code).toBe(0)
        const r = await cli(['check', targets.plainHttp], { env: e })
        expectOneLineError(r, 6, /wait \d+ s/)
        expectEnvelope(await cli(['check', targets.plainHttp, '--json'], { env: e }), 6, 'rate_limited')
      } finally {
        await strict.stop()
      }
    })
  })

  describe('recent and get', { timeout: 180_000 }, () => {
    let pagedEnv: Env
    let ids: string[]

    beforeAll(async () => {
      pagedEnv = { ...env, SITEHEALTH_API_KEY: (await served.createKey({ user: 'pager', credits: 50 })).key }
      const urls = Array.from({ length: 12 }, (_, i) => `${targets.plainHttp}?page=${i}`).join('\n')
      const r = await cli(['check', '--file', '-', '--json'], { env: pagedEnv, input: urls })
      expect(r.code, r.stderr).toBe(0)
      ids = JSON.parse(r.stdout).map((x: any) => x.data.id)
    }, 120_000)

    it('human: a table and the command for the next page', async () => {
      const r = await cli(['recent', '--limit', '10'], { env: pagedEnv })
      expect(r.code, r.stderr).toBe(0)
      expectPlain(r)
      // stdout is a pipe here: one tab-separated line per check, full values, no header
      const rows = r.stdout.split('\n').map((l) => l.split('\t'))
      expect(rows).toHaveLength(10)
      for (const row of rows) expect(row).toHaveLength(5)
      expect(rows[0][0]).toBe(ids[11]) // newest first, full id
      expect(rows[0][2]).toMatch(/^\d+$/)
      expect(r.stdout).not.toContain(ids[0])
      // the count and the next page go to stderr, so the rows stay clean
      const next = /Next page: sitehealth recent --limit 10 --cursor (\S+)/.exec(r.stderr)
      expect(next).not.toBeNull()

      const page2 = await cli(['recent', '--limit', '10', '--cursor', next![1], '--json'], { env: pagedEnv })
      const body = JSON.parse(page2.stdout)
      expect(body.checks.map((c: any) => c.id)).toEqual([ids[1], ids[0]])
      expect(body.next_cursor).toBeNull()
    })

    it('--all --json: one object with every check and next_cursor null', async () => {
      const r = await cli(['recent', '--all', '--limit', '10', '--json'], { env: pagedEnv })
      expect(r.code, r.stderr).toBe(0)
      const body = JSON.parse(r.stdout)
      expect(body.checks.map((c: any) => c.id)).toEqual([...ids].reverse())
      expect(body.next_cursor).toBeNull()
    })

    it('--all human: one table, no next-page hint', async () => {
      const r = await cli(['recent', '--all', '--limit', '10'], { env: pagedEnv })
      expect(r.code, r.stderr).toBe(0)
      expect(r.stdout.split('\n').map((l) => l.split('\t')[0])).toEqual([...ids].reverse())
      expect(r.stderr).toContain('12 checks. No more checks.')
    })

    it('get: the full saved result, human and --json', async () => {
      const r = await cli(['get', ids[3]], { env: pagedEnv })
      expect(r.code, r.stderr).toBe(0)
      expectPlain(r)
      for (const label of ['reachability', 'https', 'response time', 'security headers', 'pagespeed'])
        expect(r.stdout).toMatch(
          new RegExp(`^  ${label}\\s+(ok|warning|needs_review|unavailable)\\s+\\S`, 'm'),
        )
      // what was measured
      expect(r.stdout).toMatch(/^\s+timing: .*first byte .*total /m)
      expect(r.stdout).toMatch(/^\s+answer: HTTP 200/m)
      expect(r.stdout).toMatch(/^\s+present: content-security-policy/m)
      for (const field of ['score', 'risk', 'summary', 'created', 'check id'])
        expect(r.stdout).toMatch(new RegExp(`^  ${field}\\s+\\S`, 'm'))
      const j = await cli(['get', ids[3], '--json'], { env: pagedEnv })
      const body = JSON.parse(j.stdout)
      expect(body).toMatchObject({ id: ids[3], status: 'completed', url: `${targets.plainHttp}?page=3` })
      expect(Object.keys(body.checks).sort()).toEqual(
        ['https_ssl', 'pagespeed', 'reachability', 'response_time', 'security_headers'].sort(),
      )
    })

    it("another user's check is not found (exit 2)", async () => {
      expectEnvelope(await cli(['get', ids[0], '--json'], { env }), 2, 'not_found')
    })

    it('credits: balance and usage note, human and --json', async () => {
      const r = await cli(['credits'], { env: pagedEnv })
      expect(r.code, r.stderr).toBe(0)
      expect(r.stdout).toMatch(/^38 credits remaining/)
      expect(r.stdout).toMatch(/usage\s+\S/)
      const j = JSON.parse((await cli(['credits', '--json'], { env: pagedEnv })).stdout)
      expect(j).toMatchObject({ credits_remaining: 38, plan: null, usage_note: expect.any(String) })
    })
  })

  describe('admin commands', { timeout: 180_000 }, () => {
    const admin = () => ['--api-url', served.url, '--data-dir', served.dataDir]

    it('keys create: the secret once with a warning; --json has exactly the documented fields', async () => {
      const r = await cli([
        'keys',
        'create',
        '--name',
        'human',
        '--user',
        'bob',
        '--credits',
        '7',
        ...admin(),
      ])
      expect(r.code, r.stderr).toBe(0)
      expectPlain(r)
      expect(r.stdout).toMatch(/shk_live_[0-9A-Za-z]{40,}/)
      expect(r.stdout).toMatch(/will not be shown again/)

      const j = await cli(['keys', 'create', '--name', 'script', '--user', 'bob', '--json', ...admin()])
      const body = JSON.parse(j.stdout)
      expect(Object.keys(body).sort()).toEqual(['created_at', 'id', 'key', 'name', 'prefix', 'user_id'])
      expect(body).toMatchObject({ name: 'script', user_id: 'bob' })
      const credits = await cli(['credits', '--json'], { env: { ...env, SITEHEALTH_API_KEY: body.key } })
      expect(JSON.parse(credits.stdout).credits_remaining).toBe(7)
    })

    it('keys list: a table without secrets; --json', async () => {
      const r = await cli(['keys', 'list', ...admin()])
      expect(r.code, r.stderr).toBe(0)
      expectPlain(r)
      const rows = r.stdout.split('\n').map((l) => l.split('\t'))
      for (const row of rows) expect(row).toHaveLength(7)
      expect(rows.find((row) => row[1] === 'e2e')).toBeDefined()
      expect(r.stdout).not.toContain(key)
      const j = await cli(['keys', 'list', '--json'], {
        env: { SITEHEALTH_API_URL: served.url, SITEHEALTH_DATA_DIR: served.dataDir },
      })
      const body = JSON.parse(j.stdout)
      expect(body.keys.length).toBeGreaterThan(0)
      expect(j.stdout).not.toContain(key)
    })

    it('admin token: SITEHEALTH_ADMIN_TOKEN works; a wrong one exits 4; none for a remote URL exits 4', async () => {
      const ok = await cli(['keys', 'list', '--json'], {
        env: { SITEHEALTH_API_URL: served.url, SITEHEALTH_ADMIN_TOKEN: served.adminToken },
      })
      expect(ok.code, ok.stderr).toBe(0)
      expectOneLineError(await cli(['keys', 'list', '--api-url', served.url, '--admin-token', 'wrong']), 4)
      expectOneLineError(
        await cli(['keys', 'list', '--api-url', 'https://health.example.com']),
        4,
        /--admin-token.*SITEHEALTH_ADMIN_TOKEN/,
      )
    })

    it('keys revoke: unknown id exits 2; --json', async () => {
      expectEnvelope(
        await cli(['keys', 'revoke', '00000000-0000-4000-8000-000000000000', '--json', ...admin()]),
        2,
        'not_found',
      )
      const k = await served.createKey({ name: 'gone' })
      const j = await cli(['keys', 'revoke', k.id, '--json', '--yes', ...admin()])
      expect(j.code, j.stderr).toBe(0)
      expect(JSON.parse(j.stdout)).toMatchObject({ id: k.id, revoked_at: expect.any(String) })
    })

    it('credits grant, human', async () => {
      const r = await cli(['credits', 'grant', '--user', 'carol', '--amount', '5', '--yes', ...admin()])
      expect(r.code, r.stderr).toBe(0)
      expect(r.stdout).toBe('Granted 5 credits to carol: 5 now available.')
    })
  })

  describe('configuration: flag > env > config file > default', { timeout: 180_000 }, () => {
    let cfgHome: string
    let saved: string
    const run = (args: string[], e: Env = {}) =>
      cli(args, { env: { XDG_CONFIG_HOME: join(cfgHome, 'config'), HOME: cfgHome, ...e } })

    beforeAll(async () => {
      cfgHome = await mkdtemp(join(tmpdir(), 'sitehealth-cfg-'))
    })
    afterAll(() => rm(cfgHome, { recursive: true, force: true }))

    it('keys create --save writes key and URL to the config file, mode 0600', async () => {
      const r = await run([
        'keys',
        'create',
        '--name',
        'laptop',
        '--save',
        '--api-url',
        served.url,
        '--data-dir',
        served.dataDir,
      ])
      expect(r.code, r.stderr).toBe(0)
      const file = join(cfgHome, 'config', 'sitehealth', 'config.json')
      expect(r.stdout).toContain(`Saved the key and the API URL to ${file}`)
      const cfg = JSON.parse(await readFile(file, 'utf8'))
      expect(cfg.api_url).toBe(served.url)
      expect(cfg.api_key).toMatch(/^shk_live_/)
      expect(r.stdout).toContain(cfg.api_key)
      expect((await stat(file)).mode & 0o777).toBe(0o600)
      saved = cfg.api_key
    })

    it('the config file alone is enough', async () => {
      const r = await run(['credits', '--json'])
      expect(r.code, r.stderr).toBe(0)
    })

    it('env beats the config file; the flag beats env (key)', async () => {
      const typo = saved.slice(0, -1) + (saved.endsWith('a') ? 'b' : 'a')
      expect((await run(['credits'], { SITEHEALTH_API_KEY: typo })).code).toBe(4)
      const r = await run(['credits'], { SITEHEALTH_API_KEY: typo })
      expect(r.stderr).toContain('SITEHEALTH_API_KEY')
      expect((await run(['credits', '--api-key', saved], { SITEHEALTH_API_KEY: typo })).code).toBe(0)
    })

    it('env beats the config file; the flag beats env (URL)', async () => {
      const r = await run(['credits', '--json'], { SITEHEALTH_API_URL: deadApi })
      expectEnvelope(r, 1, 'network_error')
      expect(JSON.parse(r.stdout).error.message).toContain(deadApi)
      expect((await run(['credits', '--api-url', served.url], { SITEHEALTH_API_URL: deadApi })).code).toBe(0)
    })

    it('the default URL is used when nothing is set', async () => {
      const r = await run(['status', '--json'], { XDG_CONFIG_HOME: join(cfgHome, 'empty') })
      // nothing may listen on 8787 in CI; either way the default URL is the one tried
      if (r.code === 0) expect(JSON.parse(r.stdout).api_url).toBe('http://127.0.0.1:8787')
      else expect(JSON.parse(r.stdout).error.message).toContain('http://127.0.0.1:8787')
    })
  })

  it('without a TTY: no escape codes and no spinner frames, even without NO_COLOR', async () => {
    for (const args of [['check', targets.healthy], ['recent'], ['credits'], ['status']]) {
      const r = await cli(args, { env })
      expect(r.code, r.stderr).toBe(0)
      expectPlain(r)
    }
  })

  it('a CI gate script fails on --fail-under and passes otherwise', async () => {
    const gate = (min: string) =>
      execa('sh', [GATE, targets.healthy, targets.plainHttp], {
        env: baseEnv({ ...env, SITEHEALTH: `${process.execPath} ${CLI}`, MIN_SCORE: min }),
        extendEnv: false,
        reject: false,
      })
    const failed = await gate('101')
    expect(failed.exitCode).toBe(3)
    expect(failed.stderr).toContain('health gate: FAILED')
    const passed = await gate('0')
    expect(passed.exitCode, passed.stderr).toBe(0)
    expect(passed.stdout).toContain('health gate: passed')
  })
})

describe('429 pacing', { timeout: 180_000 }, () => {
  it('waits out Retry-After and finishes every check', async () => {
    const targets = await startTargets()
    const served = await startServe({ args: ['--run-limit', '2', '--run-window', '3'] })
    try {
      const k = (await served.createKey()).key
      const r = await cli(
        ['check', `${targets.plainHttp}?a`, `${targets.plainHttp}?b`, `${targets.plainHttp}?c`, '--json'],
        {
          env: { SITEHEALTH_API_URL: served.url, SITEHEALTH_API_KEY: k },
        },
      )
      expect(r.code, r.stderr).toBe(0)
      const body = JSON.parse(r.stdout)
      expect(body.map((x: any) => x.ok)).toEqual([true, true, true])
      expect(r.stderr).toMatch(/Rate limited; waiting \d+ s/)
    } finally {
      await served.stop()
      await targets.close()
    }
  }, 60_000)
})
