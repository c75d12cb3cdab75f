/**
 * The status-page subscriber concern of the storage interface (docs/status-pages.md): confirmed email
 * addresses and webhooks that hear of a page's incidents. An email address is stored only once
 * it confirmed (the confirmation link carries it, signed), once per page. Every backend
 * implements it in its own file (src/store/embedded/status-subscribers.ts, src/store/postgres/…).
 */
import type { SubscriberType } from '../contract/status-pages.js'

export interface SubscriberRecord {
  id: string
  page_id: string
  type: SubscriberType
  /** The address (lowercase) or the webhook URL. */
  target: string
  /** Webhooks: the signing secret, sealed with the server's secret key. */
  secret_sealed: string | null
  created_at: string
}

export interface SubscriberStore extends SubscriberOutboxStore {
  /**
   * Adds the subscribers not there yet (an email already on the page is skipped; webhooks are
   * each their own); resolves with those added. One durable write for the whole list.
   */
  addSubscribers(list: SubscriberRecord[]): Promise<SubscriberRecord[]>
  getSubscriber(pageId: string, id: string): Promise<SubscriberRecord | undefined>
  /** The page's subscribers, oldest first. */
  listSubscribers(pageId: string): Promise<SubscriberRecord[]>
  countSubscribers(pageId: string): Promise<number>
  deleteSubscriber(pageId: string, id: string): Promise<boolean>
  /** Removes every subscriber of a page (the page is deleted). */
  deletePageSubscribers(pageId: string): Promise<void>
}

/**
 * A notice on its way to a page's subscribers (the outbox): made once, with what every message of
 * it says; each subscriber still to hear of it is an OutboxItemRecord. It goes once none is left.
 */
export interface OutboxNoticeRecord {
  id: string
  page_id: string
  event: string
  /** The mail's subject, and its text before the unsubscribe lines. */
  subject: string
  text: string
  /** The webhook body's fields beside `event`, `occurred_at` and `unsubscribe_url`. */
  data: Record<string, unknown>
  occurred_at: string
  /** The page's title, and its unsubscribe link before the token, when the notice was made. */
  page_title: string
  unsubscribe_base: string
}

/** One subscriber still to hear of a notice. */
export interface OutboxItemRecord {
  id: string
  notice_id: string
  page_id: string
  subscriber_id: string
  /** Times it was taken to be sent. */
  attempts: number
  /** Until when (epoch ms) a sender holds it; 0 when free. */
  lease_until: number
}

/**
 * The durable outbox of subscriber notices (docs/status-pages.md): what a fan-out has still to send
 * survives a restart, and each item is held by one sender at a time (across instances on
 * PostgreSQL), so a restart resumes where it stopped.
 */
export interface SubscriberOutboxStore {
  /** Queues a notice for these subscribers: one durable write. */
  enqueueNotice(notice: OutboxNoticeRecord, subscriberIds: string[]): Promise<void>
  getNotice(id: string): Promise<OutboxNoticeRecord | undefined>
  /**
   * Takes up to `limit` items whose lease is free or ran out (oldest first), each for `leaseMs`
   * from `now`, counting an attempt; resolves with them.
   */
  claimOutbox(limit: number, leaseMs: number, now: number): Promise<OutboxItemRecord[]>
  /** Removes items (sent, or given up), and a notice once none of its items is left. */
  finishOutbox(ids: string[]): Promise<void>
  /** Gives leases back (a clean stop): the next claim takes them at once. */
  releaseOutbox(ids: string[]): Promise<void>
  /** Items still queued (all notices), for tests and logs. */
  countOutbox(): Promise<number>
}
