/**
 * dns and ping monitors end to end: the built CLI and a real `serve` (--allow-private-targets)
 * against a local DNS server (dns-packet) that changes its answers, through the API (create, run,
 * runs with details, bad combinations 400 naming the field), the CLI (--dns/--record/--resolver,
 * --ping/--count, list and get showing the target) and sitehealth.yaml (deploy, no change, pull).
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pingAvailability } from '../../src/checks/index.js'
import { startServe, type Served } from '../helpers/serve.js'
import { cliRunner } from '../helpers/cli.js'
import { callApi } from '../helpers/api.js'
import { startDnsServer, type DnsServer } from '../helpers/dns-server.js'

let served: Served
let dns: DnsServer
let home: string
const { cli } = cliRunner(() => home)

const api = (key: string, method: string, path: string, body?: unknown) =>
  callApi(served.url, key, method, path, body)

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'sitehealth-dnsping-'))
  dns = await startDnsServer({ 'example.test': { records: { A: ['93.184.216.34'], MX: [] } } })
  served = await startServe({ args: ['--quiet', '--allow-private-targets', '--rate-limit', '1000'] })
}, 60_000)

afterAll(async () => {
  await served?.stop()
  await dns?.close()
  await rm(home, { recursive: true, force: true })
})

describe('dns and ping monitors', () => {
  it('dns through the API: runs with sorted answers, changed answers, NXDOMAIN; bad combinations are 400', async () => {
    const { key } = await served.createKey({ user: 'dns-api', credits: 10 })
    const made = await api(key, 'POST', '/monitors', {
      type: 'dns',
      host: 'example.test',
      record_type: 'A',
      resolver: dns.address,
      assertions: [{ source: 'dns_answer', comparison: 'not_empty' }],
    })
    expect(made.status).toBe(201)
    expect(made.body).toMatchObject({ type: 'dns', host: 'example.test', record_type: 'A', url: null })
    const id = made.body.id
    const first = await api(key, 'POST', `/monitors/${id}/run`)
    expect(first.body).toMatchObject({
      outcome: 'ok',
      check_id: null,
      details: { answers: ['93.184.216.34'] },
    })
    dns.zone['example.test'] = { records: { A: ['93.184.216.35', '1.2.3.4'] } }
    const second = await api(key, 'POST', `/monitors/${id}/run`)
    expect(second.body.details).toEqual({ answers: ['1.2.3.4', '93.184.216.35'] })
    delete dns.zone['example.test']
    const nx = await api(key, 'POST', `/monitors/${id}/run`)
    expect(nx.body).toMatchObject({
      outcome: 'failed',
      error: { message: expect.stringContaining('NXDOMAIN') },
    })
    const runs = (await api(key, 'GET', `/monitors/${id}/runs`)).body.runs
    // newest first (the scheduler's first run is among them)
    expect(runs[0]).toMatchObject({ outcome: 'failed', details: null })
    expect(runs[1]).toMatchObject({ outcome: 'ok', details: { answers: ['1.2.3.4', '93.184.216.35'] } })

    for (const [body, field] of [
      [{ type: 'dns', host: 'example.test', record_type: 'PTR' }, 'record_type'],
      [{ type: 'dns', host: 'example.test', record_type: 'A', url: 'https://example.test/' }, 'url'],
      [{ type: 'dns', host: 'example.test', record_type: 'A', resolver: 'dns.example' }, 'resolver'],
      [
        {
          type: 'tcp',
          host: 'example.test',
          port: 1,
          assertions: [{ source: 'dns_answer', comparison: 'contains', target: '1.2.3.4' }],
        },
        'assertions',
      ],
      [{ type: 'ping', host: 'example.test', count: 99 }, 'count'],
    ] as const) {
      const bad = await api(key, 'POST', '/monitors', body)
      expect(bad.status, JSON.stringify(body)).toBe(400)
      expect(bad.body.error.message).toContain(field)
    }
  })

  it('the CLI creates dns and ping monitors, and list and get show their targets', async () => {
    dns.zone['example.test'] = { records: { A: ['93.184.216.34'] } }
    const { key } = await served.createKey({ user: 'dns-cli', credits: 10 })
    const env = { SITEHEALTH_API_URL: served.url, SITEHEALTH_API_KEY: key }
    const made = await cli(
      ['monitors', 'create', '--dns', 'example.test', '--record', 'A', '--resolver', dns.address, '--json'],
      { env },
    )
    expect(made.code, made.stderr).toBe(0)
    const m = JSON.parse(made.stdout)
    expect(m).toMatchObject({ type: 'dns', record_type: 'A', resolver: dns.address, name: 'example.test A' })
    const bad = await cli(['monitors', 'create', '--dns', 'example.test', '--record', 'PTR'], { env })
    expect(bad.code).not.toBe(0)
    const list = await cli(['monitors', 'list'], { env })
    expect(list.stdout).toContain('example.test A')
    const get = await cli(['monitors', 'get', m.id], { env })
    expect(get.stdout).toContain('example.test A')

    const can = await pingAvailability()
    const ping = await cli(['monitors', 'create', '--ping', '127.0.0.1', '--count', '2', '--json'], { env })
    if (!can.ok) {
      expect(ping.code).not.toBe(0)
      expect(ping.stderr).toContain('ping')
      return
    }
    expect(ping.code, ping.stderr).toBe(0)
    const p = JSON.parse(ping.stdout)
    expect(p).toMatchObject({ type: 'ping', host: '127.0.0.1', count: 2, name: 'ping 127.0.0.1' })
    const run = await api(key, 'POST', `/monitors/${p.id}/run`)
    expect(run.body).toMatchObject({ outcome: 'ok', details: { packet_loss: 0 } })
  })

  it('sitehealth.yaml deploys dns and ping monitors, plans no change again, and pulls them back', async () => {
    const { key } = await served.createKey({ user: 'dns-yaml', credits: 10 })
    const env = { SITEHEALTH_API_URL: served.url, SITEHEALTH_API_KEY: key }
    const f = join(home, 'dns.yaml')
    await writeFile(
      f,
      `monitors:
  - ref: mx
    type: dns
    host: example.test
    record_type: MX
    resolver: ${dns.address}
    assertions:
      - { source: dns_answer, comparison: is_empty }
  - ref: gw
    type: ping
    host: 127.0.0.1
    count: 2
    tags: [env:lab]
`,
    )
    const can = await pingAvailability()
    const deploy = await cli(['deploy', '--file', f, '--yes'], { env })
    if (!can.ok) {
      expect(deploy.stderr).toContain('ping')
      return
    }
    expect(deploy.code, deploy.stderr).toBe(0)
    const monitors = (await api(key, 'GET', '/monitors')).body.monitors
    expect(monitors.map((m: any) => [m.ref, m.type, m.host]).sort()).toEqual([
      ['gw', 'ping', '127.0.0.1'],
      ['mx', 'dns', 'example.test'],
    ])
    expect((await cli(['deploy', '--file', f], { env })).stdout.trim()).toBe('No changes.')
    const pulled = join(home, 'dns-pulled.yaml')
    expect((await cli(['pull', '--file', pulled], { env })).code).toBe(0)
    const text = await readFile(pulled, 'utf8')
    expect(text).toContain('record_type: MX')
    expect(text).toContain('count: 2')
    expect((await cli(['deploy', '--file', pulled], { env })).stdout.trim()).toBe('No changes.')
  })
})
