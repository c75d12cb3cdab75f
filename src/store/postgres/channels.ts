/**
 * Alert channels on PostgreSQL: they live in their monitor's record (`monitors.record`), sealed
 * as src/store/channels.ts says. Migration 0015 sealed the ones stored in clear before; a record
 * written back in the old shape after it (by an instance still running the older version during
 * a rolling upgrade) has its channels sealed as it is read, and is stored sealed at its next write.
 */
import { sealedChannels, type ChannelSealer } from '../channels.js'
import type { MonitorRecord } from '../monitors.js'

/** `m` with every channel sealed (the same record when all already are). */
export function withSealedChannels(m: MonitorRecord, seal: ChannelSealer | undefined): MonitorRecord {
  const channels = sealedChannels(m.channels, seal, 'The database')
  return channels ? { ...m, channels } : m
}
