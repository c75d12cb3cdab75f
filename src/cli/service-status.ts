/** `status`'s work: health and metadata (no key needed). */
import type { SitehealthClient } from '../client/client.js'
import type { ServiceStatus } from './render/service.js'

export async function fetchStatus(
  client: Pick<SitehealthClient, 'health' | 'meta' | 'baseUrl'>,
): Promise<ServiceStatus> {
  const [health, meta] = await Promise.all([client.health(), client.meta()])
  return { apiUrl: client.baseUrl, health, meta }
}
