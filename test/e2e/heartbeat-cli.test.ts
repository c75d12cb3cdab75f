/**
 * Heartbeat monitors end to end: the built CLI's `monitors create --heartbeat` against a real
 * `serve` prints the push URL once; a job's GET or POST on it records a beat (no key, no credit),
 * `?status=down&msg=…` a failure; silence past interval + grace is down, with its event; an
 * unknown token is 404.
 */
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { waitFor } from '../helpers/api.js'
import { serveWithAccount } from '../helpers/e2e.js'
import { expectOneLineError, expectPlain } from '../helpers/cli.js'

const acct = serveWithAccount({ args: ['--min-interval', '1', '--quiet'], user: 'hb', credits: 0 })
const { api, cli } = acct

describe('heartbeat monitors end to end', () => {
  it('prints the push URL once; beats keep it up, silence and status=down take it down', async () => {
    const env = acct.env()
    const created = await cli(
      [
        'monitors',
        'create',
        '--heartbeat',
        '--every',
        '2s',
        '--grace',
        '2s',
        '--name',
        'nightly',
        '--down-after',
        '1',
      ],
      { env },
    )
    expect(created.code, created.stderr).toBe(0)
    expectPlain(created)
    const pushUrl = /(http:\/\/\S+\/api\/push\/hb_\S+)/.exec(created.stdout)?.[1]
    expect(pushUrl, created.stdout).toBeDefined()
    expect(created.stdout).toContain('shown once')
    expect(created.stdout).toMatch(/every\s+2s \(grace 2s\)/)
    const id = /monitor id\s+(\S+)/.exec(created.stdout)![1]

    const got = await cli(['monitors', 'get', id, '--json'], { env })
    expect(JSON.parse(got.stdout)).toMatchObject({ type: 'heartbeat', url: null, grace_seconds: 2 })
    expect(got.stdout).not.toContain('/api/push/')

    // a beat: no key needed, no credit spent (this account has none)
    const beat = await fetch(pushUrl!)
    expect(beat.status).toBe(200)
    expect(await beat.json()).toMatchObject({ ok: true, monitor_id: id, status: 'up' })
    expect((await api('GET', `/monitors/${id}`)).body.state).toBe('up')

    // silence past interval + grace: down, with its event
    await waitFor(async () => (await api('GET', `/monitors/${id}`)).body.state === 'down', 15_000, 'down')
    const events = (await api('GET', `/monitors/${id}/events`)).body.events
    expect(events[0]).toMatchObject({ event: 'monitor.down', state: 'down' })
    expect(events[0].message).toContain('no beat for 4 s')

    expect((await fetch(pushUrl!, { method: 'POST' })).status).toBe(200)
    expect((await api('GET', `/monitors/${id}`)).body.state).toBe('up')
    const down = await fetch(`${pushUrl}?status=down&msg=disk%20full`, { method: 'POST' })
    expect(await down.json()).toMatchObject({ status: 'down' })
    expect((await api('GET', `/monitors/${id}`)).body.state).toBe('down')
    const runs = (await api('GET', `/monitors/${id}/runs`)).body.runs
    expect(runs[0]).toMatchObject({
      outcome: 'failed',
      trigger: 'heartbeat',
      error: { message: 'disk full' },
    })
    expect(runs.every((r: { check_id: string | null }) => r.check_id === null)).toBe(true)
    expect((await api('GET', '/credits')).body).toMatchObject({ credits_remaining: 0 })

    const bad = await fetch(`${pushUrl}?status=sideways`)
    expect(bad.status).toBe(400)
    const unknown = await fetch(pushUrl!.replace(/.{4}$/, 'AAAA'))
    expect(unknown.status).toBe(404)
    expect((await unknown.json()).error.code).toBe('not_found')
    expect((await fetch(`${acct.served.url}/api/push/nope`)).status).toBe(404)

    // a job gone wild: past 120 beats a minute the monitor's pushes are refused with Retry-After
    const answers = await Promise.all(Array.from({ length: 125 }, () => fetch(pushUrl!)))
    const refused = answers.filter((r) => r.status === 429)
    expect(refused.length).toBeGreaterThan(0)
    expect(Number(refused[0].headers.get('retry-after'))).toBeGreaterThan(0)
    expect((await refused[0].json()).error.code).toBe('rate_limited')
  }, 60_000)

  it('bogus pushes naming a public monitor id do not lock out its real beat; wrong tokens are throttled per address', async () => {
    const created = await api('POST', '/monitors', {
      type: 'heartbeat',
      name: 'lock-out',
      interval_seconds: 60,
    })
    expect(created.status).toBe(201)
    const pushUrl: string = created.body.push_url
    const token = pushUrl.split('/').at(-1)!
    // the monitor id is public (status pages print it); the secret after it is guessed wrong
    const bogus = (i: number) =>
      `${acct.served.url}/api/push/${token.slice(0, 35)}${String(i).padStart(24, 'x')}`
    const answers = []
    for (let i = 0; i < 200; i += 20)
      answers.push(...(await Promise.all(Array.from({ length: 20 }, (_, j) => fetch(bogus(i + j))))))
    // the job's real beat, from the same address, still counts
    const beat = await fetch(pushUrl)
    expect(beat.status).toBe(200)
    expect((await api('GET', `/monitors/${created.body.id}`)).body.state).toBe('up')
    // wrong tokens are 404, and past 30 a minute from one address 429 with Retry-After
    const statuses = answers.map((r) => r.status)
    expect(statuses.slice(0, 20).every((s) => s === 404)).toBe(true)
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(150)
    const refused = answers.find((r) => r.status === 429)!
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    expect((await refused.json()).error.message).toMatch(/wrong token/)
  }, 60_000)

  it('refuses a URL with --heartbeat and --grace without it', async () => {
    const env = acct.env()
    expectOneLineError(
      await cli(['monitors', 'create', 'https://example.com', '--heartbeat'], { env }),
      2,
      /no URL/,
    )
    expectOneLineError(
      await cli(['monitors', 'create', 'https://example.com', '--grace', '1m'], { env }),
      2,
      /--grace/,
    )
    expectOneLineError(await cli(['monitors', 'create'], { env }), 2, /--heartbeat/)
  })

  it('deploys a heartbeat from sitehealth.yaml with its push URL once; a second deploy and a pull change nothing; test skips it', async () => {
    const env = acct.env()
    const file = join(acct.home, 'sitehealth.yaml')
    await writeFile(
      file,
      'monitors:\n  - ref: backup\n    type: heartbeat\n    every: 1h\n    grace: 10m\n' +
        'maintenance:\n  - name: Saturday backup\n    monitors: [backup]\n' +
        "    weekly: { days: [sat], start: '02:00', duration_minutes: 90, timezone: Europe/Berlin }\n",
    )
    const first = await cli(['deploy', '--file', file, '--yes'], { env })
    expect(first.code, first.stderr).toBe(0)
    expect(first.stdout).toMatch(/\+ create monitor backup/)
    const pushUrl = /(http:\/\/\S+\/api\/push\/hb_\S+)/.exec(first.stdout)?.[1]
    expect(pushUrl, first.stdout).toBeDefined()
    expect((await fetch(pushUrl!)).status).toBe(200)
    expect(first.stdout).toMatch(/\+ create maintenance window Saturday backup/)
    const windows = (await api('GET', '/maintenance-windows')).body.maintenance_windows
    const mine = windows.find((w: { name: string }) => w.name === 'Saturday backup')
    expect(mine).toMatchObject({ weekly: { days: ['sat'], timezone: 'Europe/Berlin' } })
    const again = await cli(['deploy', '--file', file, '--yes'], { env })
    expect(again.stdout).toContain('No changes')
    const out = join(acct.home, 'pulled.yaml')
    expect((await cli(['pull', '--file', out], { env })).code).toBe(0)
    const pulled = await readFile(out, 'utf8')
    expect(pulled).toMatch(/ref: backup\n\s+type: heartbeat/)
    expect(pulled).not.toContain('url:')
    expect(pulled).toMatch(/maintenance:\n\s+- name: Saturday backup\n\s+monitors:\n\s+- backup/)
    expect((await cli(['deploy', '--file', out, '--yes'], { env })).stdout).toContain('No changes')
    const tested = await cli(['test', '--file', file, '--reporter', 'json'], { env })
    expect(tested.code, tested.stderr).toBe(0)
    expect(JSON.parse(tested.stdout).tests).toEqual([])
  }, 60_000)
})
