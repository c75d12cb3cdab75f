/**
 * A channel's target as a digest (the `fingerprint` of the Channel shape): the server shows it
 * beside the masked target, and a client that knows a target (a monitors-as-code file) computes
 * the same to tell whether a stored channel goes there, without the API revealing the target.
 */
import { createHash } from 'node:crypto'
import type { ChannelType } from './channels.js'

export function channelFingerprint(type: ChannelType, target: string): string {
  return `sha256:${createHash('sha256').update(`${type}\n${target}`, 'utf8').digest('hex')}`
}
