/**
 * Alert channels as stored (inside their monitor's record, on both backends): the provider's
 * fields split by its face (`src/contract/channels.ts`) into `config`, the ones that are not
 * secret, in clear, and `secrets`, the ones that are plus the webhook signing secret, as one value
 * sealed with the server's secret key (`src/shared/secret-box.ts`). A provider with several
 * fields, secret or not, needs no other record. What answers show (the masked target and its
 * fingerprint) is kept beside them when the channel is made, so an answer never opens `secrets`;
 * the deliverer opens them when it sends.
 *
 * Channels stored before sealing (`LegacyChannelRecord`: one `target`, in clear) are sealed when
 * the store opens, by a `ChannelSealer` the server gives it (it alone holds the key and the
 * providers' masks): on PostgreSQL by migration 0015 and, for a row an older instance wrote back
 * meanwhile, when the row is read; on the embedded store when its data dir is loaded.
 */
import type { ChannelType } from '../contract/channels.js'

export interface ChannelRecord {
  id: string
  type: ChannelType
  /** The provider's fields that are not secrets (email's `to`), in clear. */
  config: Record<string, string>
  /**
   * The secret fields (`{fields: {url}}`) and the signing secret (`signing_secret`), as one JSON
   * object sealed with the server's key; null when the channel has neither.
   */
  secrets: string | null
  /** The target as answers show it (the provider's mask), made with the record. */
  masked: string
  /** `sha256:` of the type and the target (the Channel shape's fingerprint), made with the record. */
  fingerprint: string
  /** Its name in a monitors-as-code file (absent in records older than the field). */
  name?: string | null
  /** The target as written in that file, `${VAR}` placeholders unresolved. */
  source?: string | null
}

/** A channel as stored before its credentials were sealed: its one target field in clear. */
export interface LegacyChannelRecord {
  id: string
  type: ChannelType
  /** The URL (webhook, slack, discord, teams) or address (email), in clear. */
  target: string
  /** Webhook signing secret, sealed with the server's secret key. */
  secret_sealed: string | null
  name?: string | null
  source?: string | null
}

/** Turns a channel stored in clear into its sealed record (the same id, name and source). */
export type ChannelSealer = (c: LegacyChannelRecord) => ChannelRecord

/** A stored channel in the shape before sealing. */
export function isLegacyChannel(c: ChannelRecord | LegacyChannelRecord): c is LegacyChannelRecord {
  return !('config' in c) && typeof (c as LegacyChannelRecord).target === 'string'
}

/** Thrown when channels stored in clear are met and no sealer was given. */
export class UnsealedChannelsError extends Error {
  override name = 'UnsealedChannelsError'
  constructor(where: string) {
    super(
      `${where} has alert channels stored before their credentials were sealed; open it with the server's secret key (start serve, or set SITEHEALTH_SECRET_KEY / SITEHEALTH_ADMIN_TOKEN as serve would) to seal them.`,
    )
  }
}

/**
 * `channels` with every one in the old shape sealed, or undefined when none is (the same array
 * can then be kept). Without a sealer, channels in the old shape throw UnsealedChannelsError.
 */
export function sealedChannels(
  channels: ReadonlyArray<ChannelRecord | LegacyChannelRecord>,
  seal: ChannelSealer | undefined,
  where: string,
): ChannelRecord[] | undefined {
  if (!channels.some(isLegacyChannel)) return undefined
  if (!seal) throw new UnsealedChannelsError(where)
  return channels.map((c) => (isLegacyChannel(c) ? seal(c) : c))
}
