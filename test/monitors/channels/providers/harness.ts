/**
 * One provider end to end on this machine: a channel request made into a record as the service
 * makes it (checked, secrets sealed), its answer view, and one event sent through the deliverer
 * to a local stand-in (an HTTP receiver, or an SMTP server for email).
 */
import { once } from 'node:events'
import net from 'node:net'
import { SMTPServer } from 'smtp-server'
import type { ChannelRequest, Delivery, WebhookPayload } from '../../../../src/contract/monitors.js'
import { Deliverer } from '../../../../src/monitors/channels/deliver.js'
import { channelView, makeChannels } from '../../../../src/monitors/channels/records.js'
import { nextId } from '../../../../src/monitors/ids.js'
import { secretBox } from '../../../../src/shared/secret-box.js'
import type { ChannelRecord } from '../../../../src/store/monitors.js'
import { startReceiver, type Receiver } from '../../fixtures.js'

export const payload: WebhookPayload = {
  event: 'monitor.down',
  occurred_at: '2026-01-01T00:00:00.000Z',
  monitor: { id: '01a2084a-9dd6-76a2-9367-c897e9bd68ee', name: 'shop', url: 'https://shop.example/' },
  check: null,
  previous_state: 'up',
  state: 'down',
  message: 'https://shop.example/ is down',
}

export const box = secretBox('provider tests')

/** A request made into a stored record (private targets allowed: the stand-ins are local). */
export function record(
  req: ChannelRequest,
  allowPrivateTargets = true,
): { c: ChannelRecord; secret?: string } {
  const secrets = new Map<string, string>()
  const [c] = makeChannels([req], [], secrets, { allowPrivateTargets, secrets: box, newId: () => nextId() })
  return { c, secret: secrets.get(c.id) }
}

export const view = (req: ChannelRequest) => channelView(record(req).c)

async function deliver(c: ChannelRecord, o: { smtpUrl?: string } = {}): Promise<Delivery> {
  const d = new Deliverer({
    allowPrivateTargets: true,
    backoffMs: 1,
    maxAttempts: 1,
    openSecret: box.open,
    ...o,
  })
  try {
    const start: Delivery = {
      channel_id: c.id,
      type: c.type,
      status: 'pending',
      attempts: 0,
      last_attempt_at: null,
      last_error: null,
    }
    return await d.deliver(c, payload, start, async () => {})
  } finally {
    await d.close()
  }
}

/** Sends `payload` to a channel of `type` whose URL is a local receiver; what it received. */
export async function sendToReceiver(
  make: (url: string) => ChannelRequest,
): Promise<{ delivery: Delivery; got: Receiver['received']; secret?: string }> {
  const receiver = await startReceiver()
  try {
    const { c, secret } = record(make(receiver.url('/hook')))
    const delivery = await deliver(c)
    return { delivery, got: receiver.received, secret }
  } finally {
    await receiver.close()
  }
}

/** Sends `payload` to an email channel through a local SMTP server; the raw messages it took. */
export async function sendToSmtp(req: ChannelRequest): Promise<{ delivery: Delivery; mails: string[] }> {
  const mails: string[] = []
  const smtp = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, cb) {
      let text = `RCPT ${session.envelope.rcptTo.map((r) => r.address).join(',')}\n`
      stream.on('data', (b: Buffer) => (text += b.toString()))
      stream.on('end', () => {
        mails.push(text)
        cb()
      })
    },
  })
  smtp.listen(0, '127.0.0.1')
  await once(smtp.server, 'listening')
  try {
    const port = (smtp.server.address() as net.AddressInfo).port
    const delivery = await deliver(record(req).c, { smtpUrl: `smtp://127.0.0.1:${port}` })
    return { delivery, mails }
  } finally {
    await new Promise((r) => smtp.close(() => r(undefined)))
  }
}
