/**
 * Monitors as code end to end (docs/decisions.md#monitors-as-code): the built CLI's deploy, pull
 * and test against a real `serve`, a local site, and the API read after each step.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { XMLParser } from 'fast-xml-parser'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fileJsonSchema } from '../../src/contract/file-schema.js'
import { startServe, type Served } from '../helpers/serve.js'
import { cliRunner } from '../helpers/cli.js'

let served: Served
let site: Server
let siteUrl: string
let home: string
let key: string
const { cli } = cliRunner(() => home)

const env = (extra: Record<string, string> = {}) => ({
  SITEHEALTH_API_URL: served.url,
  SITEHEALTH_API_KEY: key,
  HOOK_URL: 'http://127.0.0.1:9/hook',
  ...extra,
})

async function api(path: string) {
  const res = await fetch(`${served.url}/api/public/v1${path}`, {
    headers: { authorization: `Bearer ${key}` },
  })
  return res.json() as Promise<any>
}

const FILE = () => `# yaml-language-server: $schema=../schema/sitehealth.schema.json
channels:
  ops-hook: { type: webhook, url: "\${HOOK_URL}" }
  team: { type: slack, url: "http://127.0.0.1:9/slack" }
monitors:
  - ref: home
    name: Home page
    url: ${siteUrl}/
    every: 5m
    channels: [ops-hook]
  - ref: api
    url: ${siteUrl}/api
    every: 1h
    alerts: { down_after: 3, min_score: 10 }
    assertions:
      - { source: status_code, comparison: equals, target: 200 }
      - { source: text_body, comparison: contains, target: ok }
    channels: [ops-hook, team]
status_pages:
  - slug: e2e-acme
    title: Acme status
    monitors: [home, api]
`

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'sitehealth-ascode-'))
  site = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' })
    res.end('<!doctype html><title>ok</title><p>ok</p>')
  })
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r))
  siteUrl = `http://127.0.0.1:${(site.address() as { port: number }).port}`
  served = await startServe({ args: ['--quiet', '--rate-limit', '1000'] })
  key = (await served.createKey({ user: 'as-code', credits: 100 })).key
}, 60_000)

afterAll(async () => {
  await served?.stop()
  site?.close()
  await rm(home, { recursive: true, force: true })
})

describe('sitehealth deploy / pull / test', () => {
  it(
    'ships a JSON Schema equal to a fresh generation from the zod shapes',
    { timeout: 240_000 },
    async () => {
      const shipped = JSON.parse(
        await readFile(join(import.meta.dirname, '../../schema/sitehealth.schema.json'), 'utf8'),
      )
      expect(shipped).toEqual(JSON.parse(JSON.stringify(fileJsonSchema())))
    },
  )

  it(
    'refuses a broken file with FILE:LINE:COL and exit 2, applying nothing',
    { timeout: 240_000 },
    async () => {
      const f = join(home, 'broken.yaml')
      await writeFile(
        f,
        FILE().replace('every: 1h', 'evry: 1h').replace('[ops-hook, team]', '[ops-hook, nope]'),
      )
      const r = await cli(['deploy', '--file', f, '--yes'], { env: env() })
      expect(r.code).toBe(2)
      expect(r.stderr).toMatch(/broken\.yaml:13:5: unknown key "evry"/)
      await writeFile(
        f,
        FILE().replace('[ops-hook, team]', '[ops-hook, nope]').replace('- ref: api', '- ref: home'),
      )
      const r2 = await cli(['deploy', '--file', f, '--yes'], { env: env() })
      expect(r2.code).toBe(2)
      expect(r2.stderr).toMatch(/broken\.yaml:\d+:\d+: duplicate ref "home"/)
      expect(r2.stderr).toMatch(/no channel named "nope"/)
      const r3 = await cli(['deploy', '--file', join(home, 'sitehealth.yaml')], {
        env: { ...env(), HOOK_URL: '' },
      })
      expect(r3.code).toBe(2)
      expect((await api('/monitors')).monitors).toHaveLength(0)
    },
  )

  it(
    'plans, applies, is idempotent, updates field by field and prunes only with --prune',
    { timeout: 240_000 },
    async () => {
      const f = join(home, 'sitehealth.yaml')
      await writeFile(f, FILE())
      const missing = await cli(['deploy', '--file', f, '--yes'], { env: { ...env(), HOOK_URL: '' } })
      expect(missing.code).toBe(2)
      expect(missing.stderr).toContain('HOOK_URL')

      const dry = await cli(['deploy', '--file', f, '--dry-run'], { env: env() })
      expect(dry.code).toBe(0)
      expect(dry.stdout).toContain('+ create monitor home')
      expect(dry.stdout).toContain('+ create status page e2e-acme')
      expect((await api('/monitors')).monitors).toHaveLength(0)

      const first = await cli(['deploy', '--file', f, '--json'], { env: env() })
      expect(first.code).toBe(0)
      const out = JSON.parse(first.stdout)
      expect(out.plan.summary).toEqual({ create: 3, update: 0, delete: 0 })
      expect(out.secrets.filter((s: any) => s.channel === 'ops-hook')).toHaveLength(2)
      const monitors = (await api('/monitors')).monitors
      expect(monitors.map((m: any) => m.ref).sort()).toEqual(['api', 'home'])
      const apiMon = monitors.find((m: any) => m.ref === 'api')
      expect(apiMon).toMatchObject({ interval_seconds: 3600, alerts: { down_after: 3, min_score: 10 } })
      expect(apiMon.assertions).toEqual([
        { source: 'status_code', comparison: 'equals', target: 200 },
        { source: 'text_body', comparison: 'contains', target: 'ok' },
      ])
      const hookId = apiMon.channels[0].id

      const again = await cli(['deploy', '--file', f], { env: env() })
      expect(again.stdout.trim()).toBe('No changes.')

      await writeFile(f, FILE().replace('every: 1h', 'every: 30m').replace('[ops-hook, team]', '[ops-hook]'))
      const edit = await cli(['deploy', '--file', f, '--yes'], { env: env() })
      expect(edit.stdout).toContain('~ update monitor api')
      expect(edit.stdout).toContain('interval_seconds: 3600 → 1800')
      expect(edit.stdout).toContain('channels: ["ops-hook","team"] → ["ops-hook"]')
      const after = await api(`/monitors/${apiMon.id}`)
      // the webhook channel kept its id (and so its secret)
      expect(after.channels.map((c: any) => c.id)).toEqual([hookId])

      const without = FILE()
        .replace('every: 1h', 'every: 30m')
        .replace('[ops-hook, team]', '[ops-hook]')
        .replace(/ {2}- ref: api[\s\S]*?channels: \[ops-hook\]\n/, '')
        .replace('[home, api]', '[home]')
      await writeFile(f, without)
      const noPrune = await cli(['deploy', '--file', f, '--yes'], { env: env() })
      expect(noPrune.stdout).not.toContain('- delete')
      expect((await api('/monitors')).monitors).toHaveLength(2)
      const pruneNoYes = await cli(['deploy', '--file', f, '--prune'], { env: env() })
      expect(pruneNoYes.code).toBe(2)
      expect(pruneNoYes.stdout).toContain('- delete monitor api')
      expect((await api('/monitors')).monitors).toHaveLength(2)
      const prune = await cli(['deploy', '--file', f, '--prune', '--yes'], { env: env() })
      expect(prune.code).toBe(0)
      expect((await api('/monitors')).monitors.map((m: any) => m.ref)).toEqual(['home'])
    },
  )

  it(
    'pulls a file that deploys to No changes, without environment values',
    { timeout: 240_000 },
    async () => {
      const f = join(home, 'sitehealth.yaml')
      await writeFile(f, FILE())
      expect((await cli(['deploy', '--file', f, '--yes'], { env: env() })).code).toBe(0)
      const pulled = join(home, 'pulled.yaml')
      const p = await cli(['pull', '--file', pulled], { env: env() })
      expect(p.code).toBe(0)
      const text = await readFile(pulled, 'utf8')
      expect(text).toContain('${HOOK_URL}')
      expect(text).not.toContain('127.0.0.1:9/hook')
      // the modeline names the schema this server serves (it named an unclaimed registry package)
      const schemaAt = `${served.url}/schema/sitehealth.schema.json`
      expect(text.split('\n')[0]).toBe(`# yaml-language-server: $schema=${schemaAt}`)
      const schema = await fetch(schemaAt)
      expect(schema.headers.get('content-type')).toBe('application/schema+json')
      const { $id, ...rest } = (await schema.json()) as Record<string, unknown>
      expect($id).toBe(schemaAt)
      expect(rest).toEqual(JSON.parse(JSON.stringify(fileJsonSchema())))
      const r = await cli(['deploy', '--file', pulled], { env: env() })
      expect(r.stdout.trim()).toBe('No changes.')
    },
  )

  it(
    'tests every URL monitor once: JUnit XML a real parser reads, exit 3 on a failed score',
    { timeout: 240_000 },
    async () => {
      const f = join(home, 'test.yaml')
      await writeFile(
        f,
        `monitors:\n  - ref: good\n    url: ${siteUrl}/\n    assertions: [{ source: status_code, comparison: equals, target: 200 }]\n` +
          `  - ref: strict\n    url: ${siteUrl}/s\n    alerts: { min_score: 100 }\n    assertions:\n` +
          `      - { source: status_code, comparison: equals, target: 200 }\n` +
          `      - { source: text_body, comparison: contains, target: nope }\n` +
          `      - { source: header, property: content-type, comparison: contains, target: json }\n`,
      )
      const xmlFile = join(home, 'junit.xml')
      const r = await cli(['test', '--file', f, '--reporter', 'junit', '--output', xmlFile], { env: env() })
      expect(r.code).toBe(3)
      const xml = new XMLParser({ ignoreAttributes: false }).parse(await readFile(xmlFile, 'utf8'))
      const suite = xml.testsuites.testsuite
      const cases = [suite.testcase].flat()
      expect(cases).toHaveLength(2)
      const strict = cases.find((c: any) => String(c['@_name']).startsWith('strict'))
      const failures = [strict.failure].flat().map((x: any) => x['@_message'])
      // one <failure> per failed assertion, with what was expected and what the check saw
      expect(failures).toHaveLength(3)
      expect(failures[0]).toBe(
        'text_body contains nope: expected contains nope, actual "<!doctype html><title>ok</title><p>ok</p>"',
      )
      expect(failures[1]).toBe(
        'header content-type contains json: expected contains json, actual "text/html"',
      )
      expect(failures[2]).toMatch(/min_score: expected health_score >= 100, actual \d+/)
      const goodCase = cases.find((c: any) => String(c['@_name']).startsWith('good'))
      expect(goodCase.failure).toBeUndefined()
      const json = await cli(['test', '--file', f, '--reporter', 'json', '--grep', '^good$'], { env: env() })
      expect(json.code).toBe(0)
      expect(JSON.parse(json.stdout).tests.map((t: any) => t.ref)).toEqual(['good'])
      const summary = join(home, 'summary.md')
      const gh = await cli(['test', '--file', f, '--reporter', 'github'], {
        env: env({ GITHUB_STEP_SUMMARY: summary }),
      })
      expect(gh.code).toBe(3)
      expect(gh.stdout).toMatch(/^::error file=.*title=sitehealth strict::min_score/m)
      expect(await readFile(summary, 'utf8')).toContain('| strict |')
    },
  )

  it(
    'says what an interrupted deploy applied and what not, and a second deploy completes it',
    { timeout: 240_000 },
    async () => {
      const other = (await served.createKey({ user: 'as-code-interrupted', credits: 10 })).key
      // between the CLI and serve: the second monitor creation fails as a dependency outage would
      let creates = 0
      const relay = async (req: IncomingMessage, res: ServerResponse) => {
        const body = await new Promise<Buffer>((r) => {
          const parts: Buffer[] = []
          req.on('data', (c: Buffer) => parts.push(c)).on('end', () => r(Buffer.concat(parts)))
        })
        if (req.method === 'POST' && req.url === '/api/public/v1/monitors' && ++creates === 2) {
          res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '1' })
          res.end(
            JSON.stringify({
              success: false,
              error: { code: 'service_unavailable', message: 'The store is unavailable.' },
            }),
          )
          return
        }
        const up = await fetch(`${served.url}${req.url}`, {
          method: req.method,
          headers: Object.fromEntries(
            Object.entries(req.headers).filter(([k]) => k !== 'host' && k !== 'content-length') as [
              string,
              string,
            ][],
          ),
          body: body.length ? new Uint8Array(body) : undefined,
        })
        res.writeHead(up.status, { 'content-type': up.headers.get('content-type') ?? 'application/json' })
        res.end(Buffer.from(await up.arrayBuffer()))
      }
      const proxy = createServer((req, res) => {
        relay(req, res).catch((e: unknown) => res.destroy(e as Error))
      })
      await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r))
      const proxyUrl = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`
      try {
        const f = join(home, 'three.yaml')
        await writeFile(
          f,
          ['one', 'two', 'three']
            .map((r) => `  - { ref: ${r}, url: "${siteUrl}/${r}", every: 1h }`)
            .join('\n')
            .replace(/^/, 'monitors:\n') + '\n',
        )
        const first = await cli(['deploy', '--file', f, '--yes'], {
          env: { SITEHEALTH_API_URL: proxyUrl, SITEHEALTH_API_KEY: other },
        })
        expect(first.code).not.toBe(0)
        expect(first.stdout + first.stderr).toMatch(/Failed at: \+ create monitor two/)
        expect(first.stdout + first.stderr).toMatch(/Not applied \(2\):[\s\S]*two[\s\S]*three/)
        const mine = async () =>
          (
            (await (
              await fetch(`${served.url}/api/public/v1/monitors`, {
                headers: { authorization: `Bearer ${other}` },
              })
            ).json()) as { monitors: { ref: string }[] }
          ).monitors.map((m) => m.ref)
        expect(await mine()).toEqual(['one'])
        const again = await cli(['deploy', '--file', f, '--yes'], {
          env: { SITEHEALTH_API_URL: served.url, SITEHEALTH_API_KEY: other },
        })
        expect(again.code, again.stderr).toBe(0)
        expect((await mine()).sort()).toEqual(['one', 'three', 'two'])
        const third = await cli(['deploy', '--file', f, '--yes'], {
          env: { SITEHEALTH_API_URL: served.url, SITEHEALTH_API_KEY: other },
        })
        expect(third.stdout).toContain('No changes')
      } finally {
        proxy.close()
      }
    },
  )

  it('exits 7 when a site cannot be checked', { timeout: 240_000 }, async () => {
    const f = join(home, 'down.yaml')
    await writeFile(f, `monitors:\n  - ref: gone\n    url: http://127.0.0.1:9/\n`)
    const r = await cli(['test', '--file', f], { env: env() })
    expect(r.code).toBe(7)
    expect(r.stdout).toContain('ERROR gone')
  })
})
