/**
 * Sending to subscribers with bounded concurrency (docs/status-pages.md): one queue per process,
 * at most `concurrency` mails and webhooks in flight, mail over one pooled SMTP connection set
 * (`serve --smtp-url`), webhooks through the alert deliverer (the same signature, SSRF guard,
 * time limits and retries as alert webhooks). A notice to 10,000 subscribers is queued at once and
 * sent in the background: the request that caused it, and every other, is answered meanwhile.
 * This queue lives in memory: notices to subscribers come to it from the durable outbox
 * (outbox.ts), which sends again what a stop left; a confirmation mail comes straight here.
 */
import nodemailer from 'nodemailer'
import type { Delivery, WebhookPayload } from '../../contract/monitors.js'
import type { Deliverer } from '../../monitors/index.js'
import type { SubscriberRecord } from '../../store/status-subscribers.js'

/** Told once a job is sent (true) or given up (false): the outbox removes or retries its item. */
type Done = { done?: (ok: boolean) => void }

export interface MailJob extends Done {
  kind: 'mail'
  to: string
  subject: string
  text: string
  headers?: Record<string, string>
}

export interface WebhookJob extends Done {
  kind: 'webhook'
  subscriber: SubscriberRecord
  body: { event: string } & Record<string, unknown>
}

export type Job = MailJob | WebhookJob

export interface SenderOptions {
  smtpUrl?: string
  smtpFrom?: string
  /** Sends webhooks (retries, guard, signature); without it webhooks are dropped with a log line. */
  deliverer?: Deliverer
  /** Jobs in flight at once (default 8). */
  concurrency?: number
  /** Tries per mail (default 3), 1 s then 4 s apart. */
  mailAttempts?: number
  log?: (line: string) => void
}

export class SubscriberSender {
  private queue: Job[] = []
  private head = 0
  private running = 0
  private mailer: nodemailer.Transporter | undefined
  private waiters: (() => void)[] = []
  private closed = false
  /** Mails and webhooks handed over, and those given up (for tests and the bench). */
  readonly stats = { sent: 0, failed: 0 }

  constructor(private readonly o: SenderOptions) {}

  get canMail(): boolean {
    return !!this.o.smtpUrl
  }

  private get concurrency() {
    return this.o.concurrency ?? 8
  }

  enqueue(jobs: Job[]): void {
    if (this.closed || jobs.length === 0) return
    for (const j of jobs) this.queue.push(j)
    this.pump()
  }

  /** Resolves when nothing is queued or in flight. */
  idle(): Promise<void> {
    if (this.running === 0 && this.head >= this.queue.length) return Promise.resolve()
    return new Promise((resolve) => this.waiters.push(resolve))
  }

  private pump(): void {
    while (this.running < this.concurrency && this.head < this.queue.length && !this.closed) {
      const job = this.queue[this.head++]
      if (this.head > 1024 && this.head * 2 > this.queue.length) {
        this.queue = this.queue.slice(this.head)
        this.head = 0
      }
      this.running++
      void this.run(job).finally(() => {
        this.running--
        // the next one on a later turn: a long queue never holds the event loop
        setImmediate(() => this.pump())
        if (this.running === 0 && this.head >= this.queue.length) {
          for (const w of this.waiters.splice(0)) w()
        }
      })
    }
  }

  private async run(job: Job): Promise<void> {
    try {
      if (job.kind === 'mail') await this.mail(job)
      else await this.webhook(job)
      this.stats.sent++
      job.done?.(true)
    } catch (err) {
      this.stats.failed++
      this.o.log?.(`status subscribers: ${job.kind} not sent: ${(err as Error).message}`)
      job.done?.(false)
    }
  }

  private transport(): nodemailer.Transporter {
    this.mailer ??= nodemailer.createTransport({
      url: this.o.smtpUrl,
      pool: true,
      maxConnections: Math.min(this.concurrency, 5),
      maxMessages: 1000,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
    } as never)
    return this.mailer
  }

  private async mail(job: MailJob): Promise<void> {
    if (!this.o.smtpUrl) throw new Error('no SMTP: start serve with --smtp-url')
    const attempts = this.o.mailAttempts ?? 3
    for (let a = 1; ; a++) {
      try {
        await this.transport().sendMail({
          from: this.o.smtpFrom ?? 'sitehealth <sitehealth@localhost>',
          to: job.to,
          subject: job.subject,
          text: job.text,
          headers: job.headers,
        })
        return
      } catch (err) {
        const code = (err as { responseCode?: number }).responseCode
        // a 5xx answer about this mail will not change by retrying
        if (a >= attempts || (code !== undefined && code >= 500)) throw err
        await new Promise((r) => setTimeout(r, 1000 * 4 ** (a - 1)))
      }
    }
  }

  private async webhook(job: WebhookJob): Promise<void> {
    if (!this.o.deliverer) throw new Error('no deliverer for webhooks')
    const s = job.subscriber
    const start: Delivery = {
      channel_id: s.id,
      type: 'webhook',
      status: 'pending',
      attempts: 0,
      last_attempt_at: null,
      last_error: null,
    }
    // the deliverer signs and sends any JSON body with an `event`, as it does alert payloads
    const d = await this.o.deliverer.deliverTo(
      'webhook',
      (open) => ({
        fields: { url: s.target },
        ...(s.secret_sealed ? { signingSecret: open(s.secret_sealed) } : {}),
      }),
      job.body as unknown as WebhookPayload,
      start,
      async () => {},
    )
    if (d.status !== 'delivered') throw new Error(d.last_error ?? 'not delivered')
  }

  /**
   * Takes no more jobs (what is queued is dropped: the outbox gives its items back) and resolves
   * once the ones in flight are done.
   */
  stop(): Promise<void> {
    this.closed = true
    this.queue = []
    this.head = 0
    if (this.running === 0) for (const w of this.waiters.splice(0)) w()
    return this.running === 0 ? Promise.resolve() : new Promise((resolve) => this.waiters.push(resolve))
  }

  async close(): Promise<void> {
    this.closed = true
    this.queue = []
    this.head = 0
    for (const w of this.waiters.splice(0)) w()
    this.mailer?.close()
  }
}
