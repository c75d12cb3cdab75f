/**
 * dns and ping monitors through the monitor service, on both stores: a local DNS server
 * (dns-packet) that changes its answers, NXDOMAIN, SERVFAIL and silence as failed runs with the
 * reason, dns_answer assertions, the resolver guarded at create, 1 credit for an ok run and none
 * for a failed one, alerts worded `example.test A` and `ping 127.0.0.1`, ping's packet loss, and
 * ping refused at create where the server may not ping.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { pingAvailability } from '../../src/checks/index.js'
import { MonitorCreate } from '../../src/contract/monitors.js'
import type { MonitorService } from '../../src/monitors/index.js'
import type { Store } from '../../src/store/types.js'
import { startDnsServer, type DnsServer } from '../helpers/dns-server.js'
import { describeOnEachStore } from '../store/each-store.js'
import { monitorService, RecordingDeliverer } from './fixtures.js'

let store: Store
let dnsServer: DnsServer
let recorder: RecordingDeliverer
const sent = () => recorder.sent.map((p) => `${p.event}: ${p.message}`)
const settle = () => new Promise((r) => setTimeout(r, 30))

beforeAll(async () => {
  dnsServer = await startDnsServer()
})
afterAll(() => dnsServer?.close())
beforeEach(() => {
  recorder = new RecordingDeliverer()
  dnsServer.zone = { 'example.test': { records: { A: ['93.184.216.34'], TXT: [['v=spf1 -all']] } } }
})

const service = (over: Parameters<typeof monitorService>[2] = {}): MonitorService =>
  monitorService(store, recorder, { allowPrivateTargets: true, minInterval: 1, ...over })
const runs = async (id: string) => (await store.monitors.listRuns(id, { limit: 10 })).items

describe('the create shapes of dns and ping', () => {
  it('refuses an unknown record type, a port, a bad resolver, assertions that do not fit, a bad count', () => {
    const bad: [unknown, (string | number)[]][] = [
      [{ type: 'dns', host: 'example.com', record_type: 'PTR' }, ['record_type']],
      [{ type: 'dns', host: 'example.com' }, ['record_type']],
      [{ type: 'dns', host: 'example.com', record_type: 'A', port: 53 }, ['port']],
      [{ type: 'dns', host: 'example.com', record_type: 'A', resolver: 'dns.google' }, ['resolver']],
      [{ type: 'dns', host: 'example.com', record_type: 'A', url: 'https://example.com/' }, ['url']],
      [
        {
          type: 'dns',
          host: 'example.com',
          record_type: 'A',
          assertions: [{ source: 'packet_loss', comparison: 'less_than', target: 5 }],
        },
        ['assertions', 0, 'source'],
      ],
      [
        {
          type: 'tcp',
          host: 'example.com',
          port: 1,
          assertions: [{ source: 'dns_answer', comparison: 'contains', target: '1.2.3.4' }],
        },
        ['assertions', 0, 'source'],
      ],
      [{ type: 'ping', host: 'example.com', count: 0 }, ['count']],
      [{ type: 'ping', host: 'example.com', count: 21 }, ['count']],
      [{ type: 'ping', host: 'example.com', record_type: 'A' }, []],
    ]
    for (const [body, path] of bad)
      expect(MonitorCreate.safeParse(body).error?.issues[0].path, JSON.stringify(body)).toEqual(path)
  })
})

function dnsPingContract() {
  it('dns: answers that change, assertions, failures with the reason, credits and alerts', async () => {
    const svc = service()
    await store.users.ensure('ada', 10)
    const { monitor } = await svc.create('ada', {
      type: 'dns',
      host: 'example.test',
      record_type: 'A',
      resolver: dnsServer.address,
      alerts: { down_after: 1 },
      assertions: [{ source: 'dns_answer', comparison: 'contains', target: '93.184.216.34' }],
      channels: [{ type: 'webhook', url: 'https://hooks.example.com/x' }],
    })
    expect(monitor).toMatchObject({
      type: 'dns',
      host: 'example.test',
      record_type: 'A',
      resolver: dnsServer.address,
      name: 'example.test A',
    })
    const ok = await svc.run(monitor, 'manual')
    expect(ok).toMatchObject({
      kind: 'probed',
      remaining: 9,
      run: { outcome: 'ok', state: 'up', check_id: null, details: { answers: ['93.184.216.34'] } },
    })
    // /metrics: up, with the query's response time as a check's would be
    const gauge = (await store.monitorGauges.monitorGauges()).find((g) => g.id === monitor.id)
    expect(gauge).toMatchObject({ state: 'up', response_time_ms: expect.any(Number) })
    // the server's answer changes: the assertion fails (the run reached it: paid)
    dnsServer.zone['example.test'] = { records: { A: ['93.184.216.35', '1.2.3.4'] } }
    const changed = await svc.run((await svc.get('ada', monitor.id))!, 'manual')
    expect(changed).toMatchObject({
      run: { outcome: 'ok', state: 'down', details: { answers: ['1.2.3.4', '93.184.216.35'] } },
    })
    dnsServer.zone['example.test'] = { rcode: 'SERVFAIL' }
    const servfail = await svc.run((await svc.get('ada', monitor.id))!, 'manual')
    expect(servfail).toMatchObject({
      remaining: null,
      run: {
        outcome: 'failed',
        error: { code: 'check_failed', message: expect.stringContaining('SERVFAIL') },
      },
    })
    delete dnsServer.zone['example.test']
    const nx = await svc.run((await svc.get('ada', monitor.id))!, 'manual')
    expect(nx).toMatchObject({
      run: { outcome: 'failed', error: { message: expect.stringContaining('NXDOMAIN') } },
    })
    expect(await store.users.availableCredits('ada')).toBe(8)
    await settle()
    expect(sent()[0]).toBe(
      'monitor.down: example.test A is down (1 failed run in a row): assertion failed: dns_answer contains 93.184.216.34 (saw "1.2.3.4, 93.184.216.35")',
    )
    const [last] = await runs(monitor.id)
    expect(last).toMatchObject({ outcome: 'failed', response_time_ms: null })
    expect((await store.checks.list('ada', { limit: 10 })).items).toEqual([])
  })

  it('dns: an empty answer is down without assertions, up with is_empty; silence is a timeout', async () => {
    const svc = service()
    await store.users.ensure('ada', 10)
    const base = {
      type: 'dns',
      host: 'example.test',
      record_type: 'MX',
      resolver: dnsServer.address,
    } as const
    const { monitor: plain } = await svc.create('ada', base)
    expect(await svc.run(plain, 'manual')).toMatchObject({
      run: {
        outcome: 'failed',
        error: { message: expect.stringContaining('No MX records') },
        details: { answers: [] },
      },
    })
    const { monitor: absent } = await svc.create('ada', {
      ...base,
      assertions: [{ source: 'dns_answer', comparison: 'is_empty' }],
    })
    expect(await svc.run(absent, 'manual')).toMatchObject({ run: { outcome: 'ok', state: 'up' } })
    dnsServer.zone['example.test'] = { silent: true }
    const { monitor: quiet } = await svc.create('ada', { ...base, timeout_seconds: 1 })
    expect(await svc.run(quiet, 'manual')).toMatchObject({
      run: { outcome: 'failed', error: { message: expect.stringContaining('timeout') } },
    })
  })

  it('dns: the resolver and the host are guarded at create; a change of record type starts over', async () => {
    const guarded = service({ allowPrivateTargets: false })
    await expect(
      guarded.create('ada', { type: 'dns', host: 'example.com', record_type: 'A', resolver: '127.0.0.1:53' }),
    ).rejects.toThrow(/^Blocked for safety: .* \(resolver\)$/)
    await expect(guarded.create('ada', { type: 'dns', host: 'localhost', record_type: 'A' })).rejects.toThrow(
      /\(host\)$/,
    )
    const svc = service()
    const { monitor } = await svc.create('ada', { type: 'dns', host: 'example.test', record_type: 'A' })
    const { monitor: txt } = await svc.update('ada', monitor.id, {
      record_type: 'TXT',
      resolver: dnsServer.address,
    })
    expect(txt).toMatchObject({ record_type: 'TXT', resolver: dnsServer.address, state: 'pending' })
    await expect(svc.update('ada', monitor.id, { count: 3 })).rejects.toThrow('(count)')
    const { monitor: web } = await svc.create('ada', { url: 'https://example.com/' })
    await expect(svc.update('ada', web.id, { record_type: 'A' })).rejects.toThrow('(record_type)')
  })

  it('ping: 127.0.0.1 answers (1 credit, packet loss), alerts say ping HOST; refused where ping is not allowed', async () => {
    const refusing = service({
      ping: { ok: false, reason: 'this server may not send pings (socket: Operation not permitted)' },
    })
    await expect(refusing.create('ada', { type: 'ping', host: 'example.com' })).rejects.toMatchObject({
      kind: 'conflict',
      message: expect.stringContaining('Operation not permitted'),
    })
    const can = await pingAvailability()
    if (!can.ok) return
    const svc = service({ ping: can })
    await store.users.ensure('ada', 10)
    const { monitor } = await svc.create('ada', {
      type: 'ping',
      host: '127.0.0.1',
      count: 2,
      assertions: [{ source: 'packet_loss', comparison: 'less_than', target: 50 }],
    })
    expect(monitor).toMatchObject({ type: 'ping', host: '127.0.0.1', count: 2, name: 'ping 127.0.0.1' })
    const ok = await svc.run(monitor, 'manual')
    expect(ok).toMatchObject({
      kind: 'probed',
      remaining: 9,
      run: {
        outcome: 'ok',
        state: 'up',
        details: { packet_loss: 0 },
        assertions: [{ passed: true, actual: 0 }],
      },
    })
  })
}

describeOnEachStore('dns and ping monitors', (s) => (store = s), dnsPingContract)
