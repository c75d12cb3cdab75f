/**
 * Subscribers of a status page (docs/status-pages.md) as plain functions over the store: visitors
 * subscribe by email (double opt-in: only a confirmation mail goes out until its signed link is
 * followed, and the address is stored only then) or by webhook (stored at once, its signing secret
 * shown once); every notice carries a signed unsubscribe link. The owner lists and removes them.
 * Knows nothing of HTTP; the routes add the throttles and let the API map its DomainErrors.
 */
import { randomBytes } from 'node:crypto'
import type { SubscribeRequest, Subscriber, SubscriberEvent } from '../../contract/status-pages.js'
import { maskTarget, type secretBox } from '../../monitors/index.js'
import { nextId } from '../../monitors/ids.js'
import type { MaintenanceRecord } from '../../store/maintenance.js'
import type { MonitorDefinitionStore } from '../../store/monitors.js'
import type { StatusIncidentRecord } from '../../store/status-incidents.js'
import type { StatusPageRecord, StatusPageStore } from '../../store/status-pages.js'
import type { OutboxNoticeRecord, SubscriberRecord, SubscriberStore } from '../../store/status-subscribers.js'
import { DomainError } from '../../shared/index.js'
import type { StatusPageService } from '../service.js'
import { CONFIRM_DAYS, type LinkProblem, type LinkSigner } from './links.js'
import {
  confirmationMail,
  incidentNotice,
  maintenanceNotice,
  unsubscribeLines,
  type Notice,
} from './messages.js'
import type { Outbox } from './outbox.js'
import type { Job, SubscriberSender } from './sender.js'

export interface SubscriberDeps {
  pages: StatusPageService
  pageStore: StatusPageStore
  subscribers: SubscriberStore
  monitors: MonitorDefinitionStore
  signer: LinkSigner
  box: ReturnType<typeof secretBox>
  sender: SubscriberSender
  /** Where notices to subscribers are queued, durably, to be sent (outbox.ts). */
  outbox: Outbox
  /** The server's public address (serve --public-url, else where it listens). */
  baseUrl: () => string
  now?: () => number
}

export function subscriberView(s: SubscriberRecord): Subscriber {
  return {
    id: s.id,
    type: s.type,
    target: s.type === 'webhook' ? maskTarget('webhook', s.target) : s.target,
    created_at: s.created_at,
  }
}

/** What a subscription answers, the same whether or not the address was subscribed already. */
export const EMAIL_ACCEPTED =
  'If this address can subscribe, a confirmation mail is on its way: follow its link to start hearing of incidents.'

export class SubscriberService {
  private readonly now: () => number
  /** Notices are queued in the order they were told (an incident's creation before its update). */
  private turn: Promise<unknown> = Promise.resolve()

  constructor(private readonly d: SubscriberDeps) {
    this.now = d.now ?? Date.now
  }

  /** The page's public address and the base of its subscription links (its own domain when it has one). */
  links(page: StatusPageRecord) {
    const base = page.domain
      ? `https://${page.domain}`
      : `${this.d.baseUrl().replace(/\/+$/, '')}/status/${page.slug}`
    return {
      page: page.domain ? `${base}/` : base,
      confirm: (token: string) => `${base}/subscribers/confirm?token=${token}`,
      unsubscribe: (token: string) => `${base}/subscribers/unsubscribe?token=${token}`,
    }
  }

  async pageBySlug(slug: string): Promise<StatusPageRecord> {
    const page = await this.d.pageStore.getStatusPageBySlug(slug)
    if (!page) throw new DomainError('not_found', 'No status page at this address.')
    return page
  }

  /**
   * Starts an email subscription (a confirmation mail, unless `quiet`: the address asked too often)
   * or adds a webhook. Answers alike for an address subscribed or not.
   */
  async subscribe(page: StatusPageRecord, input: SubscribeRequest, quiet = false) {
    if ('email' in input) {
      if (!this.d.sender.canMail)
        throw new DomainError(
          'invalid',
          'This server sends no mail, so email subscriptions are off: subscribe with a webhook_url.',
        )
      const email = input.email.trim().toLowerCase()
      if (!quiet) {
        const url = this.links(page).confirm(this.d.signer.confirmToken(page.id, email, this.now()))
        this.d.sender.enqueue([{ kind: 'mail', to: email, ...confirmationMail(page, url, CONFIRM_DAYS) }])
      }
      return { ok: true as const, message: EMAIL_ACCEPTED }
    }
    const secret = randomBytes(32).toString('base64url')
    const record: SubscriberRecord = {
      id: nextId(this.now()),
      page_id: page.id,
      type: 'webhook',
      target: input.webhook_url,
      secret_sealed: this.d.box.seal(secret),
      created_at: new Date(this.now()).toISOString(),
    }
    await this.d.subscribers.addSubscribers([record])
    const unsubscribe_url = this.links(page).unsubscribe(this.d.signer.unsubscribeToken(page.id, record.id))
    return {
      ok: true as const,
      message: 'Subscribed: incidents, their updates and maintenance are posted to this URL, signed.',
      subscriber: { id: record.id, secret, unsubscribe_url },
    }
  }

