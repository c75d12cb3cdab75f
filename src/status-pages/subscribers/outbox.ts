/**
 * The durable fan-out of subscriber notices (docs/status-pages.md): a notice is stored with an item
 * per subscriber (the store's outbox) before anything is sent; this worker claims items in
 * batches under a lease, hands each one's message to the sender, and removes the sent ones, a few
 * at a time. A restart (or another instance, on PostgreSQL) resumes with what is left; a clean
 * stop waits for the messages in flight and gives the rest back. After a crash, only the
 * messages sent in the last moment (at most FLUSH_EVERY, and those in flight) can go twice.
 */
import type {
  OutboxItemRecord,
  OutboxNoticeRecord,
  SubscriberRecord,
  SubscriberStore,
} from '../../store/status-subscribers.js'
import type { Job, SubscriberSender } from './sender.js'

/** Sent items removed from the store together. */
export const FLUSH_EVERY = 25

export interface OutboxOptions {
  store: SubscriberStore
  sender: SubscriberSender
  /** One subscriber's message of a notice (its own unsubscribe link). */
  message(notice: OutboxNoticeRecord, s: SubscriberRecord): Job
  now?: () => number
  /** How long a claim holds its items (default 2 min): a stopped holder's come back after it. */
  leaseMs?: number
  /** Items claimed at once (default 200). */
  batch?: number
  /** Tries per item before it is given up (default 3); a failed one is tried again once its lease ran out. */
  maxAttempts?: number
  /** How often the outbox is looked at besides when a notice is queued (default 30 s). */
  sweepMs?: number
  log?: (line: string) => void
}

export class Outbox {
  private draining: Promise<void> | null = null
  private again = false
  private closed = false
  private timer: NodeJS.Timeout | undefined
  /** Items claimed here and not finished. */
  private readonly held = new Set<string>()
  private done: string[] = []
  private flushing: Promise<void> = Promise.resolve()

  constructor(private readonly o: OutboxOptions) {}

  private get now() {
    return (this.o.now ?? Date.now)()
  }

  /** Sends what a previous run left, then looks again every sweepMs. */
  start(): void {
    this.kick()
    this.timer = setInterval(() => this.kick(), this.o.sweepMs ?? 30_000)
    this.timer.unref()
  }

  /** Something was queued: drain (once at a time). */
  kick(): void {
    if (this.closed) return
    if (this.draining) {
      this.again = true
      return
    }
    this.draining = this.drain()
      .catch((err) => this.o.log?.(`status subscribers: outbox: ${(err as Error).message}`))
      .finally(() => {
        this.draining = null
        if (this.again) {
          this.again = false
          this.kick()
        }
      })
  }

  /** Resolves once nothing is being sent (tests, the bench). */
  async idle(): Promise<void> {
    while (this.draining) await this.draining
    await this.flushing
  }

  private async drain(): Promise<void> {
    while (!this.closed) {
      const items = await this.o.store.claimOutbox(this.o.batch ?? 200, this.o.leaseMs ?? 120_000, this.now)
      if (items.length === 0) return
      await this.sendAll(items)
      this.flush()
      await this.flushing
    }
  }

  /** Each item's message handed to the sender; resolves once every one of them is done. */
  private async sendAll(items: OutboxItemRecord[]): Promise<void> {
    const notices = new Map<string, OutboxNoticeRecord | undefined>()
    const subscribers = new Map<string, Map<string, SubscriberRecord>>()
    const waits: Promise<void>[] = []
    for (const item of items) {
      this.held.add(item.id)
      if (!notices.has(item.notice_id))
        notices.set(item.notice_id, await this.o.store.getNotice(item.notice_id))
      if (!subscribers.has(item.page_id)) {
        const list = await this.o.store.listSubscribers(item.page_id)
        subscribers.set(item.page_id, new Map(list.map((s) => [s.id, s])))
      }
      const notice = notices.get(item.notice_id)
      const s = subscribers.get(item.page_id)!.get(item.subscriber_id)
      // unsubscribed meanwhile, or the page is gone: nothing to send
      if (!notice || !s) {
        this.finished(item.id)
        continue
      }
      const job = this.o.message(notice, s)
      waits.push(
        new Promise<void>((resolve) => {
          job.done = (ok) => {
            // a failure is tried again once its lease runs out, up to maxAttempts
            if (ok || item.attempts >= (this.o.maxAttempts ?? 3)) this.finished(item.id)
            else this.held.delete(item.id)
            resolve()
          }
          this.o.sender.enqueue([job])
        }),
      )
    }
    await Promise.all(waits)
  }

  private finished(id: string): void {
    this.held.delete(id)
    this.done.push(id)
    if (this.done.length >= FLUSH_EVERY) this.flush()
  }

  /** Removes the sent items from the store, one write at a time. */
  private flush(): void {
    if (this.done.length === 0) return
    const ids = this.done
    this.done = []
    this.flushing = this.flushing.then(() =>
      this.o.store.finishOutbox(ids).catch((err) => {
        this.o.log?.(`status subscribers: outbox: ${(err as Error).message}`)
      }),
    )
  }

  /**
   * A clean stop: no more claims; once the sender's messages in flight are done (`inFlight`), the
   * sent ones are removed and the rest given back, for the next start to send at once.
   */
  async close(inFlight: Promise<void>): Promise<void> {
    this.closed = true
    clearInterval(this.timer)
    await inFlight
    this.flush()
    await this.flushing
    await this.o.store.releaseOutbox([...this.held]).catch(() => {})
    this.held.clear()
  }
}
