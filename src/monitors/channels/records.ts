/**
 * Channels between their requests, their stored records and their answers, through the provider
 * registry (providers/): a request's fields checked by its provider, a record opened for sending,
 * a record shown masked. Nothing here names a channel type.
 */
import { channelFingerprint } from '../../contract/fingerprint.js'
import { providerFace, type Channel, type ChannelRequest, type ChannelType } from '../../contract/channels.js'
import { newWebhookSecret, type SecretBox } from '../../shared/index.js'
import type { ChannelRecord } from '../../store/monitors.js'
import { ChannelFieldError, providerOf, type OpenChannel } from './providers/index.js'

/** A request's provider fields, as stored (a field the face trims, trimmed). */
export function requestFields(r: ChannelRequest): Record<string, string> {
  const face = providerFace(r.type)
  const req = r as Record<string, unknown>
  return Object.fromEntries(
    Object.entries(face.fields).map(([k, f]) => {
      const v = String(req[k])
      return [k, f.trim ? v.trim() : v]
    }),
  )
}

/** A record's provider fields in clear. */
export function recordFields(c: ChannelRecord): Record<string, string> {
  return { [providerFace(c.type).target]: c.target }
}

/** What the provider needs to send: the fields and the signing secret, opened. */
export function openChannel(c: ChannelRecord, open: (sealed: string) => string): OpenChannel {
  return {
    fields: recordFields(c),
    ...(c.secret_sealed ? { signingSecret: open(c.secret_sealed) } : {}),
  }
}

/** The request that makes this channel again (sent back unchanged, it keeps its id and secret). */
export function requestOf(c: ChannelRecord): ChannelRequest {
  return {
    type: c.type,
    ...recordFields(c),
    ...(c.name ? { name: c.name } : {}),
    ...(c.source ? { source: c.source } : {}),
  } as ChannelRequest
}

/** A target of `type` as answers show it (status-page webhook subscribers are masked as webhooks). */
export function maskTarget(type: ChannelType, target: string): string {
  return providerOf(type).mask({ [providerFace(type).target]: target })
}

/** The answer's channel: the target masked by its provider, its fingerprint, a new secret once. */
export function channelView(c: ChannelRecord, secret?: string): Channel {
  const fields = recordFields(c)
  const target = fields[providerFace(c.type).target]
  return {
    id: c.id,
    type: c.type,
    target: providerOf(c.type).mask(fields),
    name: c.name ?? null,
    source: c.source ?? null,
    fingerprint: channelFingerprint(c.type, target),
    ...(secret !== undefined ? { secret } : {}),
  }
}

export interface ChannelMaking {
  allowPrivateTargets: boolean
  secrets: SecretBox
  newId: () => string
}

/** A field of request `i` its provider refuses, as the message the routes answer with. */
export class ChannelRequestError extends Error {}

/**
 * New channel records for `reqs` (the signing secrets of new signed channels go to `secrets`, by
 * channel id); a request equal to a kept channel (same type and fields) keeps its id and secret.
 */
export function makeChannels(
  reqs: ChannelRequest[],
  keep: ChannelRecord[],
  secrets: Map<string, string>,
  o: ChannelMaking,
): ChannelRecord[] {
  return reqs.map((r, i) => {
    const fields = requestFields(r)
    try {
      providerOf(r.type).check(fields, { allowPrivateTargets: o.allowPrivateTargets })
    } catch (err) {
      if (err instanceof ChannelFieldError)
        throw new ChannelRequestError(`${err.what} (channels.${i}.${err.field}): ${err.problem}`)
      throw err
    }
    const same = keep.find((c) => c.type === r.type && sameFields(recordFields(c), fields))
    // the same channel keeps its id and secret; a file may rename it or change how it is written
    if (same) return { ...same, name: r.name ?? same.name ?? null, source: r.source ?? same.source ?? null }
    const id = o.newId()
    let sealed: string | null = null
    if (signed(r.type)) {
      const secret = newWebhookSecret()
      secrets.set(id, secret)
      sealed = o.secrets.seal(secret)
    }
    const target = fields[providerFace(r.type).target]
    return { id, type: r.type, target, secret_sealed: sealed, name: r.name ?? null, source: r.source ?? null }
  })
}

const signed = (type: ChannelType) => providerFace(type).signed === true

const sameFields = (a: Record<string, string>, b: Record<string, string>) =>
  Object.keys(b).every((k) => a[k] === b[k])
