/**
 * Installing like a real package: `npm pack` makes a tarball, `npm install -g` puts it into a
 * temporary global prefix with production dependencies only, and the installed `sitehealth`
 * runs: --version, help, a client command against a real serve, and `mcp` over stdio with the
 * SDK's own client. Exactly what the README tells users to do (and what the MCP config uses).
 *
 * Dependencies resolve from npm's cache first (--prefer-offline); the registry fills any gap.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { execa } from 'execa'
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServe, type Served } from '../helpers/serve.js'

const ROOT = join(import.meta.dirname, '..', '..')
const pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as {
  version: string
  dependencies: Record<string, string>
  devDependencies: Record<string, string>
}

let dir: string
let bin: string
let tarball: string
let served: Served
/** The installed CLI, run with only the environment a user's shell would give it. */
const env = () => ({
  PATH: `${join(dir, 'prefix', 'bin')}:${process.env.PATH}`,
  HOME: dir,
  XDG_CONFIG_HOME: join(dir, 'config'),
  XDG_DATA_HOME: join(dir, 'data'),
  XDG_CACHE_HOME: join(dir, 'cache'),
})

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sitehealth-pack-'))
  // dist/ is built by the test setup; --ignore-scripts: no second build (prepack) here
  const packed = await execa('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], {
    cwd: ROOT,
  })
  tarball = join(dir, (JSON.parse(packed.stdout) as Array<{ filename: string }>)[0].filename)
  await execa(
    'npm',
    [
      'install',
      '-g',
      tarball,
      '--prefix',
      join(dir, 'prefix'),
      '--omit=dev',
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
    ],
    { cwd: dir, env: { npm_config_update_notifier: 'false' } },
  )
  bin = join(dir, 'prefix', 'bin', 'sitehealth')
  served = await startServe()
}, 600_000)
afterAll(async () => {
  await served?.stop()
  if (dir) await rm(dir, { recursive: true, force: true })
})

describe('the packed tarball, installed globally', { timeout: 180_000 }, () => {
  it('holds the built CLI, not the sources or the tests', async () => {
    const list = (await execa('tar', ['tzf', tarball])).stdout.split('\n')
    expect(list).toEqual(
      expect.arrayContaining([
        'package/bin/run.js',
        'package/oclif.manifest.json',
        'package/dist/commands/check.js',
        'package/package.json',
        'package/README.md',
      ]),
    )
    expect(list.filter((f) => /^package\/(src|test|bench|\.ci)\//.test(f))).toEqual([])
    // the docs the README links to ship beside it; build-only and dev-only files do not
    expect(list).toEqual(
      expect.arrayContaining(['package/docs/decisions.md', 'package/dist/client/client.d.ts']),
    )
    expect(
      list.filter((f) =>
        /^package\/(bin\/dev\.js|dist\/dashboard\/build\.|dist\/dashboard\/browser\/|.*\.map$)/.test(f),
      ),
    ).toEqual([])
  })

  it('its main entry is the typed API client, for programmatic use', async () => {
    const installed = join(dir, 'prefix', 'lib', 'node_modules', 'sitehealth')
    const script = `import('sitehealth').then(async (m) => {
      const client = new m.SitehealthClient({ baseUrl: process.argv[1] })
      console.log(JSON.stringify(await client.health()))
    })`
    const r = await execa(process.execPath, ['--input-type=module', '-e', script, served.url], {
      cwd: join(installed, '..', '..'),
      env: env(),
      extendEnv: false,
    })
    expect(JSON.parse(r.stdout)).toMatchObject({ ok: true, service: 'sitehealth' })
  })

  it('installs production dependencies only', async () => {
    const modules = join(dir, 'prefix', 'lib', 'node_modules', 'sitehealth', 'node_modules')
    for (const dep of Object.keys(pkg.dependencies)) expect(existsSync(join(modules, dep)), dep).toBe(true)
    for (const dev of ['vitest', 'typescript', 'dns-packet', 'oclif'])
      expect(existsSync(join(modules, dev)), dev).toBe(false)
    expect(await readdir(join(dir, 'prefix', 'bin'))).toEqual(['sitehealth'])
  })

  it('runs: --version, help, and a client command against a real serve', async () => {
    const v = await execa(bin, ['--version'], { env: env(), extendEnv: false })
    expect(v.stdout).toMatch(new RegExp(`^sitehealth/${pkg.version.replaceAll('.', '\\.')} `))
    const help = await execa(bin, ['help', 'check'], { env: env(), extendEnv: false })
    expect(help.stdout).toContain('--fail-under')
    const status = await execa(bin, ['status', '--json', '--api-url', served.url], {
      env: env(),
      extendEnv: false,
    })
    expect(JSON.parse(status.stdout).health.ok).toBe(true)
  })

  it('`sitehealth mcp` speaks MCP over stdio, as an MCP client starts it', async () => {
    const { key } = await served.createKey({ credits: 3 })
    const client = new Client({ name: 'pack-test', version: '1.0.0' })
    await client.connect(
      new StdioClientTransport({
        command: bin,
        args: ['mcp'],
        env: { ...env(), SITEHEALTH_API_URL: served.url, SITEHEALTH_API_KEY: key },
        stderr: 'ignore',
      }),
    )
    try {
      expect(client.getServerVersion()?.name).toBe('sitehealth-mcp')
      const tools = (await client.listTools()).tools.map((t) => t.name)
      expect(tools).toContain('service_run_website_check')
      const credits = await client.callTool({ name: 'service_get_credits', arguments: {} })
      expect(credits.structuredContent).toMatchObject({ credits_remaining: 3 })
    } finally {
      await client.close()
    }
  })
})
