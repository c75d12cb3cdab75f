/**
 * The channel flags of `monitors create` (`--webhook URL`, `--slack URL`, `--email ADDRESS`, …),
 * one per alert provider of the registry (src/contract/channels.ts), each repeatable.
 */
import { Flags } from '@oclif/core'
import type { OptionFlag } from '@oclif/core/interfaces'
import { CHANNEL_TYPES, channelRequestOf, providerFace, type ChannelRequest } from '../contract/channels.js'

export const channelFlags: Record<string, OptionFlag<string[] | undefined>> = Object.fromEntries(
  CHANNEL_TYPES.map((t) => {
    const { name, description } = providerFace(t).flag
    return [name, Flags.string({ description, multiple: true })]
  }),
)

/** The channels the flags name, in the registry's order. */
export function channelsFromFlags(flags: Record<string, unknown>): ChannelRequest[] {
  return CHANNEL_TYPES.flatMap((t) =>
    ((flags[providerFace(t).flag.name] as string[] | undefined) ?? []).map(
      (value) => channelRequestOf(t, value) as ChannelRequest,
    ),
  )
}
