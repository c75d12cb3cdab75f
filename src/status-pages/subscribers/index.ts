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
import { SubscriberService } from './service.js'

export { SubscriberService, subscriberView, EMAIL_ACCEPTED } from './service.js'
export { SubscriberSender, type Job } from './sender.js'
export { LinkSigner, CONFIRM_DAYS } from './links.js'
export { subscriberRoutes, SUBSCRIBE_POLICIES } from './routes.js'

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
  const service = new SubscriberService({
    pages,
    pageStore: store.statusPages,
    subscribers: store.statusSubscribers,
    monitors: store.monitors,
    signer: new LinkSigner(o.secretKey),
    box,
    sender,
    baseUrl: o.baseUrl,
    now: o.now,
  })
  return {
    service,
    sender,
    async close() {
      await sender.close()
      await deliverer.close()
    },
  }
}
