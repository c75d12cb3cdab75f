/**
 * Subscribers of status pages (docs/status-pages.md): the door. `openSubscribers` builds the service
 * and its sender once (serve hands it the SMTP settings and the server's secret key);
 * `subscriberRoutes` are its public and owner routes.
 */
import { Deliverer, secretBox } from '../../monitors/index.js'
import type { Store } from '../../store/types.js'
import type { StatusPageService } from '../service.js'
import { LinkSigner } from './links.js'
import { SubscriberSender } from './sender.js'
import { Outbox } from './outbox.js'
import { noticeMessage, SubscriberService } from './service.js'

export { SubscriberService, subscriberView, EMAIL_ACCEPTED } from './service.js'
export { SubscriberSender, type Job } from './sender.js'
export { Outbox } from './outbox.js'
export { LinkSigner, CONFIRM_DAYS } from './links.js'
export { subscriberRoutes, SUBSCRIBE_POLICIES } from './routes.js'

/** How long a stop waits for the mails and webhooks in flight. */
const STOP_WAIT_MS = 10_000

export interface SubscriberOptions {
  /** The server's secret key: signs the links, seals webhook secrets. */
  secretKey: string
  smtpUrl?: string
  smtpFrom?: string
  allowPrivateTargets: boolean
  baseUrl: () => string
  /** Mails and webhooks in flight at once (default 8). */
  concurrency?: number
  log?: (line: string) => void
  now?: () => number
}

export interface Subscribers {
  service: SubscriberService
  sender: SubscriberSender
  /** The durable fan-out of notices (outbox.ts). */
  outbox: Outbox
  close(): Promise<void>
}

export function openSubscribers(store: Store, pages: StatusPageService, o: SubscriberOptions): Subscribers {
  const box = secretBox(o.secretKey)
  const deliverer = new Deliverer({
    allowPrivateTargets: o.allowPrivateTargets,
    openSecret: (s) => box.open(s),
  })
  const sender = new SubscriberSender({
    smtpUrl: o.smtpUrl,
    smtpFrom: o.smtpFrom,
    deliverer,
    concurrency: o.concurrency,
    log: o.log,
  })
  const signer = new LinkSigner(o.secretKey)
  const outbox = new Outbox({
    store: store.statusSubscribers,
    sender,
    message: (n, s) => noticeMessage(signer, n, s),
    now: o.now,
    log: o.log,
  })
  const service = new SubscriberService({
    pages,
    pageStore: store.statusPages,
    subscribers: store.statusSubscribers,
    monitors: store.monitors,
    signer,
    box,
    sender,
    outbox,
    baseUrl: o.baseUrl,
    now: o.now,
  })
  // what a previous run left in the outbox goes now
  outbox.start()
  return {
    service,
    sender,
    outbox,
    async close() {
      // the messages in flight finish; what was not sent stays in the outbox for the next start
      const settled = new Promise<void>((r) => setTimeout(r, STOP_WAIT_MS).unref())
      await outbox.close(Promise.race([sender.stop(), settled]))
      await sender.close()
      await deliverer.close()
    },
  }
}
