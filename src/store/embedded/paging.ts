/** Newest-first paging over the embedded store's ascending, id-ordered lists. */
import { tagsMatch } from '../../contract/tags.js'
import type { MonitorListQuery, MonitorRecord, Page, PageOptions } from '../monitors.js'

/** Index of the first element >= x in an ascending string array. */
export function lowerBound(a: string[], x: string): number {
  return lowerBoundOf(a.length, (i) => a[i], x)
}

/** Index of the first of `n` ascending ids (the `i`-th by `idAt`) that is >= x. */
function lowerBoundOf(n: number, idAt: (i: number) => string, x: string): number {
  let lo = 0
  let hi = n
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (idAt(mid) < x) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** A list read by index: an array, or a packed ring (run-ring.ts). */
export interface Indexed<T> {
  length: number
  idAt(i: number): string
  at(i: number): T
}

export const indexed = <T extends { id: string }>(items: T[]): Indexed<T> => ({
  length: items.length,
  idAt: (i) => items[i].id,
  at: (i) => items[i],
})

/** Newest first from an ascending list of items with ids, strictly before `before`. */
export function pageOf<T>(items: Indexed<T>, opts: PageOptions): Page<T> {
  const end =
    opts.before === undefined ? items.length : lowerBoundOf(items.length, (i) => items.idAt(i), opts.before)
  const start = Math.max(0, end - opts.limit)
  const out: T[] = []
  for (let i = end - 1; i >= start; i--) out.push(items.at(i))
  return { items: out, next: start > 0 && out.length > 0 ? items.idAt(start) : null }
}

/** As pageOf, of the items `keep` keeps: a scan from the cursor until one more than a page is kept. */
function pageWhere<T extends { id: string }>(
  items: Indexed<T>,
  opts: PageOptions,
  keep: (item: T) => boolean,
): Page<T> {
  const end =
    opts.before === undefined ? items.length : lowerBoundOf(items.length, (i) => items.idAt(i), opts.before)
  const out: T[] = []
  for (let i = end - 1; i >= 0 && out.length <= opts.limit; i--) {
    const item = items.at(i)
    if (keep(item)) out.push(item)
  }
  const page = out.slice(0, opts.limit)
  return { items: page, next: out.length > opts.limit ? page[page.length - 1].id : null }
}

/** A page of a user's monitors from their ascending ids: with `tags`, only the monitors matching each. */
export function monitorPage(
  ids: string[],
  get: (id: string) => MonitorRecord,
  opts: MonitorListQuery,
): Page<MonitorRecord> {
  const list = { length: ids.length, idAt: (i: number) => ids[i], at: (i: number) => get(ids[i]) }
  const wanted = opts.tags ?? []
  return wanted.length ? pageWhere(list, opts, (m) => tagsMatch(m.tags, wanted)) : pageOf(list, opts)
}

export function* flatten<T>(lists: Iterable<Iterable<T>>): Generator<T> {
  for (const list of lists) yield* list
}
