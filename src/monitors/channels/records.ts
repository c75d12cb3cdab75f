/**
 * Channels between their requests, their stored records and their answers, through the provider
 * registry (providers/): a request's fields checked by its provider and sealed into a record
 * (src/store/channels.ts), a record opened for sending, a record shown masked. Nothing here names
 * a channel type.
 */
import { channelFingerprint } from '../../contract/fingerprint.js'
import { providerFace, type Channel, type ChannelRequest, type ChannelType } from '../../contract/channels.js'
import { newWebhookSecret, type SecretBox } from '../../shared/index.js'
import type { ChannelRecord, ChannelSealer } from '../../store/channels.js'
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

/** What a channel's sealed `secrets` hold. */
interface SealedParts {
  /** The provider's secret fields. */
  fields: Record<string, string>
  signing_secret?: string
}

/** The parts of a channel to store, in clear: they are sealed here. */
export interface ChannelParts {
  id: string
  type: ChannelType
  /** Every field of the provider, in clear. */
  fields: Record<string, string>
  signingSecret?: string
  name?: string | null
  source?: string | null
}

/**
 * The stored record of a channel: the fields its face marks secret and the signing secret sealed
 * together, the others in clear, and what answers show (masked target, fingerprint) made now.
 */
export function sealChannel(p: ChannelParts, box: SecretBox): ChannelRecord {
  const face = providerFace(p.type)
  const config: Record<string, string> = {}
  const secret: Record<string, string> = {}
  for (const [k, f] of Object.entries(face.fields)) (f.secret ? secret : config)[k] = p.fields[k]
  const parts: SealedParts = {
    fields: secret,
    ...(p.signingSecret !== undefined ? { signing_secret: p.signingSecret } : {}),
  }
  const sealed = Object.keys(secret).length > 0 || p.signingSecret !== undefined
  return {
    id: p.id,
    type: p.type,
    config,
    secrets: sealed ? box.seal(JSON.stringify(parts)) : null,
    masked: providerOf(p.type).mask(p.fields),
    fingerprint: channelFingerprint(p.type, p.fields[face.target]),
    name: p.name ?? null,
    source: p.source ?? null,
  }
}

/** What the provider needs to send: every field and the signing secret, opened. */
export function openChannel(c: ChannelRecord, open: (sealed: string) => string): OpenChannel {
  const parts: SealedParts = c.secrets ? (JSON.parse(open(c.secrets)) as SealedParts) : { fields: {} }
  return {
    fields: { ...c.config, ...parts.fields },
    ...(parts.signing_secret !== undefined ? { signingSecret: parts.signing_secret } : {}),
  }
}

/**
 * The request that makes this channel again (sent back unchanged, it keeps its id and secret):
 * opened, for the server's own use (a form re-sends the channels it keeps), never for an answer.
 */
export function requestOf(c: ChannelRecord, box: SecretBox): ChannelRequest {
  return {
    type: c.type,
    ...openChannel(c, (s) => box.open(s)).fields,
    ...(c.name ? { name: c.name } : {}),
    ...(c.source ? { source: c.source } : {}),
  } as ChannelRequest
}

/** A target of `type` as answers show it (status-page webhook subscribers are masked as webhooks). */
export function maskTarget(type: ChannelType, target: string): string {
  return providerOf(type).mask({ [providerFace(type).target]: target })
}

/** The answer's channel: its masked target and fingerprint as stored, a new secret once. */
export function channelView(c: ChannelRecord, secret?: string): Channel {
  return {
    id: c.id,
    type: c.type,
    target: c.masked,
    name: c.name ?? null,
    source: c.source ?? null,
    fingerprint: c.fingerprint,
    ...(secret !== undefined ? { secret } : {}),
  }
}

/**
 * Seals a channel stored before sealing (the store calls it when it opens: `ChannelSealer`): its
 * target and signing secret go into `secrets`, its id, name and source stay.
 */
export function channelSealer(box: SecretBox): ChannelSealer {
  return (c) =>
    sealChannel(
      {
        id: c.id,
        type: c.type,
        fields: { [providerFace(c.type).target]: c.target },
        ...(c.secret_sealed ? { signingSecret: box.open(c.secret_sealed) } : {}),
        name: c.name,
        source: c.source,
      },
      box,
    )
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
  // a kept channel whose secrets no longer open (another key) is simply not the same as any
  const kept = keep.map((c) => ({ c, fields: tryOpen(c, o.secrets) }))
  return reqs.map((r, i) => {
    const fields = requestFields(r)
    try {
      providerOf(r.type).check(fields, { allowPrivateTargets: o.allowPrivateTargets })
    } catch (err) {
      if (err instanceof ChannelFieldError)
        throw new ChannelRequestError(`${err.what} (channels.${i}.${err.field}): ${err.problem}`)
      throw err
    }
    const same = kept.find((k) => k.c.type === r.type && k.fields && sameFields(k.fields, fields))?.c
    // the same channel keeps its id and secret; a file may rename it or change how it is written
    if (same) return { ...same, name: r.name ?? same.name ?? null, source: r.source ?? same.source ?? null }
    const id = o.newId()
    let signingSecret: string | undefined
    if (signed(r.type)) {
      signingSecret = newWebhookSecret()
      secrets.set(id, signingSecret)
    }
    const parts = { id, type: r.type, fields, name: r.name ?? null, source: r.source ?? null }
    return sealChannel(signingSecret === undefined ? parts : { ...parts, signingSecret }, o.secrets)
  })
}

function tryOpen(c: ChannelRecord, box: SecretBox): Record<string, string> | undefined {
  try {
    return openChannel(c, (s) => box.open(s)).fields
  } catch {
    return undefined
  }
}

const signed = (type: ChannelType) => providerFace(type).signed === true

const sameFields = (a: Record<string, string>, b: Record<string, string>) =>
  Object.keys(b).every((k) => a[k] === b[k])
