/**
 * The dashboard's door to status pages (its DashboardStatusPages port) over the status-page
 * service: the contract's schema first, then the service's rules (reserved and taken slugs, the
 * user's own monitors), the API's view, and another user's page as unknown as a missing one.
 */
import { StatusPageCreate, type StatusPage } from '../contract/status-pages.js'
import { StatusPageRejected, type DashboardStatusPages } from '../dashboard/status-pages-port.js'
import { isUuid } from '../monitors/ids.js'
import { DomainError } from '../shared/domain-error.js'
import { statusPageView, type StatusPageService } from '../status-pages/index.js'

export function dashboardStatusPages(
  service: StatusPageService,
  baseUrl: () => string,
): DashboardStatusPages {
  const view = (p: Parameters<typeof statusPageView>[0]): StatusPage => statusPageView(p, baseUrl())
  const parse = (input: unknown) => {
    const parsed = StatusPageCreate.safeParse(input)
    if (parsed.success) return parsed.data
    const issue = parsed.error.issues[0]
    throw new StatusPageRejected(`${issue.path.join('.') || 'status page'}: ${issue.message}`)
  }
  /** Runs a service call; a user's mistake becomes StatusPageRejected, an unknown page undefined. */
  async function call<T>(fn: () => Promise<T>): Promise<T | undefined> {
    try {
      return await fn()
    } catch (err) {
      if (!(err instanceof DomainError)) throw err
      if (err.kind === 'not_found') return undefined
      throw new StatusPageRejected(err.message)
    }
  }
  return {
    async list(userId) {
      return (await service.list(userId)).map(view)
    },
    async get(userId, id) {
      if (!isUuid(id)) return undefined
      const p = await call(() => service.get(userId, id))
      return p && view(p)
    },
    async create(userId, input) {
      const body = parse({ ...input, description: input.description.trim() || null })
      return view((await call(() => service.create(userId, body)))!)
    },
    async update(userId, id, input) {
      if (!isUuid(id)) return undefined
      const body = parse({ ...input, description: input.description.trim() || null })
      const p = await call(() => service.update(userId, id, body))
      return p && view(p)
    },
    async remove(userId, id) {
      if (!isUuid(id)) return false
      return (await call(() => service.remove(userId, id).then(() => true))) ?? false
    },
  }
}
