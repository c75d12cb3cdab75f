/**
 * `maintenance get` and `maintenance update` end to end: the built CLI against a real `serve`.
 * Get shows a window by full or short id; update changes only what its flags say (weekly flags
 * merged with the window's schedule), and errors are one line with the README's exit codes.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { publicApi } from '../helpers/api.js'
import { cliRunner, expectEnvelope, expectOneLineError, expectPlain } from '../helpers/cli.js'
import { startServe, type Served } from '../helpers/serve.js'

let served: Served
let home: string
let key: string
let env: Record<string, string>
const { cli } = cliRunner(() => home)
const api = publicApi(
  () => served.url,
  () => key,
)

beforeAll(async () => {
  served = await startServe({ args: ['--quiet'] })
  home = await mkdtemp(join(tmpdir(), 'sitehealth-mwu-home-'))
  key = (await served.createKey({ user: 'mwu', credits: 0 })).key
  env = { SITEHEALTH_API_URL: served.url, SITEHEALTH_API_KEY: key }
}, 120_000)

afterAll(async () => {
  await served?.stop()
  if (home) await rm(home, { recursive: true, force: true })
})

async function heartbeat(name: string): Promise<string> {
  const m = await api('POST', '/monitors', { type: 'heartbeat', name, interval_seconds: 3600 })
  expect(m.status).toBe(201)
  return m.body.id
}

describe('maintenance get and update', () => {
  it('shows a window by its full or short id, as the API has it', async () => {
    const a = await heartbeat('backup')
    const w = (
      await api('POST', '/maintenance-windows', {
        name: 'Release',
        monitor_ids: [a],
        starts_at: '2030-01-01T22:00:00Z',
        ends_at: '2030-01-01T23:00:00Z',
      })
    ).body
    const human = await cli(['maintenance', 'get', w.id], { env })
    expect(human.code, human.stderr).toBe(0)
    expectPlain(human)
    expect(human.stdout).toContain('Release')
    expect(human.stdout).toContain(w.id)
    expect(human.stdout).toContain(a)
    const json = await cli(['maintenance', 'get', w.id, '--json'], { env })
    expect(JSON.parse(json.stdout)).toEqual((await api('GET', `/maintenance-windows/${w.id}`)).body)
    const short = await cli(['maintenance', 'get', w.id.slice(-8), '--json'], { env })
    expect(short.code, short.stderr).toBe(0)
    expect(JSON.parse(short.stdout).id).toBe(w.id)
  }, 60_000)

  it('changes only what the flags say, merging weekly flags with the schedule', async () => {
    const a = await heartbeat('a')
    const b = await heartbeat('b')
    const w = (
      await api('POST', '/maintenance-windows', {
        name: 'Patch night',
        monitor_ids: [a],
        starts_at: '2030-02-01T22:00:00Z',
        ends_at: '2030-02-01T23:00:00Z',
      })
    ).body
    const renamed = await cli(
      [
        'maintenance',
        'update',
        w.id,
        '--name',
        'Patch night 2',
        '--ends-at',
        '2030-02-02T00:00:00Z',
        '--json',
      ],
      { env },
    )
    expect(renamed.code, renamed.stderr).toBe(0)
    expect(JSON.parse(renamed.stdout)).toMatchObject({
      name: 'Patch night 2',
      monitor_ids: [a],
      starts_at: '2030-02-01T22:00:00Z',
      ends_at: '2030-02-02T00:00:00Z',
      weekly: null,
    })

    const weekly = await cli(
      [
        'maintenance',
        'update',
        w.id,
        '--days',
        'sat,sun',
        '--at',
        '02:00',
        '--duration',
        '90m',
        '--timezone',
        'Europe/Berlin',
        '--monitor',
        b,
      ],
      { env },
    )
    expect(weekly.code, weekly.stderr).toBe(0)
    expect(weekly.stdout).toContain('every sat, sun 02:00 for 90 min (Europe/Berlin)')
    const moved = await cli(['maintenance', 'update', w.id, '--at', '03:30'], { env })
    expect(moved.code, moved.stderr).toBe(0)
    expect((await api('GET', `/maintenance-windows/${w.id}`)).body).toMatchObject({
      name: 'Patch night 2',
      monitor_ids: [b],
      weekly: { days: ['sat', 'sun'], start: '03:30', duration_minutes: 90, timezone: 'Europe/Berlin' },
    })
    const oneOff = await cli(['maintenance', 'update', w.id, '--one-off', '--json'], { env })
    expect(oneOff.code, oneOff.stderr).toBe(0)
    expect(JSON.parse(oneOff.stdout)).toMatchObject({ weekly: null, starts_at: '2030-02-01T22:00:00Z' })
    const all = await cli(['maintenance', 'update', w.id, '--all', '--json'], { env })
    expect(JSON.parse(all.stdout).monitor_ids).toBe('all')
  }, 60_000)

  it('says what is wrong in one line, with the exit codes of the README', async () => {
    const w = (
      await api('POST', '/maintenance-windows', {
        name: 'Once',
        monitor_ids: 'all',
        starts_at: '2030-03-01T22:00:00Z',
        ends_at: '2030-03-01T23:00:00Z',
      })
    ).body
    expectOneLineError(await cli(['maintenance', 'update', w.id], { env }), 2, /Nothing to change/)
    expectOneLineError(
      await cli(['maintenance', 'update', w.id, '--at', '03:00'], { env }),
      2,
      /one-off: making it weekly needs --days, --at and --duration/,
    )
    expectOneLineError(
      await cli(['maintenance', 'update', w.id, '--ends-at', '2030-03-01T21:00:00Z'], { env }),
      2,
      /ends_at must be after starts_at/,
    )
    expectOneLineError(
      await cli(
        [
          'maintenance',
          'update',
          w.id,
          '--days',
          'sat',
          '--at',
          '02:00',
          '--duration',
          '1h',
          '--timezone',
          'Mars/Base',
        ],
        { env },
      ),
      2,
      /weekly\.timezone.*IANA/,
    )
    expect((await api('GET', `/maintenance-windows/${w.id}`)).body).toMatchObject({
      name: 'Once',
      weekly: null,
    })

    const unknown = '0193a5d0-1b2c-7d3e-9f40-5a6b7c8d9e0f'
    expectOneLineError(
      await cli(['maintenance', 'get', unknown], { env }),
      2,
      /`sitehealth maintenance list` lists/,
    )
    expectEnvelope(await cli(['maintenance', 'get', unknown, '--json'], { env }), 2, 'not_found')
    expectEnvelope(
      await cli(['maintenance', 'update', unknown, '--name', 'x', '--json'], { env }),
      2,
      'not_found',
    )
    expectOneLineError(
      await cli(['maintenance', 'get', 'foo'], { env }),
      2,
      /"foo" is not a maintenance window id: give the full id or its short id/,
    )
    expectOneLineError(
      await cli(['maintenance', 'get', 'beef'], { env }),
      2,
      /No maintenance window id ends with beef/,
    )
    const other = (await served.createKey({ user: 'mwu-other', credits: 0 })).key
    expectEnvelope(
      await cli(['maintenance', 'get', w.id, '--json'], { env: { ...env, SITEHEALTH_API_KEY: other } }),
      2,
      'not_found',
    )
    expectOneLineError(
      await cli(['maintenance', 'get', w.id], { env: { ...env, SITEHEALTH_API_KEY: 'sh_live_nope' } }),
      4,
    )
  }, 60_000)
})
