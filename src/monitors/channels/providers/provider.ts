/**
 * What one alert provider is on the sending side (its wire face, fields and secrets, is
 * `src/contract/channels.ts`): how its fields are checked beyond their schema, how its target is
 * masked in answers, and how an event becomes its message and is sent. Sending goes through a
 * Transport the deliverer gives (deliver.ts: the guarded HTTP agent, SMTP, time limits), so a
 * provider is a pure mapping from an event to requests, testable against a local stand-in.
 */
import type { ChannelType } from '../../../contract/channels.js'
import type { WebhookPayload } from '../../../contract/monitors.js'

export interface OutboundRequest {
  body: string
  headers: Record<string, string>
}

export interface MailMessage {
  subject: string
  text: string
}

/** How a provider reaches the outside; retries and the delivery record are the deliverer's. */
export interface Transport {
  /** POSTs to an http(s) URL past the SSRF guard; a 4xx other than 408 and 429 is permanent. */
  post(url: string, req: OutboundRequest): Promise<void>
  /** Sends an email (serve --smtp-url). */
  mail(to: string, message: MailMessage): Promise<void>
}

/** A channel as a provider sends to it: its fields in clear, and its signing secret, if any. */
export interface OpenChannel {
  fields: Record<string, string>
  signingSecret?: string
}

/** The problem with a field of a channel request (the routes' 400, naming the field). */
export class ChannelFieldError extends Error {
  constructor(
    readonly field: string,
    /** What is wrong, without the field (`Invalid slack URL`). */
    readonly what: string,
    /** Why. */
    readonly problem: string,
  ) {
    super(`${what}: ${problem}`)
  }
}

/** A failure that retrying will not change (a refused URL, a missing secret, a 4xx). */
export class PermanentError extends Error {}

export interface CheckContext {
  allowPrivateTargets: boolean
}

export interface Provider {
  type: ChannelType
  /** Throws a ChannelFieldError when a field is unusable (a URL the SSRF guard refuses). */
  check(fields: Record<string, string>, ctx: CheckContext): void
  /** The target as answers show it: enough to recognise, not enough to use. */
  mask(fields: Record<string, string>): string
  /** Sends one event (one attempt). */
  send(channel: OpenChannel, payload: WebhookPayload, transport: Transport): Promise<void>
}
