/**
 * Assertions in runs (docs/decisions.md#monitoring-depth), through the real engine against a local
 * JSON API: every run records each assertion with passed and actual, judged on the body the probe
 * kept; a failed assertion is a failing run for down_after, monitor.down names it and what it
 * saw, and the check is still saved and charged.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { LowdbStore } from '../../src/store/index.js'
import { withEmbeddedStore } from '../store/each-store.js'
import { monitorService, RecordingDeliverer } from './fixtures.js'

let store: LowdbStore
withEmbeddedStore((s) => (store = s))
let server: Server
let port: number
let status = 'ok'

beforeEach(async () => {
  status = 'ok'
  server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'x-build': '42' })
    res.end(JSON.stringify({ status, checks: [{ name: 'db', ok: status === 'ok' }] }))
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  port = (server.address() as AddressInfo).port
})
afterEach(async () => {
  server.closeAllConnections()
  await new Promise((r) => server.close(r))
})

const recorder = new RecordingDeliverer()
const sent = recorder.deliveries

describe('assertions in runs', () => {
  it('records each assertion per run; a failed one takes the monitor down, named, and the check is still charged', async () => {
    sent.length = 0
    const svc = monitorService(store, recorder, { allowPrivateTargets: true })
    await store.users.ensure('ada', 10)
    const { monitor } = await svc.create('ada', {
      url: `http://127.0.0.1:${port}/health`,
      alerts: { down_after: 2 },
      channels: [{ type: 'webhook', url: 'https://hooks.example.com/x' }],
      assertions: [
        { source: 'status_code', comparison: 'equals', target: 200 },
        { source: 'json_body', property: '$.status', comparison: 'equals', target: 'ok' },
        { source: 'header', property: 'x-build', comparison: 'equals', target: '42' },
        { source: 'response_time', comparison: 'less_than', target: 5000 },
      ],
    })
    const good = await svc.run(monitor, 'manual')
    expect(good.kind === 'saved' && good.monitor?.state).toBe('up')
    status = 'degraded'
    const first = await svc.run(monitor, 'manual')
    expect(first.kind).toBe('saved') // the check itself was made, saved and charged
    expect(first.kind === 'saved' && first.monitor?.state).toBe('up') // one failing run: not down yet
    const second = await svc.run(monitor, 'manual')
    expect(second.kind === 'saved' && second.monitor?.state).toBe('down')
    status = 'ok'
    const back = await svc.run(monitor, 'manual')
    expect(back.kind === 'saved' && back.monitor?.state).toBe('up')
    await svc.drain()

    const runs = (await store.monitors.listRuns(monitor.id, { limit: 10 })).items.reverse()
    expect(runs.map((r) => r.outcome)).toEqual(['saved', 'saved', 'saved', 'saved'])
    expect(runs[0].assertions!.map((a) => [a.source, a.passed, a.actual])).toEqual([
      ['status_code', true, 200],
      ['json_body', true, 'ok'],
      ['header', true, '42'],
      ['response_time', true, expect.any(Number)],
    ])
    expect(runs[1].assertions![1]).toMatchObject({ property: '$.status', passed: false, actual: 'degraded' })
    expect(store.users.availableCredits('ada')).toBe(6)

    expect(sent.map((d) => d.payload.event)).toEqual(['monitor.down', 'monitor.up'])
    expect(sent[0].payload.message).toMatch(
      /assertion failed: json_body \$\.status equals ok \(saw "degraded"\)/,
    )
    const report = await svc.uptime('ada', monitor.id, {})
    expect(report).toMatchObject({ runs: 4, failed_runs: 2 })
  }, 30_000)

  it('a run that could not check records every assertion as failed, on nothing', async () => {
    const svc = monitorService(store, recorder, { allowPrivateTargets: true })
    await store.users.ensure('bo', 10)
    const { monitor } = await svc.create('bo', {
      url: 'http://127.0.0.1:9/',
      assertions: [{ source: 'status_code', comparison: 'equals', target: 200 }],
    })
    expect((await svc.run(monitor, 'manual')).kind).toBe('failed')
    const [run] = (await store.monitors.listRuns(monitor.id, { limit: 1 })).items
    expect(run.assertions).toEqual([
      {
        source: 'status_code',
        property: null,
        comparison: 'equals',
        target: 200,
        passed: false,
        actual: null,
      },
    ])
  }, 30_000)
})
