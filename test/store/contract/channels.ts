/**
 * Alert channels at rest in the storage contract (src/store/channels.ts): a monitor's channels
 * of every provider, made as the service makes them, leave no credential in the backend's raw
 * storage (the files of a data dir, the rows of a database); read back after a reopen, they answer
 * masked and still deliver, to the right URL, once their secrets are opened.
 */
import { randomBytes } from 'node:crypto'
import { afterEach, expect, it } from 'vitest'
import type { ChannelRequest } from '../../../src/contract/channels.js'
import type { Delivery, WebhookPayload } from '../../../src/contract/monitors.js'
import { Deliverer } from '../../../src/monitors/channels/deliver.js'
import { channelView, makeChannels } from '../../../src/monitors/channels/records.js'
import { nextId } from '../../../src/monitors/ids.js'
import { secretBox } from '../../../src/shared/index.js'
import { startReceiver, type Receiver } from '../../monitors/fixtures.js'
import { event, monitor, run } from './fixtures.js'
import type { ContractContext } from './index.js'

const box = secretBox('channels at rest')

const payload: WebhookPayload = {
  event: 'monitor.down',
  occurred_at: '2026-01-01T00:00:00.000Z',
  monitor: { id: '01a2084a-9dd6-76a2-9367-c897e9bd68ee', name: 'shop', url: 'https://shop.example/' },
  check: null,
  previous_state: 'up',
  state: 'down',
  message: 'https://shop.example/ is down',
}

export function channelsContract(t: ContractContext): void {
  let receiver: Receiver | undefined
  afterEach(async () => {
    await receiver?.close()
    receiver = undefined
  })

  it('keeps no channel credential in clear at rest; read back, channels answer masked and deliver', async () => {
    receiver = await startReceiver()
    // each URL a credential of its own, as a Slack or Discord webhook URL is
    const path = (type: string) => `/${type}/${randomBytes(12).toString('hex')}`
    const urls = Object.fromEntries(
      ['webhook', 'slack', 'discord', 'teams'].map((type) => [type, receiver!.url(path(type))]),
    )
    const reqs = [
      ...Object.entries(urls).map(([type, url]) => ({ type, url }) as ChannelRequest),
      { type: 'email', to: 'ops@example.com' } as ChannelRequest,
    ]
    const signing = new Map<string, string>()
    const channels = makeChannels(reqs, [], signing, {
      allowPrivateTargets: true,
      secrets: box,
      newId: () => nextId(),
    })
    let store = await t.open()
    const m = await store.monitors.createMonitor(monitor('alice', Date.now() + 60_000, { channels }))
    const ev = event(m)
    await store.monitors.finishRun(m, run(m), [ev])
    store = await t.reopen(store)

    const raw = await t.raw(store)
    expect(raw).toContain(m.id) // the dump holds the monitor, so what it lacks is not just missing
    for (const url of Object.values(urls)) {
      expect(raw).not.toContain(url)
      expect(raw).not.toContain(new URL(url).pathname)
    }
    const [secret] = [...signing.values()]
    expect(secret).toMatch(/^whsec_/)
    expect(raw).not.toContain(secret)

    const back = (await store.monitors.getMonitor('alice', m.id))!
    expect(back.channels).toEqual(channels)
    const views = back.channels.map((c) => channelView(c))
    expect(views.map((v) => [v.type, v.target])).toEqual([
      ['webhook', `${new URL(urls.webhook).origin}/…${urls.webhook.slice(-4)}`],
      ['slack', `${new URL(urls.slack).origin}/…${urls.slack.slice(-4)}`],
      ['discord', `${new URL(urls.discord).origin}/…${urls.discord.slice(-4)}`],
      ['teams', `${new URL(urls.teams).origin}/…${urls.teams.slice(-4)}`],
      ['email', 'o…@example.com'],
    ])
    // the events' deliveries still name their channels
    const events = await store.monitors.listEvents(m.id, { limit: 10 })
    expect(events.items[0].deliveries.map((d) => d.channel_id)).toEqual(channels.map((c) => c.id))

    const deliverer = new Deliverer({ allowPrivateTargets: true, maxAttempts: 1, openSecret: box.open })
    try {
      for (const c of back.channels.filter((c) => c.type !== 'email')) {
        const start: Delivery = { ...ev.deliveries.find((d) => d.channel_id === c.id)! }
        expect((await deliverer.deliver(c, payload, start, async () => {})).status).toBe('delivered')
      }
    } finally {
      await deliverer.close()
    }
    expect(receiver.received.map((r) => r.path)).toEqual(Object.values(urls).map((u) => new URL(u).pathname))
    expect(receiver.received[0].headers['x-sitehealth-signature']).toMatch(/^sha256=/)
  })
}
