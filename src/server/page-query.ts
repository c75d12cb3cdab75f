/** The `limit` and `cursor` query parameters of every paged route, checked one way. */
import type { H3Event } from 'h3'
import { PAGE_SIZES } from '../contract/schemas.js'
import { badRequest } from '../http/errors.js'

/** How a route's cursor looks: a check's created_at, or a monitor, run or event id. */
export interface CursorKind {
  valid: (cursor: string) => boolean
  /** the stored form the query compares with */
  normalize: (cursor: string) => string
  /** said after "`cursor` must be the `next_cursor` value of a previous page" */
  hint?: string
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/

export const TIME_CURSOR: CursorKind = {
  valid: (c) => ISO.test(c) && !Number.isNaN(Date.parse(c)),
  normalize: (c) => new Date(c).toISOString(),
  hint: ' (an ISO 8601 date-time)',
}

export function pageQuery(event: H3Event, kind: CursorKind): { limit: number; before?: string } {
  const q = event.url.searchParams
  const limits = q.getAll('limit')
  const cursors = q.getAll('cursor')
  if (limits.length > 1 || cursors.length > 1)
    throw badRequest('Give `limit` and `cursor` at most once each.')
  const limit = limits.length ? Number(limits[0]) : 10
  if (!(PAGE_SIZES as readonly number[]).includes(limit) || !/^\d+$/.test(limits[0] ?? '10'))
    throw badRequest('`limit` must be 10, 25 or 50.')
  const cursor = cursors[0]
  if (cursor === undefined) return { limit }
  if (!kind.valid(cursor))
    throw badRequest(`\`cursor\` must be the \`next_cursor\` value of a previous page${kind.hint ?? ''}.`)
  return { limit, before: kind.normalize(cursor) }
}
