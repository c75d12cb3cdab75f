/**
 * Ids of monitors, runs and events: UUIDv7 with a strictly increasing time part in this process,
 * so ids sort in creation order and serve as paging cursors.
 */
import { uuidv7 } from '../shared/index.js'

export { isUuid } from '../shared/index.js'

let last = 0

export function nextId(now = Date.now()): string {
  last = Math.max(now, last + 1)
  return uuidv7(last)
}