  /** Whether a link would be followed, without following it (a GET shows a button, a POST acts). */
  check(page: StatusPageRecord, token: string, kind: 'confirm' | 'unsubscribe'): LinkProblem | 'ok' {
    const claim = this.d.signer.open(token, kind, this.now())
    if (typeof claim === 'string') return claim
    return claim.p === page.id ? 'ok' : 'invalid'
  }

  /** Follows a confirmation link: the address is subscribed (again, it is once). */
  async confirm(page: StatusPageRecord, token: string): Promise<LinkProblem | 'ok'> {
    const claim = this.d.signer.open(token, 'confirm', this.now())
    if (typeof claim === 'string') return claim
    if (claim.p !== page.id) return 'invalid'
    await this.d.subscribers.addSubscribers([
      {
        id: nextId(this.now()),
        page_id: page.id,
        type: 'email',
        target: claim.e,
        secret_sealed: null,
        created_at: new Date(this.now()).toISOString(),
      },
    ])
    return 'ok'
  }

  /** Follows an unsubscribe link: gone, and the same answer when it was gone already. */
  async unsubscribe(page: StatusPageRecord, token: string): Promise<LinkProblem | 'ok'> {
    const claim = this.d.signer.open(token, 'unsubscribe', this.now())
    if (typeof claim === 'string') return claim
    if (claim.p !== page.id) return 'invalid'
    await this.d.subscribers.deleteSubscriber(page.id, claim.s)
    return 'ok'
  }

  async list(userId: string, pageId: string): Promise<{ subscribers: Subscriber[]; count: number }> {
    const page = await this.d.pages.get(userId, pageId)
    const all = await this.d.subscribers.listSubscribers(page.id)
    return { subscribers: all.map(subscriberView), count: all.length }
  }

  async count(userId: string, pageId: string): Promise<number> {
    const page = await this.d.pages.get(userId, pageId)
    return this.d.subscribers.countSubscribers(page.id)
  }

  async remove(userId: string, pageId: string, id: string): Promise<void> {
    const page = await this.d.pages.get(userId, pageId)
    if (!(await this.d.subscribers.deleteSubscriber(page.id, id.toLowerCase())))
      throw new DomainError('not_found', 'No subscriber with this id on this status page.')
  }

  /** An incident was published, updated or resolved: every subscriber of its page hears of it. */
  incident(page: StatusPageRecord, i: StatusIncidentRecord, event: SubscriberEvent): Promise<number> {
    return this.inTurn(async () => {
      const monitors = await this.d.monitors.getMonitorsById(i.monitor_ids)
      const names = new Map(monitors.filter((m) => m.user_id === page.user_id).map((m) => [m.id, m.name]))
      return this.send(page, incidentNotice(page, this.links(page).page, i, event, names))
    })
  }

  /** A maintenance window was made: each page showing a monitor it covers tells its subscribers. */
  maintenance(w: MaintenanceRecord): Promise<number> {
    return this.inTurn(() => this.maintenanceNow(w))
  }

  private async maintenanceNow(w: MaintenanceRecord): Promise<number> {
    let sent = 0
    for (const page of await this.d.pageStore.listStatusPages(w.user_id)) {
      const covered =
        w.monitor_ids === 'all'
          ? page.monitor_ids
          : page.monitor_ids.filter((id) => w.monitor_ids.includes(id))
      if (covered.length === 0) continue
      const monitors = await this.d.monitors.getMonitorsById(covered)
      const names = monitors.filter((m) => m.user_id === page.user_id).map((m) => m.name)
      sent += await this.send(page, maintenanceNotice(page, this.links(page).page, w, names))
    }
    return sent
  }

  private inTurn<T>(work: () => Promise<T>): Promise<T> {
    const next = this.turn.then(work)
    this.turn = next.catch(() => {})
    return next
  }

  /**
   * Queues the notice for every subscriber of the page in the store's outbox (one write), for the
   * outbox to send; resolves with how many.
   */
  private async send(page: StatusPageRecord, notice: Notice): Promise<number> {
    const subs = await this.d.subscribers.listSubscribers(page.id)
    if (subs.length === 0) return 0
    const record: OutboxNoticeRecord = {
      id: nextId(this.now()),
      page_id: page.id,
      event: notice.event,
      subject: notice.subject,
      text: notice.text,
      data: notice.data,
      occurred_at: new Date(this.now()).toISOString(),
      page_title: page.title,
      unsubscribe_base: this.links(page).unsubscribe(''),
    }
    await this.d.subscribers.enqueueNotice(
      record,
      subs.map((s) => s.id),
    )
    this.d.outbox.kick()
    return subs.length
  }
}

/** One subscriber's message of a queued notice, with its own signed unsubscribe link. */
export function noticeMessage(signer: LinkSigner, n: OutboxNoticeRecord, s: SubscriberRecord): Job {
  const unsubscribe = n.unsubscribe_base + signer.unsubscribeToken(n.page_id, s.id)
  if (s.type === 'webhook')
    return {
      kind: 'webhook',
      subscriber: s,
      body: { event: n.event, occurred_at: n.occurred_at, ...n.data, unsubscribe_url: unsubscribe },
    }
  return {
    kind: 'mail',
    to: s.target,
    subject: n.subject,
    text: n.text + unsubscribeLines(n.page_title, unsubscribe),
    headers: {
      'List-Unsubscribe': `<${unsubscribe}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  }
}
