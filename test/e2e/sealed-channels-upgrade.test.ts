/**
 * A data dir whose channels an older version stored in clear (src/store/channels.ts), served by
 * this one: `serve` seals them as it starts (its key, <data-dir>/secret-key), no file of the dir
 * keeps a webhook URL or signing secret afterwards, the API answers the channels as before, and
 * the next alert still reaches every URL, the webhook signed with its old secret.
 */
import { createHmac } from 'node:crypto'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { secretBox } from '../../src/shared/index.js'
import type { LegacyChannelRecord } from '../../src/store/channels.js'
import { openLowdbStore } from '../../src/store/index.js'
import { callApi } from '../helpers/api.js'
import { startServe, UNLIMITED, type Served } from '../helpers/serve.js'
import { startReceiver, waitFor, type Receiver } from '../monitors/fixtures.js'
import { dirBytes } from '../store/helpers.js'

const FLAGS = ['--min-interval', '1', '--alert-backoff', '50', ...UNLIMITED, '--quiet']
let dir: string | undefined
let receiver: Receiver | undefined
let served: Served | undefined
afterAll(async () => {
  await served?.stop()
  await receiver?.close()
  if (dir) await rm(dir, { recursive: true, force: true })
})

it('seals the channels of an old data dir at start; answers and alerts stay as they were', async () => {
  dir = await mkdtemp(join(tmpdir(), 'sitehealth-sealed-'))
  receiver = await startReceiver()
  const r = receiver
  served = await startServe({ args: FLAGS, dataDir: dir })
  const { key } = await served.createKey({ user: 'upgrade', credits: 500 })
  const hooks = {
    webhook: r.url('/hook/7f3a9c'),
    slack: r.url('/slack/T0/B0/x9k2'),
    teams: r.url('/teams/q8w7'),
  }
  const created = await callApi(served.url, key, 'POST', '/monitors', {
    url: r.url('/site'),
    interval_seconds: 1,
    alerts: { down_after: 1 },
    channels: Object.entries(hooks).map(([type, url]) => ({ type, url })),
  })
  expect(created.status).toBe(201)
  const id = created.body.id as string
  const secret = created.body.channels[0].secret as string
  await waitFor(
    async () => (await callApi(served!.url, key, 'GET', `/monitors/${id}`)).body.state === 'up',
    15_000,
    'up',
  )
  const before = (await callApi(served.url, key, 'GET', `/monitors/${id}`)).body.channels
  await served.stop()
  served = undefined

  // the files as the version before sealing wrote them: each target in clear, in the snapshot
  const box = secretBox((await readFile(join(dir, 'secret-key'), 'utf8')).trim())
  const store = await openLowdbStore(dir)
  const m = (await store.monitors.getMonitorById(id))!
  const old: LegacyChannelRecord[] = m.channels.map((c, i) => ({
    id: c.id,
    type: c.type,
    target: Object.values(hooks)[i],
    secret_sealed: c.type === 'webhook' ? box.seal(secret) : null,
    name: null,
    source: null,
  }))
  await store.monitors.updateMonitor({ ...m, channels: old as never })
  await store.monitors.compact()
  await store.close()
  expect(await dirBytes(dir)).toContain('/slack/T0/B0/x9k2')

  served = await startServe({ args: FLAGS, dataDir: dir })
  const bytes = await dirBytes(dir)
  for (const url of Object.values(hooks)) expect(bytes).not.toContain(new URL(url).pathname)
  expect(bytes).not.toContain(secret)
  expect((await callApi(served.url, key, 'GET', `/monitors/${id}`)).body.channels).toEqual(before)

  // the next alert reaches every URL
  r.failNext.set('/site', 1_000_000)
  await waitFor(
    () => Object.values(hooks).every((u) => r.received.some((x) => x.path === new URL(u).pathname)),
    20_000,
    'the monitor.down alert at every channel',
  )
  const hook = r.received.find((x) => x.path === '/hook/7f3a9c')!
  const ts = String(hook.headers['x-sitehealth-timestamp'])
  const want = `sha256=${createHmac('sha256', secret).update(`${ts}.${hook.body}`).digest('hex')}`
  expect(hook.headers['x-sitehealth-signature']).toBe(want)
  expect(JSON.parse(hook.body).event).toBe('monitor.down')
})
