/**
 * Ids of monitors, runs and events: UUIDv7 with a strictly increasing time part in this process,
 * so ids sort in creation order and serve as paging cursors.
 */
import { uuidv7 } from '../shared/uuid7.js'

let last = 0

export function nextId(now = Date.now()): string {
  last = Math.max(now, last + 1)
  return uuidv7(last)
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
export const isUuid = (s: string) => UUID.test(s)
