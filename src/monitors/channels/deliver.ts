/**
 * Sending one event to one channel: each attempt has a time limit, failures are retried with
 * exponential back-off and jitter, and every attempt is reported so the event's delivery record
 * stays true. HTTP channels connect through the same guarded lookup as checks, so an alert URL
 * cannot reach a private address (unless --allow-private-targets); redirects are not followed.
 */
import { Agent, request } from 'undici'
import nodemailer from 'nodemailer'
import {
  assertTargetAllowed,
  createGuardedLookup,
  isBlockedLookupError,
  parseTargetUrl,
} from '../../checks/index.js'
import type { Delivery, WebhookPayload } from '../../contract/monitors.js'
import type { ChannelType } from '../../contract/channels.js'
import type { ChannelRecord } from '../../store/channels.js'
import { openChannel } from './records.js'
import {
  PermanentError,
  providerOf,
  type MailMessage,
  type OpenChannel,
  type OutboundRequest,
  type Transport,
} from './providers/index.js'

export interface DeliveryOptions {
  allowPrivateTargets: boolean
  /** Per attempt, ms (default 10 s). */
  timeoutMs?: number
  /** Attempts in all (default 5). */
  maxAttempts?: number
  /** First back-off, ms; each next one is 4 times longer, ±25 % jitter (default 2 s). */
  backoffMs?: number
  /** `smtp://user:pass@host:port` or `smtps://…` (serve --smtp-url); email channels need it. */
  smtpUrl?: string
  smtpFrom?: string
  /** Opens a sealed secret (a channel's URL, a webhook's signing secret). */
  openSecret: (sealed: string) => string
}

export const DELIVERY_DEFAULTS = { timeoutMs: 10_000, maxAttempts: 5, backoffMs: 2000 }

export class Deliverer {
  private readonly agent: Agent
  private mailer: nodemailer.Transporter | undefined
  private readonly timers = new Map<NodeJS.Timeout, () => void>()
  private stopped = false
  private readonly transport: Transport = {
    post: (url, req) => this.post(url, req),
    mail: (to, message) => this.email(to, message),
  }

  constructor(private readonly opts: DeliveryOptions) {
    this.agent = new Agent({
      connect: {
        lookup: createGuardedLookup({ allowPrivateTargets: opts.allowPrivateTargets }),
        timeout: opts.timeoutMs ?? DELIVERY_DEFAULTS.timeoutMs,
      },
    })
  }

  /**
   * Delivers with retries, calling `record` after every attempt with the delivery as it now
   * stands; resolves with the final delivery (delivered or failed), or the pending one when the
   * deliverer stops first (the event stays pending and is resumed at the next start).
   */
  deliver(
    channel: ChannelRecord,
    payload: WebhookPayload,
    start: Delivery,
    record: (d: Delivery) => Promise<void>,
  ): Promise<Delivery> {
    return this.deliverTo(channel.type, (open) => openChannel(channel, open), payload, start, record)
  }

  /**
   * As `deliver`, to a channel that is not a stored record (a status page's webhook subscriber):
   * `open` makes it ready to send at each attempt, with the server's opener of sealed values.
   */
  async deliverTo(
    type: ChannelType,
    open: (openSecret: (sealed: string) => string) => OpenChannel,
    payload: WebhookPayload,
    start: Delivery,
    record: (d: Delivery) => Promise<void>,
  ): Promise<Delivery> {
    const max = this.opts.maxAttempts ?? DELIVERY_DEFAULTS.maxAttempts
    let d = start
    while (d.status === 'pending' && !this.stopped) {
      if (d.attempts > 0) await this.sleep(this.backoff(d.attempts))
      if (this.stopped) break
      let error: string | null = null
      let permanent = false
      try {
        await this.attempt(type, open, payload)
      } catch (err) {
        error = (err as Error).message || String(err)
        permanent = err instanceof PermanentError
      }
      const attempts = d.attempts + 1
      d = {
        ...d,
        attempts,
        last_attempt_at: new Date().toISOString(),
        last_error: error,
        status: error === null ? 'delivered' : permanent || attempts >= max ? 'failed' : 'pending',
      }
      await record(d).catch(() => {})
    }
    return d
  }

