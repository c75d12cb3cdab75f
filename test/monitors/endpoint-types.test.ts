/**
 * tcp and tls monitors through the monitor service, on both stores: the host guarded at create
 * (400 naming the field), a run that keeps no check (`ok` or `failed`, no check id or score, the
 * findings under `details`, nothing in the saved checks), 1 credit for an ok run and none for a
 * failed one, alerts that name `host:port`, certificate_days assertions and certificate.expiring
 * as for http monitors, and bad combinations refused by the create shape.
 */
import net from 'node:net'
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { MonitorCreate } from '../../src/contract/monitors.js'
import type { MonitorService } from '../../src/monitors/index.js'
import type { Store } from '../../src/store/types.js'
import { makeTestPki, type TestPki } from '../fixtures/certs.js'
import { silentListener, tlsListener, type Listening } from '../helpers/endpoints.js'
import { describeOnEachStore } from '../store/each-store.js'
import { monitorService, RecordingDeliverer } from './fixtures.js'

let store: Store
let pki: TestPki
let recorder: RecordingDeliverer
let servers: Listening[] = []
const sent = () => recorder.sent.map((p) => `${p.event}: ${p.message}`)
const settle = () => new Promise((r) => setTimeout(r, 30))

beforeAll(async () => {
  pki = await makeTestPki()
}, 60_000)
beforeEach(() => {
  recorder = new RecordingDeliverer()
})
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()))
  servers = []
})

const service = (over: Parameters<typeof monitorService>[2] = {}): MonitorService =>
  monitorService(store, recorder, {
    allowPrivateTargets: true,
    minInterval: 1,
    extraCA: pki.ca.cert,
    ...over,
  })

async function up(start: Promise<Listening>): Promise<Listening> {
  const s = await start
  servers.push(s)
  return s
}

const runs = async (id: string) => (await store.monitors.listRuns(id, { limit: 10 })).items

describe('the create shapes of tcp and tls', () => {
  it('refuses a url on tcp, a port outside 1-65535, an assertion that does not fit, starttls on tcp', () => {
    const bad: [unknown, (string | number)[]][] = [
      [{ type: 'tcp', host: 'db.example.com', port: 5432, url: 'https://example.com/' }, ['url']],
      [{ type: 'tcp', host: 'db.example.com', port: 0 }, ['port']],
      [{ type: 'tcp', host: 'db.example.com', port: 65_536 }, ['port']],
      [{ type: 'tcp', host: 'db.example.com' }, ['port']],
      [{ type: 'tcp', host: 'https://db.example.com/', port: 1 }, ['host']],
      [
        {
          type: 'tcp',
          host: 'db.example.com',
          port: 1,
          assertions: [{ source: 'status_code', comparison: 'equals', target: 200 }],
        },
        ['assertions', 0, 'source'],
      ],
      [{ type: 'tcp', host: 'db.example.com', port: 1, starttls: 'smtp' }, []],
      [{ type: 'tls', host: 'mail.example.com', starttls: 'ftp' }, ['starttls']],
      [{ type: 'tls', host: 'mail.example.com', timeout_seconds: 0 }, ['timeout_seconds']],
    ]
    for (const [body, path] of bad)
      expect(MonitorCreate.safeParse(body).error?.issues[0].path, JSON.stringify(body)).toEqual(path)
    expect(
      MonitorCreate.safeParse({
        type: 'tls',
        host: 'mail.example.com',
        assertions: [{ source: 'certificate_days', comparison: 'greater_than', target: 14 }],
      }).success,
    ).toBe(true)
  })
})

