/**
 * When the probe asks for subresources: only for a 2xx HTML answer whose document was read. A fault
 * here never fails the check: the estimate then sees the document alone and says so.
 */
import type { ProbeResult } from '../types.js'
import { gatherCritical, type GatherOptions } from './gather.js'
import type { CriticalResources } from './types.js'

export async function gatherForPage(
  result: Pick<ProbeResult, 'page' | 'response'>,
  opts: GatherOptions,
): Promise<CriticalResources | null> {
  const { page, response } = result
  if (!page || response.status < 200 || response.status >= 300 || opts.signal.aborted) return null
  try {
    return await gatherCritical(page, opts)
  } catch {
    return null
  }
}
