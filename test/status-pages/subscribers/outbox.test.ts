/**
 * The outbox worker over the embedded store: every queued item sent once and removed, a subscriber
 * removed meanwhile skipped, a failure tried again once its lease ran out and given up after the
 * last attempt, and a stop giving back what it had not sent.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { nextId } from '../../../src/monitors/ids.js'
import { Outbox, type Job, type SubscriberSender } from '../../../src/status-pages/index.js'
import { openLowdbStore, type LowdbStore } from '../../../src/store/index.js'
import type { OutboxNoticeRecord, SubscriberRecord } from '../../../src/store/status-subscribers.js'
import { removeDir, tempDir } from '../../store/helpers.js'

let dir: string
let store: LowdbStore
let clock: number
const PAGE = nextId()

/** A sender that answers each job as `answer` says, at once or when released. */
function fakeSender(answer: (to: string) => boolean | 'hold') {
  const sent: string[] = []
  const held: Job[] = []
  const sender = {
    enqueue(jobs: Job[]) {
      for (const j of jobs) {
        const to = j.kind === 'mail' ? j.to : j.subscriber.target
        const a = answer(to)
        if (a === 'hold') held.push(j)
        else {
          if (a) sent.push(to)
          queueMicrotask(() => j.done?.(a))
        }
      }
    },
  }
  return { sender: sender as unknown as SubscriberSender, sent, held }
}

const sub = (target: string): SubscriberRecord => ({
  id: nextId(),
  page_id: PAGE,
  type: 'email',
  target,
  secret_sealed: null,
  created_at: new Date().toISOString(),
})

const notice = (): OutboxNoticeRecord => ({
  id: nextId(),
  page_id: PAGE,
  event: 'incident.created',
  subject: 'New incident',
  text: 'Down.\n',
  data: {},
  occurred_at: new Date().toISOString(),
  page_title: 'Acme',
  unsubscribe_base: 'http://127.0.0.1/status/acme/subscribers/unsubscribe?token=',
})

const outboxOf = (sender: SubscriberSender) =>
  new Outbox({
    store: store.statusSubscribers,
    sender,
    message: (_n, s) => ({ kind: 'mail', to: s.target, subject: 's', text: 't' }),
    now: () => clock,
    leaseMs: 1000,
    batch: 2,
  })

beforeEach(async () => {
  dir = await tempDir()
  store = await openLowdbStore(dir)
  clock = 1_900_000_000_000
})
afterEach(async () => {
  await store.close()
  await removeDir(dir)
})

describe('the subscriber outbox', () => {
  it('sends each item once, in batches, skips a subscriber removed meanwhile, and empties', async () => {
    const subs = ['a@x.test', 'b@x.test', 'c@x.test', 'd@x.test', 'e@x.test'].map(sub)
    await store.statusSubscribers.addSubscribers(subs)
    await store.statusSubscribers.enqueueNotice(
      notice(),
      subs.map((s) => s.id),
    )
    await store.statusSubscribers.deleteSubscriber(PAGE, subs[3].id)
    const f = fakeSender(() => true)
    const outbox = outboxOf(f.sender)
    outbox.kick()
    await outbox.idle()
    expect(f.sent).toEqual(['a@x.test', 'b@x.test', 'c@x.test', 'e@x.test'])
    expect(await store.statusSubscribers.countOutbox()).toBe(0)
  })

  it('tries a failure again once its lease ran out, and gives it up after the last attempt', async () => {
    const [ok, bad] = [sub('ok@x.test'), sub('bad@x.test')]
    await store.statusSubscribers.addSubscribers([ok, bad])
    await store.statusSubscribers.enqueueNotice(notice(), [ok.id, bad.id])
    let tries = 0
    const f = fakeSender((to) => (to === 'bad@x.test' ? (tries++, false) : true))
    const outbox = outboxOf(f.sender)
    outbox.kick()
    await outbox.idle()
    expect([f.sent, tries]).toEqual([['ok@x.test'], 1])
    expect(await store.statusSubscribers.countOutbox()).toBe(1)
    outbox.kick()
    await outbox.idle()
    expect(tries).toBe(1)
    for (const attempt of [2, 3]) {
      clock += 1000
      outbox.kick()
      await outbox.idle()
      expect(tries).toBe(attempt)
    }
    expect(await store.statusSubscribers.countOutbox()).toBe(0)
  })

  it('gives back on a stop what it had not sent, for the next start', async () => {
    const subs = ['a@x.test', 'b@x.test', 'c@x.test'].map(sub)
    await store.statusSubscribers.addSubscribers(subs)
    await store.statusSubscribers.enqueueNotice(
      notice(),
      subs.map((s) => s.id),
    )
    const f = fakeSender((to) => (to === 'a@x.test' ? true : 'hold'))
    const outbox = outboxOf(f.sender)
    outbox.kick()
    await new Promise((r) => setTimeout(r, 50))
    await outbox.close(Promise.resolve())
    expect(await store.statusSubscribers.countOutbox()).toBe(2)
    // the same instant: given back, so free at once
    const next = fakeSender(() => true)
    const again = outboxOf(next.sender)
    again.kick()
    await again.idle()
    expect(next.sent).toEqual(['b@x.test', 'c@x.test'])
  })
})
