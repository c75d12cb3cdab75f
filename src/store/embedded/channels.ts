/**
 * Alert channels in the embedded store: they live in their monitors' records (monitors.ts), so
 * what is theirs alone is their upgrade. A data dir written before channels were sealed holds
 * each channel's target in clear (src/store/channels.ts, `LegacyChannelRecord`) in the snapshot
 * and in journal lines; on load every such channel is sealed in memory and the journal is folded
 * into a new snapshot at once, so no file of the data dir keeps a target in clear. Loading a
 * sealed data dir again changes nothing.
 */
import { sealedChannels, type ChannelSealer } from '../channels.js'
import type { MonitorRecord } from '../monitors.js'

/** Seals, in `monitors`, every channel stored in clear; answers how many monitors changed. */
export function sealStoredChannels(
  monitors: Map<string, MonitorRecord>,
  seal: ChannelSealer | undefined,
  where: string,
): number {
  let changed = 0
  for (const [id, m] of monitors) {
    const channels = sealedChannels(m.channels, seal, where)
    if (!channels) continue
    monitors.set(id, { ...m, channels })
    changed++
  }
  return changed
}