  /** The longest one delivery can take: every attempt timing out, every back-off at its longest. */
  maxDurationMs(): number {
    const max = this.opts.maxAttempts ?? DELIVERY_DEFAULTS.maxAttempts
    const timeout = this.opts.timeoutMs ?? DELIVERY_DEFAULTS.timeoutMs
    const backoff = this.opts.backoffMs ?? DELIVERY_DEFAULTS.backoffMs
    let total = max * timeout
    for (let a = 1; a < max; a++) total += backoff * 4 ** (a - 1) * 1.25
    return Math.ceil(total)
  }

  private backoff(attempts: number): number {
    const base = (this.opts.backoffMs ?? DELIVERY_DEFAULTS.backoffMs) * 4 ** (attempts - 1)
    return Math.round(base * (0.75 + Math.random() * 0.5))
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(() => {
        this.timers.delete(t)
        resolve()
      }, ms)
      this.timers.set(t, resolve)
    })
  }

  /** One attempt: the channel's secrets are opened for it and live no longer than it. */
  private async attempt(
    type: ChannelType,
    open: (openSecret: (sealed: string) => string) => OpenChannel,
    payload: WebhookPayload,
  ): Promise<void> {
    let channel
    try {
      channel = open(this.opts.openSecret)
    } catch (err) {
      throw new PermanentError(`The channel's sealed secrets do not open: ${(err as Error).message}`)
    }
    await providerOf(type).send(channel, payload, this.transport)
  }

  private async post(target: string, req: OutboundRequest): Promise<void> {
    let url: URL
    try {
      url = parseTargetUrl(target)
      assertTargetAllowed(url, { allowPrivateTargets: this.opts.allowPrivateTargets })
    } catch (err) {
      throw new PermanentError((err as Error).message)
    }
    const timeout = this.opts.timeoutMs ?? DELIVERY_DEFAULTS.timeoutMs
    let res
    try {
      res = await request(url, {
        method: 'POST',
        dispatcher: this.agent,
        headers: { 'user-agent': 'sitehealth-alerts', ...req.headers },
        body: req.body,
        headersTimeout: timeout,
        bodyTimeout: timeout,
        signal: AbortSignal.timeout(timeout),
      })
    } catch (err) {
      if (isBlockedLookupError(err)) throw new PermanentError(`Blocked: ${(err as Error).message}`)
      const e = err as Error & { cause?: Error }
      throw new Error(
        e.name === 'TimeoutError' ? `No answer within ${timeout} ms` : (e.cause?.message ?? e.message),
      )
    }
    await res.body.dump().catch(() => {})
    if (res.statusCode >= 200 && res.statusCode < 300) return
    const msg = `The receiver answered HTTP ${res.statusCode}`
    // 4xx other than timeout / rate limit will not change by retrying
    if (res.statusCode >= 400 && res.statusCode < 500 && res.statusCode !== 408 && res.statusCode !== 429)
      throw new PermanentError(msg)
    throw new Error(msg)
  }

  private async email(to: string, { subject, text }: MailMessage): Promise<void> {
    if (!this.opts.smtpUrl)
      throw new PermanentError('Email alerts need SMTP: start serve with --smtp-url (and --smtp-from).')
    const timeout = this.opts.timeoutMs ?? DELIVERY_DEFAULTS.timeoutMs
    this.mailer ??= nodemailer.createTransport(this.opts.smtpUrl, {
      connectionTimeout: timeout,
      greetingTimeout: timeout,
      socketTimeout: timeout,
    } as never)
    await this.mailer.sendMail({
      from: this.opts.smtpFrom ?? 'sitehealth <sitehealth@localhost>',
      to,
      subject,
      text,
    })
  }

  async close(): Promise<void> {
    this.stopped = true
    for (const [t, wake] of this.timers) {
      clearTimeout(t)
      wake()
    }
    this.timers.clear()
    this.mailer?.close()
    await this.agent.close().catch(() => {})
  }
}
