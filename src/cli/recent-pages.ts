/** `recent`'s work: one page, or with `all` every page from `cursor` on, merged into one. */
import type { SitehealthClient } from '../client/client.js'
import type { RecentChecks } from '../contract/index.js'

export async function fetchRecent(
  client: Pick<SitehealthClient, 'recent'>,
  o: { limit?: number; cursor?: string; all?: boolean },
  onPage?: (pages: number, items: number) => void,
): Promise<RecentChecks> {
  let page = await client.recent({ limit: o.limit, cursor: o.cursor })
  if (!o.all) return page
  const checks = [...page.checks]
  const seen = new Set<string>()
  let pages = 1
  onPage?.(pages, checks.length)
  // a cursor seen twice would loop forever on a misbehaving server
  while (page.next_cursor && !seen.has(page.next_cursor)) {
    seen.add(page.next_cursor)
    page = await client.recent({ limit: o.limit, cursor: page.next_cursor })
    checks.push(...page.checks)
    onPage?.(++pages, checks.length)
  }
  return { checks, next_cursor: null }
}
