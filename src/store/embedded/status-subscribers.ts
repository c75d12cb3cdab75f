/**
 * The embedded backend of status-page subscribers (docs/status-pages.md): `<dataDir>/status-subscribers.json`.
 * A page's email addresses are kept once each; a batch of subscribers is one durable write.
 */
import type {
  OutboxItemRecord,
  OutboxNoticeRecord,
  SubscriberRecord,
  SubscriberStore,
} from '../status-subscribers.js'
import type { LowdbContext } from './context.js'
import { JsonDoc } from './json-doc.js'
import { LowdbOutbox } from './status-outbox.js'

interface SubscribersDoc {
  version: 1
  subscribers: SubscriberRecord[]
}

const emailKey = (s: SubscriberRecord) => `${s.page_id}\n${s.target}`

export class LowdbStatusSubscribers implements SubscriberStore {
  private readonly d: JsonDoc<SubscribersDoc>
  /** The notices on their way (status-outbox.ts). */
  private readonly outbox: LowdbOutbox

  constructor(ctx: LowdbContext) {
    this.outbox = new LowdbOutbox(ctx)
    this.d = new JsonDoc<SubscribersDoc>(
      ctx,
      'status-subscribers.json',
      () => ({ version: 1, subscribers: [] }),
      (d) => Array.isArray(d.subscribers),
    )
  }

  async load(): Promise<void> {
    await this.d.load()
    await this.outbox.load()
  }

  addSubscribers(list: SubscriberRecord[]): Promise<SubscriberRecord[]> {
    return this.d.write((doc) => {
      const emails = new Set(doc.subscribers.filter((s) => s.type === 'email').map(emailKey))
      const added: SubscriberRecord[] = []
      for (const s of list) {
        if (s.type === 'email') {
          if (emails.has(emailKey(s))) continue
          emails.add(emailKey(s))
        }
        doc.subscribers.push(s)
        added.push(s)
      }
      return added
    })
  }

  async getSubscriber(pageId: string, id: string) {
    return this.d.doc.subscribers.find((s) => s.id === id && s.page_id === pageId)
  }

  async listSubscribers(pageId: string) {
    return this.d.doc.subscribers.filter((s) => s.page_id === pageId)
  }

  async countSubscribers(pageId: string) {
    let n = 0
    for (const s of this.d.doc.subscribers) if (s.page_id === pageId) n++
    return n
  }

  deleteSubscriber(pageId: string, id: string): Promise<boolean> {
    if (!this.d.doc.subscribers.some((s) => s.id === id && s.page_id === pageId))
      return Promise.resolve(false)
    return this.d.write((doc) => {
      const before = doc.subscribers.length
      doc.subscribers = doc.subscribers.filter((s) => !(s.id === id && s.page_id === pageId))
      return doc.subscribers.length < before
    })
  }

  async deletePageSubscribers(pageId: string): Promise<void> {
    await this.outbox.deletePage(pageId)
    if (!this.d.doc.subscribers.some((s) => s.page_id === pageId)) return
    await this.d.write((doc) => {
      doc.subscribers = doc.subscribers.filter((s) => s.page_id !== pageId)
    })
  }

  enqueueNotice(notice: OutboxNoticeRecord, subscriberIds: string[]) {
    return this.outbox.enqueueNotice(notice, subscriberIds)
  }

  getNotice(id: string) {
    return this.outbox.getNotice(id)
  }

  claimOutbox(limit: number, leaseMs: number, now: number): Promise<OutboxItemRecord[]> {
    return this.outbox.claimOutbox(limit, leaseMs, now)
  }

  finishOutbox(ids: string[]) {
    return this.outbox.finishOutbox(ids)
  }

  releaseOutbox(ids: string[]) {
    return this.outbox.releaseOutbox(ids)
  }

  countOutbox() {
    return this.outbox.countOutbox()
  }
}
