/**
 * What a static read of a script's text can say about the work it does when it runs, without
 * running it. A heuristic, and honest about it: it sees counted loops written with a numeric
 * bound (`for (…; i < 5e7; …)`, `while (n < 20000000)`) and the height of a block a script puts
 * at the top of the page. Loops bounded by a variable, recursion, work in callbacks or in code
 * fetched later, minified bundles that compute their bounds: all invisible to it. Bounded: it
 * reads at most SCAN_BYTES of a script.
 */

/** The part of a script read (the start of a large bundle is what a browser compiles first too). */
export const SCAN_BYTES = 1024 * 1024

/** Loops shorter than this are ordinary code, already in the per-byte cost of running a script. */
const MIN_BUSY_ITERATIONS = 100_000

/** A counted loop's bound: `for (… ; x < N ; …)` or `while (x < N)`, N a numeric literal. */
const COUNTED_LOOP =
  /\b(?:for\s*\([^;()]*;\s*[\w$.]+\s*<=?\s*([\d_]+(?:\.\d+)?(?:e\d+)?)\s*;|while\s*\(\s*[\w$.]+\s*<=?\s*([\d_]+(?:\.\d+)?(?:e\d+)?)\s*\))/gi

/** Never more than this in all: past it the metric's score is zero anyway. */
const MAX_ITERATIONS = 5e9

/**
 * Turns of the long counted loops a script's text holds (each loop's literal bound, summed; a
 * loop nested in another is counted once, by its own bound). 0 when it holds none.
 */
export function busyLoopIterations(code: string): number {
  const text = code.length > SCAN_BYTES ? code.slice(0, SCAN_BYTES) : code
  let total = 0
  for (const m of text.matchAll(COUNTED_LOOP)) {
    const n = Number((m[1] ?? m[2]).replaceAll('_', ''))
    if (Number.isFinite(n) && n >= MIN_BUSY_ITERATIONS) total += n
  }
  return Math.min(total, MAX_ITERATIONS)
}

/** A CSS height in px set in script: `.style.height = '300px'`, `height: 300px` in inserted markup. */
const HEIGHT_PX = /\bheight\s*(?:=|:)\s*['"]?\s*(\d{1,5}(?:\.\d+)?)px/gi

/**
 * The tallest block height (CSS px) a script sets, or null when it names none: what an inserted
 * block is likely to push the page down by.
 */
export function insertedHeightPx(code: string): number | null {
  let tallest: number | null = null
  for (const m of code.slice(0, 64 * 1024).matchAll(HEIGHT_PX)) {
    const px = Number(m[1])
    if (Number.isFinite(px) && (tallest === null || px > tallest)) tallest = px
  }
  return tallest
}
