/**
 * A count of this process's writes to monitors, status pages and their incidents, for caches that must see them at
 * once (the public status pages: docs/decisions.md#the-public-face). The store's write methods
 * are wrapped on the instance, once per store, so every caller's writes count, including those made
 * straight through the store. Each write counts when it starts and again when it settles, so a
 * view read while a write was under way is not taken for current afterwards.
 * Only this process's writes: with PostgreSQL, other instances' writes are not seen here, and a
 * cache that trusts this count must bound its staleness by time.
 */
import type { Store } from './types.js'

const MONITOR_WRITES = [
  'createMonitor',
  'updateMonitor',
  'deleteMonitor',
  'finishRun',
  'recordEvents',
] as const
const PAGE_WRITES = ['createStatusPage', 'updateStatusPage', 'deleteStatusPage'] as const
const INCIDENT_WRITES = [
  'createIncident',
  'updateIncident',
  'appendIncidentUpdate',
  'deleteIncident',
  'deletePageIncidents',
] as const

const counters = new WeakMap<Store, () => number>()

function wrap(target: object | undefined, names: readonly string[], bump: () => void): void {
  if (!target) return
  const t = target as Record<string, unknown>
  for (const name of names) {
    const fn = t[name]
    if (typeof fn !== 'function') continue
    const bound = (fn as (...a: unknown[]) => unknown).bind(target)
    t[name] = (...args: unknown[]) => {
      bump()
      const out = bound(...args)
      if (out instanceof Promise) void out.then(bump, bump)
      else bump()
      return out
    }
  }
}

/** The number of writes to the store's monitors and status pages so far (counting from now). */
export function writeCount(store: Store): () => number {
  let fn = counters.get(store)
  if (!fn) {
    let n = 0
    const bump = () => void n++
    wrap(store.monitors, MONITOR_WRITES, bump)
    wrap(store.statusPages, PAGE_WRITES, bump)
    wrap(store.statusIncidents, INCIDENT_WRITES, bump)
    fn = () => n
    counters.set(store, fn)
  }
  return fn
}
