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

export interface SubscriberStore {
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