function endpointContract() {
  it('refuses a blocked host at create, naming the field', async () => {
    const svc = service({ allowPrivateTargets: false })
    for (const host of ['127.0.0.1', 'localhost', '10.1.2.3', '::1'])
      await expect(svc.create('ada', { type: 'tcp', host, port: 5432 }), host).rejects.toThrow(
        /^Blocked for safety: .* \(host\)$/,
      )
    await expect(svc.create('ada', { type: 'tls', host: '169.254.169.254' })).rejects.toThrow(/\(host\)$/)
  })

  it('a name that resolves to a blocked address fails the run and nothing connects', async () => {
    let connections = 0
    const counted = net.createServer((s) => {
      connections++
      s.destroy()
    })
    await new Promise<void>((r) => counted.listen(0, '127.0.0.1', r))
    servers.push({ port: 0, close: () => new Promise((r) => counted.close(() => r())) })
    const svc = service({ allowPrivateTargets: false })
    await store.users.ensure('ada', 5)
    const { monitor } = await svc.create('ada', { type: 'tcp', host: 'sitehealth-test.invalid', port: 1 })
    // the target turns local after create (the engine's own tests resolve a name to loopback):
    // the run's guard refuses it before anything connects
    await store.monitors.updateMonitor({ ...monitor, host: 'localhost' })
    const out = await svc.run((await svc.get('ada', monitor.id))!, 'manual')
    expect(out).toMatchObject({
      kind: 'probed',
      run: {
        outcome: 'failed',
        error: { code: 'blocked_target', message: expect.stringMatching(/^Blocked for safety: localhost/) },
      },
    })
    expect(connections).toBe(0)
    expect(await store.users.availableCredits('ada')).toBe(5)
  })

  it('tcp: an open port is an ok run (1 credit, no check, details), a closed one failed (free), alerts name host:port', async () => {
    const svc = service()
    await store.users.ensure('ada', 5)
    const port = (await up(silentListener())).port
    const { monitor } = await svc.create('ada', {
      type: 'tcp',
      host: '127.0.0.1',
      port,
      alerts: { down_after: 1 },
      assertions: [{ source: 'response_time', comparison: 'less_than', target: 5000 }],
      channels: [{ type: 'webhook', url: 'https://hooks.example.com/x' }],
    })
    expect(monitor).toMatchObject({
      type: 'tcp',
      host: '127.0.0.1',
      port,
      timeout_seconds: 10,
      name: `127.0.0.1:${port}`,
    })
    const ok = await svc.run(monitor, 'manual')
    expect(ok).toMatchObject({
      kind: 'probed',
      remaining: 4,
      run: { outcome: 'ok', check_id: null, health_score: null, error: null, state: 'up' },
    })
    expect(await store.users.availableCredits('ada')).toBe(4)
    await servers.pop()!.close()
    const failed = await svc.run((await svc.get('ada', monitor.id))!, 'manual')
    expect(failed).toMatchObject({
      kind: 'probed',
      remaining: null,
      run: {
        outcome: 'failed',
        error: {
          code: 'check_failed',
          message: `Could not connect to 127.0.0.1:${port}: connection refused`,
        },
      },
    })
    expect(await store.users.availableCredits('ada')).toBe(4)
    await settle()
    expect(sent()).toEqual([
      `monitor.down: 127.0.0.1:${port} is down (1 failed run in a row): Could not connect to 127.0.0.1:${port}: connection refused`,
    ])
    const [last, first] = await runs(monitor.id)
    expect(first).toMatchObject({
      outcome: 'ok',
      check_id: null,
      health_score: null,
      details: { connect_ms: expect.any(Number) },
    })
    expect(first.assertions).toEqual([expect.objectContaining({ source: 'response_time', passed: true })])
    expect(last).toMatchObject({ outcome: 'failed', response_time_ms: null })
    // no saved check: nothing for /checks/recent
    expect((await store.checks.list('ada', { limit: 10 })).items).toEqual([])
  })

  it('tls: days left, issuer and protocol on each run; certificate.expiring; certificate_days assertions', async () => {
    const svc = service()
    await store.users.ensure('ada', 5)
    const port = (await up(tlsListener(pki.expiringSoon))).port
    const { monitor } = await svc.create('ada', {
      type: 'tls',
      host: '127.0.0.1',
      port,
      alerts: { down_after: 1 },
      assertions: [{ source: 'certificate_days', comparison: 'greater_than', target: 3 }],
      channels: [{ type: 'webhook', url: 'https://hooks.example.com/x' }],
    })
    expect(monitor).toMatchObject({ starttls: null, port })
    const out = await svc.run(monitor, 'manual')
    expect(out).toMatchObject({
      kind: 'probed',
      run: {
        outcome: 'ok',
        state: 'up',
        details: { days_left: 5, issuer: 'sitehealth Test CA', protocol: 'TLSv1.3' },
        assertions: [expect.objectContaining({ passed: true, actual: 5 })],
      },
    })
    await settle()
    expect(sent()).toEqual([
      `certificate.expiring: The certificate of 127.0.0.1:${port} expires in 5 days (warning at 7 days)`,
    ])
    // once per threshold: the next run raises nothing new
    await svc.run((await svc.get('ada', monitor.id))!, 'manual')
    await svc.update('ada', monitor.id, {
      assertions: [{ source: 'certificate_days', comparison: 'greater_than', target: 14 }],
    })
    const failing = await svc.run((await svc.get('ada', monitor.id))!, 'manual')
    expect(failing).toMatchObject({ run: { outcome: 'ok', state: 'down' } })
    await settle()
    expect(sent().slice(1)).toEqual([
      `monitor.down: 127.0.0.1:${port} is down (1 failed run in a row): assertion failed: certificate_days greater_than 14 (saw 5)`,
    ])
    expect(await store.users.availableCredits('ada')).toBe(2)
    await expect(
      svc.update('ada', monitor.id, {
        assertions: [{ source: 'status_code', comparison: 'equals', target: 200 }],
      }),
    ).rejects.toThrow(
      'status_code does not fit a tls monitor: use response_time or certificate_days (assertions[0].source)',
    )
  })

  it('tls: expired, self-signed and wrong-name certificates are failed runs with the reason, free', async () => {
    const svc = service()
    await store.users.ensure('ada', 5)
    for (const [cert, reason] of [
      [pki.expired, /expired 10 days ago/],
      [pki.selfSigned, /is self-signed/],
      [pki.wrongHost, /does not cover 127\.0\.0\.1/],
    ] as const) {
      const port = (await up(tlsListener(cert))).port
      const { monitor } = await svc.create('ada', { type: 'tls', host: '127.0.0.1', port })
      const out = await svc.run(monitor, 'manual')
      expect(out).toMatchObject({
        kind: 'probed',
        run: {
          outcome: 'failed',
          error: { code: 'certificate_invalid', message: expect.stringMatching(reason) },
        },
      })
    }
    expect(await store.users.availableCredits('ada')).toBe(5)
  })

  it('a change of host or port starts over; fields of other types are refused', async () => {
    const svc = service()
    const { monitor } = await svc.create('ada', { type: 'tls', host: 'mail.example.com', starttls: 'smtp' })
    expect(monitor).toMatchObject({ port: 587, starttls: 'smtp' })
    const { monitor: imap } = await svc.update('ada', monitor.id, { starttls: 'imap' })
    expect(imap).toMatchObject({ port: 143, starttls: 'imap', state: 'pending' })
    await expect(svc.update('ada', monitor.id, { url: 'https://example.com/' })).rejects.toThrow('(url)')
    const { monitor: web } = await svc.create('ada', { url: 'https://example.com/' })
    await expect(svc.update('ada', web.id, { host: 'example.com' })).rejects.toThrow('(host)')
  })
}

describeOnEachStore('tcp and tls monitors', (s) => (store = s), endpointContract)
