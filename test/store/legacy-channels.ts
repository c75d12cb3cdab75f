/**
 * Channels as a version before sealing stored them (src/store/channels.ts, LegacyChannelRecord):
 * each provider's target in clear beside a sealed signing secret, for the upgrade tests of both
 * backends; and the checks that they came out sealed, kept and still delivering.
 */
import { randomBytes } from 'node:crypto'
import { expect } from 'vitest'
import type { Delivery, WebhookPayload } from '../../src/contract/monitors.js'
import { Deliverer } from '../../src/monitors/channels/deliver.js'
import { channelView } from '../../src/monitors/channels/records.js'
import { signature } from '../../src/monitors/channels/providers/index.js'
import { nextId } from '../../src/monitors/ids.js'
import { secretBox } from '../../src/shared/index.js'
import type { LegacyChannelRecord } from '../../src/store/channels.js'
import type { MonitorRecord } from '../../src/store/monitors.js'
import type { Receiver } from '../monitors/fixtures.js'

/** The server's key the old version sealed signing secrets with, and seals with now. */
export const KEY = 'the server key of the upgrade tests'
export const box = secretBox(KEY)

const payload: WebhookPayload = {
  event: 'monitor.down',
  occurred_at: '2026-01-01T00:00:00.000Z',
  monitor: { id: '01a2084a-9dd6-76a2-9367-c897e9bd68ee', name: 'shop', url: 'https://shop.example/' },
  check: null,
  previous_state: 'up',
  state: 'down',
  message: 'https://shop.example/ is down',
}

export interface OldChannels {
  channels: LegacyChannelRecord[]
  /** Channel id → its URL (the credential that must leave the disk). */
  urls: Map<string, string>
  /** The webhook channel's signing secret, in clear. */
  secret: string
}

/** One channel of every provider in the old shape; the URLs reach `receiver`. */
export function oldChannels(receiver: Receiver, named = false): OldChannels {
  const secret = `whsec_${randomBytes(32).toString('base64url')}`
  const urls = new Map<string, string>()
  const channels: LegacyChannelRecord[] = (['webhook', 'slack', 'discord', 'teams'] as const).map((type) => {
    const id = nextId()
    const url = receiver.url(`/${type}/${randomBytes(12).toString('hex')}`)
    urls.set(id, url)
    return {
      id,
      type,
      target: url,
      secret_sealed: type === 'webhook' ? box.seal(secret) : null,
      ...(named ? { name: `${type}-alerts`, source: `\${${type.toUpperCase()}_URL}` } : {}),
    }
  })
  channels.push({ id: nextId(), type: 'email', target: 'ops@example.com', secret_sealed: null })
  return { channels, urls, secret }
}

/** No URL and no signing secret in `raw`, which does hold the monitors' ids. */
export function expectNothingInClear(raw: string, old: OldChannels[], monitorIds: string[]): void {
  for (const id of monitorIds) expect(raw).toContain(id)
  for (const o of old) {
    for (const url of o.urls.values()) expect(raw).not.toContain(new URL(url).pathname)
    expect(raw).not.toContain(o.secret)
  }
}

/**
 * `m`'s channels are `o`'s, sealed: the same ids, names and sources, answering masked; each one
 * delivers to its own URL, the webhook signed with its old secret (opened with `sealedWith`).
 */
export async function expectSealedAndDelivering(
  m: MonitorRecord,
  o: OldChannels,
  receiver: Receiver,
  sealedWith = box,
) {
  expect(m.channels.map((c) => [c.id, c.type, c.name ?? null, c.source ?? null])).toEqual(
    o.channels.map((c) => [c.id, c.type, c.name ?? null, c.source ?? null]),
  )
  for (const c of m.channels) {
    expect(c).not.toHaveProperty('target')
    expect(c.secrets === null).toBe(c.type === 'email')
    const url = o.urls.get(c.id)
    const view = channelView(c)
    expect(view.target).toBe(url ? `${new URL(url).origin}/…${url.slice(-4)}` : 'o…@example.com')
  }
  const deliverer = new Deliverer({ allowPrivateTargets: true, maxAttempts: 1, openSecret: sealedWith.open })
  const before = receiver.received.length
  try {
    for (const c of m.channels.filter((c) => c.type !== 'email')) {
      const start: Delivery = {
        channel_id: c.id,
        type: c.type,
        status: 'pending',
        attempts: 0,
        last_attempt_at: null,
        last_error: null,
      }
      expect((await deliverer.deliver(c, payload, start, async () => {})).status).toBe('delivered')
    }
  } finally {
    await deliverer.close()
  }
  const got = receiver.received.slice(before)
  expect(got.map((r) => r.path)).toEqual([...o.urls.values()].map((u) => new URL(u).pathname))
  const hook = got[0]
  const ts = String(hook.headers['x-sitehealth-timestamp'])
  expect(hook.headers['x-sitehealth-signature']).toBe(signature(o.secret, ts, hook.body))
}
