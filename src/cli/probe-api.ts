/**
 * Is this URL a sitehealth API? Asked without credentials before the CLI sends a saved key to a
 * URL the user just typed (`config set`): a key is a bearer secret, and a server that is not a
 * sitehealth API (a typo's domain, a proxy's login page) must never receive it.
 */
import { ApiError, SitehealthClient } from '../client/client.js'
import { Health } from '../contract/index.js'

export async function probeSitehealthApi(apiUrl: string, timeoutMs?: number): Promise<void> {
  const anonymous = new SitehealthClient({ baseUrl: apiUrl, timeoutMs })
  const notOurs = (answered: string, requestId?: string) =>
    new ApiError(
      0,
      'invalid_response',
      `${apiUrl} does not answer as a sitehealth API (GET /api/public/v1/health ${answered}), so no key was sent to it. Check the URL, or save it unchecked with --no-check.`,
      requestId,
    )
  let body: unknown
  try {
    body = await anonymous.health()
  } catch (err) {
    // unreachable or timed out: the client's own message says so
    if (!(err instanceof ApiError) || err.code === 'network_error' || err.code === 'timeout') throw err
    throw notOurs(`answered ${err.status ? `HTTP ${err.status}` : err.code}`, err.requestId)
  }
  if (!Health.safeParse(body).success) throw notOurs('answered JSON that is not the health shape')
}
