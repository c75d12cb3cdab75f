/**
 * How far V8 lets its heap grow between full collections, for `serve` on the embedded store.
 *
 * The embedded store holds its monitors' history in memory (src/store/embedded/monitors.ts): at
 * 10,000 monitors about 140 MB of V8 heap and 300 MB of typed arrays live, and the running
 * monitors promote about 13 MB/s of short-lived objects into the old generation. With the memory
 * of an ordinary server (a heap limit of 2 GB or more), V8 lets the old generation grow to up to
 * 4x its live size before it collects it, so `serve` sat at ~980 MB of RSS, ~350 MB of it garbage
 * waiting, and passed 1 GB while it folded its journal (bench/results/2026-11-26.md). Growing by
 * half its live size instead keeps the same work within a few hundred MB less, for a full
 * collection (mostly concurrent marking) every few seconds instead of every 20.
 *
 * The flag takes effect at the next collection; one given on node's own command line or in
 * NODE_OPTIONS is left as it is.
 */
import v8 from 'node:v8'

export const EMBEDDED_HEAP_GROWING_PERCENT = 50

/** Sets V8's heap growing factor to 1 + percent/100 unless the process was started with one; true when set. */
export function capHeapGrowth(
  percent = EMBEDDED_HEAP_GROWING_PERCENT,
  given: string[] = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)],
): boolean {
  if (given.some((a) => /^--heap[-_]growing[-_]percent\b/.test(a))) return false
  v8.setFlagsFromString(`--heap-growing-percent=${percent}`)
  return true
}
