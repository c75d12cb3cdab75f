/**
 * The embedded backend of the subscriber outbox (docs/status-pages.md): `<dataDir>/status-outbox.json`,
 * the notices on their way and an item per subscriber still to hear of one. One process owns the
 * data dir, so leases read back from disk belong to a process that stopped: they are free again
 * once loaded, and a restart resumes at once.
 */
import type { OutboxItemRecord, OutboxNoticeRecord, SubscriberOutboxStore } from '../status-subscribers.js'
import { uuidv7 } from '../../shared/index.js'
import type { LowdbContext } from './context.js'
import { JsonDoc } from './json-doc.js'

interface OutboxDoc {
  version: 1
  notices: OutboxNoticeRecord[]
  /** Oldest first. */
  items: OutboxItemRecord[]
}

export class LowdbOutbox implements SubscriberOutboxStore {
  private readonly d: JsonDoc<OutboxDoc>

  constructor(ctx: LowdbContext) {
    this.d = new JsonDoc<OutboxDoc>(
      ctx,
      'status-outbox.json',
      () => ({ version: 1, notices: [], items: [] }),
      (d) => Array.isArray(d.notices) && Array.isArray(d.items),
    )
  }

  async load(): Promise<void> {
    await this.d.load()
    // a lease on disk is a stopped process's: free (kept in memory; the next write saves it)
    for (const i of this.d.doc.items as OutboxItemRecord[]) i.lease_until = 0
  }

  async enqueueNotice(notice: OutboxNoticeRecord, subscriberIds: string[]): Promise<void> {
    if (subscriberIds.length === 0) return
    const items = subscriberIds.map((subscriber_id) => ({
      id: uuidv7(Date.now()),
      notice_id: notice.id,
      page_id: notice.page_id,
      subscriber_id,
      attempts: 0,
      lease_until: 0,
    }))
    await this.d.write((doc) => {
      doc.notices.push(notice)
      for (const i of items) doc.items.push(i)
    })
  }

  async getNotice(id: string) {
    return this.d.doc.notices.find((n) => n.id === id)
  }

  async claimOutbox(limit: number, leaseMs: number, now: number): Promise<OutboxItemRecord[]> {
    if (!this.d.doc.items.some((i) => i.lease_until <= now)) return []
    return this.d.write((doc) => {
      const taken: OutboxItemRecord[] = []
      for (const i of doc.items) {
        if (taken.length >= limit) break
        if (i.lease_until > now) continue
        i.lease_until = now + leaseMs
        i.attempts++
        taken.push({ ...i })
      }
      return taken
    })
  }

  async finishOutbox(ids: string[]): Promise<void> {
    if (ids.length === 0) return
    const gone = new Set(ids)
    await this.d.write((doc) => {
      doc.items = doc.items.filter((i) => !gone.has(i.id))
      const left = new Set(doc.items.map((i) => i.notice_id))
      doc.notices = doc.notices.filter((n) => left.has(n.id))
    })
  }

  async releaseOutbox(ids: string[]): Promise<void> {
    if (ids.length === 0) return
    const back = new Set(ids)
    await this.d.write((doc) => {
      for (const i of doc.items) if (back.has(i.id)) i.lease_until = 0
    })
  }

  async countOutbox(): Promise<number> {
    return this.d.doc.items.length
  }

  /** The page is deleted: nothing more of it is sent. */
  async deletePage(pageId: string): Promise<void> {
    if (!this.d.doc.items.some((i) => i.page_id === pageId)) return
    await this.d.write((doc) => {
      doc.items = doc.items.filter((i) => i.page_id !== pageId)
      doc.notices = doc.notices.filter((n) => n.page_id !== pageId)
    })
  }
}
