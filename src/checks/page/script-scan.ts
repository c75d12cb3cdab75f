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

interface Loop {
  /** Where the loop starts and where its body ends (exclusive), in the scanned text. */
  start: number
  end: number
  bound: number
}

/**
 * Turns of the long counted loops a script's text holds: each loop's literal bound times the
 * bounds of the counted loops it sits in (two nested loops of 6,000 turn the inner body 36 M
 * times), summed. Loops whose turns stay short are ordinary code. 0 when it holds none. Strings
 * and comments are not told apart from code, so braces inside them can misplace a loop's end: a
 * heuristic, capped.
 */
export function busyLoopIterations(code: string, opts: ScanOptions = {}): number {
  const text = code.length > SCAN_BYTES ? code.slice(0, SCAN_BYTES) : code
  let loops: Loop[] = []
  for (const m of text.matchAll(COUNTED_LOOP)) {
    const bound = Number((m[1] ?? m[2]).replaceAll('_', ''))
    if (Number.isFinite(bound) && bound >= 2) loops.push({ start: m.index, end: -1, bound })
  }
  if (loops.length === 0) return 0
  let closing: Int32Array | null = null
  if (opts.afterDomContentLoaded) {
    // the event has fired before the script runs: its listeners never do
    closing = matchingBraces(text)
    const never = listenerBodies(text, closing)
    loops = loops.filter((l) => !never.some(([from, to]) => l.start > from && l.start < to))
    if (loops.length === 0) return 0
  }
  // nesting only matters when two bounds can multiply past the threshold
  const sorted = loops.map((l) => l.bound).sort((a, b) => b - a)
  const nestable = loops.length >= 2 && sorted[0] * sorted[1] >= MIN_BUSY_ITERATIONS
  if (nestable) {
    closing ??= matchingBraces(text)
    const byStart = new Map(loops.map((l) => [l.start, l]))
    for (let k = loops.length - 1; k >= 0; k--) loops[k].end = loopEnd(text, loops[k], closing, byStart)
  }
  let total = 0
  const open: Loop[] = []
  for (const loop of loops) {
    while (open.length > 0 && open[open.length - 1].end <= loop.start) open.pop()
    let turns = loop.bound
    for (const outer of open) turns *= outer.bound
    if (turns >= MIN_BUSY_ITERATIONS) total += turns
    if (nestable && loop.end > loop.start) open.push(loop)
    if (total >= MAX_ITERATIONS) break
  }
  return Math.min(total, MAX_ITERATIONS)
}

export interface ScanOptions {
  /**
   * The script runs after DOMContentLoaded has fired (an async script, in practice: the document
   * is parsed long before it is in), so the loops inside its DOMContentLoaded listeners never run.
   */
  afterDomContentLoaded?: boolean
}

/** `addEventListener('DOMContentLoaded', function () {` or an arrow function: its body's `{`. */
const DCL_LISTENER =
  /addEventListener\(\s*['"`]DOMContentLoaded['"`]\s*,\s*(?:(?:async\s+)?function\b[^{]*|(?:async\s*)?(?:\([^()]*\)|[\w$]+)\s*=>\s*)\{/g

/** Where each DOMContentLoaded listener written in place starts and ends in the text. */
function listenerBodies(text: string, closing: Int32Array): [number, number][] {
  const bodies: [number, number][] = []
  for (const m of text.matchAll(DCL_LISTENER)) {
    const brace = m.index + m[0].length - 1
    bodies.push([brace, closing[brace] < 0 ? text.length : closing[brace]])
  }
  return bodies
}

/** For each `{`, the index just past its matching `}` (-1: none); one pass. */
function matchingBraces(text: string): Int32Array {
  const closing = new Int32Array(text.length).fill(-1)
  const stack: number[] = []
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === 123) stack.push(i)
    else if (c === 125 && stack.length > 0) closing[stack.pop()!] = i + 1
  }
  return closing
}

/**
 * Where a loop's body ends: the block after its header, or its one statement (up to the next `;`,
 * or the end of a loop it holds directly, found first: loops are resolved from the last one).
 */
function loopEnd(text: string, loop: Loop, closing: Int32Array, byStart: Map<number, Loop>): number {
  // the header's closing parenthesis
  let i = text.indexOf('(', loop.start)
  let depth = 0
  for (; i >= 0 && i < text.length; i++) {
    const c = text[i]
    if (c === '(') depth++
    else if (c === ')' && --depth === 0) break
  }
  if (i < 0 || i >= text.length) return -1
  i++
  while (i < text.length && /\s/.test(text[i])) i++
  if (text[i] === '{') return closing[i]
  const inner = byStart.get(i)
  if (inner && inner.end > 0) return inner.end
  const semi = text.indexOf(';', i)
  return semi < 0 ? text.length : semi + 1
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
