/**
 * `sitehealth monitors …` end to end: the built CLI against a real `serve`, human output (plain:
 * stdout is a pipe) and --json (exactly the API bodies), exit codes for bad input and unknown ids.
 * Also the two MCP monitor tools over stdio.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeTestPki } from '../fixtures/certs.js'
import { cliRunner } from '../helpers/cli.js'
import { CLI, startServe, UNLIMITED, type Served } from '../helpers/serve.js'
import { startFlappySite, waitFor, type FlappySite } from '../monitors/fixtures.js'

let served: Served
let site: FlappySite
let home: string
let key: string

const { cli: run } = cliRunner(() => home)
const cli = (args: string[]) =>
  run(args, { env: { SITEHEALTH_API_URL: served.url, SITEHEALTH_API_KEY: key }, timeout: 60_000 })

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'sitehealth-mon-cli-'))
  const pki = await makeTestPki()
  site = await startFlappySite(pki.valid)
  served = await startServe({
    args: ['--min-interval', '1', ...UNLIMITED, '--quiet'],
    env: { NODE_EXTRA_CA_CERTS: pki.caPath },
  })
  key = (await served.createKey({ user: 'cli', credits: 100 })).key
}, 120_000)

afterAll(async () => {
  await served?.stop()
  await site?.close()
  await rm(home, { recursive: true, force: true })
})

describe('sitehealth monitors', () => {
  it('create, list, get, pause, resume, run, runs, events, delete', async () => {
    const created = await cli([
      'monitors',
      'create',
      site.url('/cli'),
      '--every',
      '2s',
      '--name',
      'cli site',
      '--webhook',
      'http://127.0.0.1:9/hook',
      '--min-score',
      '50',
      '--json',
    ])
    expect(created.code, created.stderr).toBe(0)
    const m = JSON.parse(created.stdout)
    expect(m).toMatchObject({
      name: 'cli site',
      interval_seconds: 2,
      alerts: { min_score: 50, down_after: 2 },
    })
    expect(m.channels[0].secret).toMatch(/^whsec_/)

    const human = await cli(['monitors', 'create', site.url('/cli2'), '--every', '1h'])
    expect(human.code).toBe(0)
    expect(human.stdout).toMatch(/every\s+1h/)
    expect(human.stdout).not.toContain('\x1b')

    const list = await cli(['monitors', 'list', '--json'])
    expect(JSON.parse(list.stdout).monitors).toHaveLength(2)
    expect((await cli(['monitors', 'list'])).stdout).toMatch(/cli site/)

    await waitFor(
      async () => JSON.parse((await cli(['monitors', 'get', m.id, '--json'])).stdout).last_check,
      20_000,
      'a first run',
    )
    const get = await cli(['monitors', 'get', m.id])
    expect(get.stdout).toMatch(/monitor id\s+/)
    expect(get.stdout).not.toMatch(/whsec_/)

    const paused = JSON.parse((await cli(['monitors', 'pause', m.id, '--json'])).stdout)
    expect(paused).toMatchObject({ paused: true, state: 'paused', paused_reason: 'user', next_run_at: null })
    const resumed = JSON.parse((await cli(['monitors', 'resume', m.id, '--json'])).stdout)
    expect(resumed.paused).toBe(false)

    const run = await cli(['monitors', 'run', m.id, '--json'])
    expect(run.code, run.stderr).toBe(0)
    expect(JSON.parse(run.stdout)).toMatchObject({ ok: true, credits: { used: 1 } })

    const runs = JSON.parse((await cli(['monitors', 'runs', m.id, '--json'])).stdout)
    expect(runs.runs.some((r: any) => r.trigger === 'manual' && r.outcome === 'saved')).toBe(true)
    expect((await cli(['monitors', 'runs', m.id])).stdout).toMatch(/saved/)
    const events = await cli(['monitors', 'events', m.id, '--json'])
    expect(JSON.parse(events.stdout)).toHaveProperty('events')

    const del = await cli(['monitors', 'delete', m.id])
    expect(del.code).toBe(0)
    expect(del.stdout).toMatch(/Deleted/)
    const gone = await cli(['monitors', 'get', m.id, '--json'])
    expect(gone.code).toBe(2)
    expect(JSON.parse(gone.stdout).error.code).toBe('not_found')
  }, 90_000)

  it('uptime: the monitor field, `monitors uptime` (human and --json) and the MCP tool agree with the runs listed', async () => {
    const m = JSON.parse(
      (
        await cli([
          'monitors',
          'create',
          site.url('/uptime'),
          '--every',
          '1s',
          '--name',
          'uptime site',
          '--json',
        ])
      ).stdout,
    )
    expect(m.uptime).toEqual({ '24h': null, '7d': null, '30d': null })
    const runsOf = async () =>
      JSON.parse((await cli(['monitors', 'runs', m.id, '--json', '--limit', '50'])).stdout).runs
    await waitFor(async () => (await runsOf()).length >= 2, 20_000, 'two runs')
    await site.refuse()
    try {
      await waitFor(
        async () => (await runsOf()).some((r: any) => r.outcome === 'failed'),
        20_000,
        'a failed run',
      )
    } finally {
      await site.accept()
    }
    await waitFor(async () => (await runsOf())[0].outcome === 'saved', 20_000, 'a run after the site is back')
    await cli(['monitors', 'pause', m.id])
    const runs = await runsOf()
    const failed = runs.filter((r: any) => r.outcome === 'failed').length
    const expected = Math.floor(((runs.length - failed) / runs.length) * 10_000) / 100

    const json = await cli(['monitors', 'uptime', m.id, '--from', '1h', '--granularity', 'hour', '--json'])
    expect(json.code, json.stderr).toBe(0)
    const report = JSON.parse(json.stdout)
    expect(report).toMatchObject({ runs: runs.length, failed_runs: failed, uptime_percent: expected })
    expect(report.downtime_seconds).toBe(failed)
    expect(report.buckets.reduce((n: number, b: any) => n + b.runs, 0)).toBe(runs.length)
    const daily = JSON.parse((await cli(['monitors', 'uptime', m.id, '--json'])).stdout)
    expect(daily).toMatchObject({ runs: runs.length, failed_runs: failed })
    expect(JSON.parse((await cli(['monitors', 'get', m.id, '--json'])).stdout).uptime).toEqual({
      '24h': expected,
      '7d': expected,
      '30d': expected,
    })

    const human = await cli(['monitors', 'uptime', m.id])
    expect(human.code).toBe(0)
    expect(human.stdout).toContain(`${runs.length}\t${failed}`) // plain output: the buckets, tab-separated
    expect((await cli(['monitors', 'get', m.id])).stdout).toMatch(new RegExp(`uptime\\s+24h ${expected}%`))

    const badFrom = await cli(['monitors', 'uptime', m.id, '--from', 'last tuesday'])
    expect(badFrom.code).toBe(2)
    expect(badFrom.stderr).toMatch(/--from "last tuesday" is not a time/)
    const backwards = await cli(['monitors', 'uptime', m.id, '--from', 'now', '--to', '1d', '--json'])
    expect(backwards.code).toBe(2)
    expect(JSON.parse(backwards.stdout).error.message).toMatch(/from must be before to/)

    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp'],
      env: { PATH: process.env.PATH!, HOME: home, SITEHEALTH_API_URL: served.url, SITEHEALTH_API_KEY: key },
      stderr: 'ignore',
    })
    const client = new Client({ name: 'test', version: '1.0.0' })
    await client.connect(transport)
    try {
      const tool = (await client.listTools()).tools.find((t) => t.name === 'service_get_monitor_uptime')!
      expect(tool.annotations).toMatchObject({ readOnlyHint: true })
      const got = await client.callTool({
        name: 'service_get_monitor_uptime',
        arguments: { monitor_id: m.id },
      })
      expect(got.isError).toBeFalsy()
      expect(got.structuredContent).toMatchObject({ runs: runs.length, failed_runs: failed })
      expect((got.content as any)[0].text).toMatch(new RegExp(`Uptime ${expected}%`))
    } finally {
      await client.close()
    }
  }, 120_000)

  it('bad input exits 2 with one clear line', async () => {
    const every = await cli(['monitors', 'create', site.url('/'), '--every', 'often'])
    expect(every.code).toBe(2)
    expect(every.stderr).toMatch(/--every/)
    const url = await cli(['monitors', 'create', 'ftp://example.com/', '--json'])
    expect(url.code).toBe(2)
    expect(JSON.parse(url.stdout).error.code).toBe('invalid_url')
    const remind = await cli(['monitors', 'create', site.url('/'), '--remind-every', '90s'])
    expect(remind.code).toBe(2)
    expect(remind.stderr).toMatch(/--remind-every "90s" is not a reminder interval/)
    const flap = await cli([
      'monitors',
      'create',
      site.url('/flap'),
      '--every',
      '1h',
      '--recover-after',
      '2',
      '--remind-every',
      '1h',
      '--json',
    ])
    expect(flap.code, flap.stderr).toBe(0)
    expect(JSON.parse(flap.stdout).alerts).toMatchObject({ recover_after: 2, remind_every_minutes: 60 })
    const asserted = await cli([
      'monitors',
      'create',
      site.url('/asserted'),
      '--every',
      '1h',
      '--assert',
      'status_code equals 200',
      '--assert',
      'json_body $.status equals ok',
      '--json',
    ])
    expect(asserted.code, asserted.stderr).toBe(0)
    expect(JSON.parse(asserted.stdout).assertions).toEqual([
      { source: 'status_code', comparison: 'equals', target: 200 },
      { source: 'json_body', property: '$.status', comparison: 'equals', target: 'ok' },
    ])
    const badAssert = await cli(['monitors', 'create', site.url('/'), '--assert', 'status_code equalz 200'])
    expect(badAssert.code).toBe(2)
    expect(badAssert.stderr.trim().split('\n')).toHaveLength(1)
    expect(badAssert.stderr).toMatch(/--assert "status_code equalz 200"/)
    // not an id at all: the CLI says what it got and what it takes, not the API's "must be a UUID"
    const id = await cli(['monitors', 'get', 'nope'])
    expect(id.code).toBe(2)
    expect(id.stderr.trim().split('\n')).toHaveLength(1)
    expect(id.stderr).toMatch(/"nope" is not a monitor id: give the full id or its short id/)
    expect(id.stderr).not.toMatch(/UUID/)
    // the short id the list shows on a terminal finds the monitor
    const made = JSON.parse(flap.stdout)
    const short = await cli(['monitors', 'get', made.id.slice(-8), '--json'])
    expect(short.code, short.stderr).toBe(0)
    expect(JSON.parse(short.stdout).id).toBe(made.id)
    const none = await cli(['monitors', 'get', 'beef0000'])
    expect(none.code).toBe(2)
    expect(none.stderr).toMatch(/No monitor id ends with beef0000/)
  }, 30_000)

  it('MCP: service_create_monitor and service_list_monitors', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp'],
      env: { PATH: process.env.PATH!, HOME: home, SITEHEALTH_API_URL: served.url, SITEHEALTH_API_KEY: key },
      stderr: 'ignore',
    })
    const client = new Client({ name: 'test', version: '1.0.0' })
    await client.connect(transport)
    try {
      const { tools } = await client.listTools()
      const create = tools.find((t) => t.name === 'service_create_monitor')!
      expect(create.annotations).toMatchObject({ readOnlyHint: false, openWorldHint: true })
      expect(create.description).toMatch(/credit/)
      expect(create.outputSchema?.type).toBe('object')
      const list = tools.find((t) => t.name === 'service_list_monitors')!
      expect(list.annotations).toMatchObject({ readOnlyHint: true })
      const made = await client.callTool({
        name: 'service_create_monitor',
        arguments: { url: site.url('/mcp'), interval_seconds: 3600, name: 'from mcp' },
      })
      expect(made.isError).toBeFalsy()
      expect((made.structuredContent as any).name).toBe('from mcp')
      const listed = await client.callTool({ name: 'service_list_monitors', arguments: { limit: 50 } })
      expect((listed.structuredContent as any).monitors.some((x: any) => x.name === 'from mcp')).toBe(true)
      const bad = await client.callTool({
        name: 'service_create_monitor',
        arguments: { url: site.url('/'), interval_seconds: 0 },
      })
      expect(bad.isError).toBe(true)
    } finally {
      await client.close()
    }
  }, 60_000)
})
