/**
 * What a static read of a script's text can say about the work it does when it runs, without
 * running it. A heuristic, and honest about it: it sees counted loops written with a numeric
 * bound (`for (…; i < 5e7; …)`, `while (n < 20000000)`), loops bounded by elapsed time with a
 * literal number of milliseconds (`while (performance.now() - t < 300) {}`), and the height of a
 * block a script puts at the top of the page. Loops bounded by a variable, recursion, code fetched
 * later, minified bundles that compute their bounds: all invisible to it. Bounded: it reads at
 * most SCAN_BYTES of a script.
 */

/**
 * The scan's work, in steps: characters its own loops read, matches it handles, lookups it makes.
 * Tests read it to hold the scan linear in the text on hostile input (a count, not a clock); a
 * regex's own scanning is not in it, so the patterns bound what one match may read instead.
 */
export const scanWork = { steps: 0 }

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
    scanWork.steps++
    const bound = Number((m[1] ?? m[2]).replaceAll('_', ''))
    if (Number.isFinite(bound) && bound >= 2) loops.push({ start: m.index, end: -1, bound })
  }
  if (loops.length === 0) return 0
  let closing: Int32Array | null = null
  if (opts.afterDomContentLoaded) {
    // the event has fired before the script runs: its listeners never do
    closing = matchingBraces(text)
    const never = listenerBodies(text, closing)
    const inNever = inside(never)
    loops = loops.filter((l) => !inNever(l.start))
    if (loops.length === 0) return 0
  }
  let counts = (_: Loop) => true
  if (opts.when) {
    closing ??= matchingBraces(text)
    const later = laterBodies(text, closing)
    const wanted = opts.when === 'later'
    const inLater = inside(later)
    counts = (l) => inLater(l.start) === wanted
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
  // the loops around the one at hand, innermost last, each with the turns of its body
  const open: { end: number; turns: number }[] = []
  for (const loop of loops) {
    scanWork.steps++
    while (open.length > 0 && open[open.length - 1].end <= loop.start) open.pop()
    const outer = open.at(-1)
    // a loop is placed by where it starts; the loops around it multiply it wherever they run
    const turns = Math.min(loop.bound * (outer?.turns ?? 1), MAX_ITERATIONS)
    if (turns >= MIN_BUSY_ITERATIONS && counts(loop)) total += turns
    // a body read past the end of the loop around it is cut there: the open loops stay nested
    if (nestable && loop.end > loop.start)
      open.push({ end: Math.min(loop.end, outer?.end ?? loop.end), turns })
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
  /**
   * Which loops to count (all of them when absent): `later` those written in place in a
   * setTimeout or setInterval callback or a load listener (`addEventListener('load', …)`,
   * `onload = …`), `now` the others. A later body runs in a task of its own once the script's has
   * ended (a timer's when the parser yields, a load listener's once the page and its subresources
   * are in), so a classic script's first paint does not wait for it. DOMContentLoaded listeners
   * count as now: Chrome fires the event in the task that ends parsing.
   */
  when?: 'now' | 'later'
}

/**
 * A function written in place, up to its body's `{`: `function (…) {`, `(…) => {`, `x => {`. Its
 * header is read up to 200 characters: unbounded, many `setTimeout(function ` with no `{` after
 * them made each match scan to the text's end (0.76 s for 195 KB, quadratic).
 */
const FUNCTION_START = String.raw`(?:(?:async\s+)?function\b[^{]{0,200}|(?:async\s*)?(?:\([^()]*\)|[\w$]+)\s*=>\s*)\{`

/** `addEventListener('DOMContentLoaded', function () {` or an arrow function: its body's `{`. */
const DCL_LISTENER = new RegExp(
  String.raw`addEventListener\(\s*['"\`]DOMContentLoaded['"\`]\s*,\s*${FUNCTION_START}`,
  'g',
)

/** A timer's callback or a load listener written in place: `setTimeout(function () {`, `onload = () => {`. */
const LATER_CALLBACK = new RegExp(
  String.raw`(?:\b(?:setTimeout|setInterval)\s*\(\s*|addEventListener\(\s*['"\`]load['"\`]\s*,\s*|\bonload\s*=\s*)${FUNCTION_START}`,
  'g',
)

/** Where each DOMContentLoaded listener written in place starts and ends in the text. */
function listenerBodies(text: string, closing: Int32Array): [number, number][] {
  return bodies(text, closing, DCL_LISTENER)
}

/** Where each timer callback and load listener written in place starts and ends in the text. */
function laterBodies(text: string, closing: Int32Array): [number, number][] {
  return bodies(text, closing, LATER_CALLBACK)
}

function bodies(text: string, closing: Int32Array, start: RegExp): [number, number][] {
  const found: [number, number][] = []
  for (const m of text.matchAll(start)) {
    scanWork.steps++
    const brace = m.index + m[0].length - 1
    found.push([brace, closing[brace] < 0 ? text.length : closing[brace]])
  }
  return found
}

/**
 * Whether a position lies inside one of the bodies, as a function: the bodies sorted by start, and
 * the furthest end among those starting before each, so one lookup is a binary search (checking
 * every body for every loop was quadratic on a text of thousands of callbacks with loops).
 */
function inside(bodies: [number, number][]): (at: number) => boolean {
  const sorted = [...bodies].sort((a, b) => a[0] - b[0])
  const furthest: number[] = []
  for (const [, to] of sorted) furthest.push(Math.max(to, furthest[furthest.length - 1] ?? -1))
  return (at) => {
    // the last body starting before `at`
    let lo = 0
    let hi = sorted.length - 1
    if (hi < 0 || sorted[0][0] >= at) return false
    while (lo < hi) {
      scanWork.steps++
      const mid = (lo + hi + 1) >> 1
      if (sorted[mid][0] < at) lo = mid
      else hi = mid - 1
    }
    return furthest[lo] > at
  }
}

/** For each `{`, the index just past its matching `}` (-1: none); one pass. */
function matchingBraces(text: string): Int32Array {
  const closing = new Int32Array(text.length).fill(-1)
  scanWork.steps += text.length
  const stack: number[] = []
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === 123) stack.push(i)
    else if (c === 125 && stack.length > 0) closing[stack.pop()!] = i + 1
  }
  return closing
}

/** Just past the parenthesis that closes the first one at or after `from`; -1 when none does. */
function headerEnd(text: string, from: number): number {
  let i = text.indexOf('(', from)
  let depth = 0
  for (; i >= 0 && i < text.length; i++) {
    scanWork.steps++
    const c = text[i]
    if (c === '(') depth++
    else if (c === ')' && --depth === 0) return i + 1
  }
  return -1
}

/**
 * Where a loop's body ends: the block after its header, or its one statement (up to the next `;`,
 * or the end of a loop it holds directly, found first: loops are resolved from the last one).
 */
function loopEnd(text: string, loop: Loop, closing: Int32Array, byStart: Map<number, Loop>): number {
  let i = headerEnd(text, loop.start)
  if (i < 0) return -1
  const body = i
  while (i < text.length && /\s/.test(text[i])) i++
  scanWork.steps += i - body
  if (text[i] === '{') return closing[i]
  const inner = byStart.get(i)
  if (inner && inner.end > 0) return inner.end
  return statementEnd(text, i)
}

/** How far a loop's one statement is read: a longer one is taken to end there. */
const STATEMENT_CHARS = 1000

/**
 * Just past a one-statement body starting at `from`: its `;`, or where the block around it closes
 * (`for (…) s++ }`), read up to STATEMENT_CHARS. Unbounded, reading to the next `;` ran past the
 * enclosing block (the loops after it were multiplied by it) and, with none, to the text's end
 * for every loop: quadratic.
 */
function statementEnd(text: string, from: number): number {
  const to = Math.min(text.length, from + STATEMENT_CHARS)
  let depth = 0
  for (let i = from; i < to; i++) {
    scanWork.steps++
    const c = text.charCodeAt(i)
    if (c === 123) depth++
    else if (c === 125 && depth-- === 0) return i
    else if (c === 59 && depth === 0) return i + 1
  }
  return to
}

/** A numeric literal: `300`, `1_000`, `2.5`, `1e3`. */
const NUM = String.raw`[\d_]+(?:\.\d+)?(?:e\d+)?`
/** Reading the clock: `performance.now()`, `Date.now()`, `new Date()`, `+new Date()`, `new Date().getTime()`. */
const CLOCK = String.raw`(?:(?:\b(?:window|self|globalThis)\.)?\bperformance\.now\(\s*\)|\bDate\.now\(\s*\)|\+?\s*\bnew\s+Date\(\s*\)(?:\.getTime\(\s*\))?|\(\s*new\s+Date\(\s*\)\s*\)\.getTime\(\s*\))`
/**
 * A loop condition bounded by elapsed time, each alternative its own groups: `CLOCK - start < N`
 * (1), `CLOCK < start + N` (2), `CLOCK < deadline` (3, a name: its literal offset is looked up).
 * Nothing else in the condition: `!done && …` can end the loop early.
 */
const TIME_COND = String.raw`\s*(?:\(\s*${CLOCK}\s*-\s*[\w$.]+\s*\)|${CLOCK}\s*-\s*[\w$.]+)\s*<=?\s*(${NUM})|\s*${CLOCK}\s*<=?\s*[\w$.]+\s*\+\s*(${NUM})|\s*${CLOCK}\s*<=?\s*([\w$]+)`
/**
 * `while (COND)` (a do … while's too) or `for (…; COND;`, COND bounded by elapsed time. A for
 * loop's first clause is read up to 200 characters: unbounded, a text of many `for (` and no `;`
 * (a hostile page's script) made each match scan to its end, quadratic (20 s for 600 KB).
 */
const TIMED_LOOP = new RegExp(
  String.raw`\bwhile\s*\((?:${TIME_COND})\s*\)|\bfor\s*\([^;{}]{0,200};(?:${TIME_COND})\s*;`,
  'g',
)

/** Never more than this in all (as MAX_ITERATIONS: past it the metric's score is zero anyway). */
const MAX_BUSY_MS = 50_000

/**
 * Milliseconds the loops bounded by elapsed time keep the main thread busy: `while
 * (performance.now() - t < 300) {}`, a deadline `const end = Date.now() + 250; while (Date.now() <
 * end) {}`, a do … while or a for loop on the same conditions, `new Date() - t0 < 150`. Such a
 * loop runs its literal number of milliseconds whatever the CPU, and it is busy all along: each turn
 * reads the clock again. Summed over the loops, capped. A loop that only reads the clock (a
 * deadline that is not a literal offset from it, a bound held in a variable, another condition
 * beside the clock), that awaits in its body (it yields the thread) or can break out early does
 * not count. Loops around it do not multiply it: turns of a counted loop are not time.
 */
export function busyLoopMs(code: string, opts: ScanOptions = {}): number {
  const text = code.length > SCAN_BYTES ? code.slice(0, SCAN_BYTES) : code
  const spins: { start: number; end: number; ms: number }[] = []
  let set: Map<string, { at: number; ms: number }[]> | undefined
  for (const m of text.matchAll(TIMED_LOOP)) {
    const literal = m[1] ?? m[2] ?? m[4] ?? m[5]
    const deadline = m[3] ?? m[6]
    const ms =
      literal !== undefined
        ? Number(literal.replaceAll('_', ''))
        : deadlineOffset((set ??= deadlines(text)), deadline, m.index)
    scanWork.steps++
    if (Number.isFinite(ms) && ms >= 1) spins.push({ start: m.index, end: m.index + m[0].length, ms })
  }
  if (spins.length === 0) return 0
  const closing = matchingBraces(text)
  let kept = spins.filter((s) => !yields(text, s, closing))
  if (opts.afterDomContentLoaded) {
    // the event has fired before the script runs: its listeners never do
    const never = listenerBodies(text, closing)
    const inNever = inside(never)
    kept = kept.filter((s) => !inNever(s.start))
  }
  if (opts.when) {
    const later = laterBodies(text, closing)
    const wanted = opts.when === 'later'
    const inLater = inside(later)
    kept = kept.filter((s) => inLater(s.start) === wanted)
  }
  const total = kept.reduce((sum, s) => sum + s.ms, 0)
  return Math.min(total, MAX_BUSY_MS)
}

/** `name = CLOCK + N`: a deadline set as a literal offset from the clock. */
const DEADLINE = new RegExp(String.raw`(?<![\w$.])([\w$]+)\s*=\s*${CLOCK}\s*\+\s*(${NUM})`, 'g')

/**
 * The deadlines a text sets, by name: where each assignment stands and its literal offset, in
 * order. Read in one pass (looking back from each loop instead was quadratic on a text of many
 * deadline loops).
 */
function deadlines(text: string): Map<string, { at: number; ms: number }[]> {
  const byName = new Map<string, { at: number; ms: number }[]>()
  for (const m of text.matchAll(DEADLINE)) {
    scanWork.steps++
    const list = byName.get(m[1]) ?? []
    list.push({ at: m.index, ms: Number(m[2].replaceAll('_', '')) })
    byName.set(m[1], list)
  }
  return byName
}

/** The literal N of the last `name = CLOCK + N` before `before`; NaN when the text has none. */
function deadlineOffset(
  set: Map<string, { at: number; ms: number }[]>,
  name: string | undefined,
  before: number,
): number {
  const list = name === undefined ? undefined : set.get(name)
  if (!list || list[0].at >= before) return Number.NaN
  // the last assignment before the loop: a binary search over the positions
  let lo = 0
  let hi = list.length - 1
  while (lo < hi) {
    scanWork.steps++
    const mid = (lo + hi + 1) >> 1
    if (list[mid].at < before) lo = mid
    else hi = mid - 1
  }
  return list[lo].ms
}

/**
 * Whether a timed loop's body awaits or yields (it gives the thread back each turn) or can leave
 * early (`break`, `return`: how long it runs is not read from its code): the block after its
 * header, or, for the `while` of a do … while, the block before it.
 */
function yields(text: string, spin: { start: number; end: number }, closing: Int32Array): boolean {
  let from = -1
  let to = -1
  const header = text.startsWith('for', spin.start) ? headerEnd(text, spin.start) : spin.end
  if (header < 0) return false
  let i = header
  while (i < text.length && /\s/.test(text[i])) i++
  if (text[i] === '{' && closing[i] > 0) [from, to] = [i, closing[i]]
  else {
    let j = spin.start - 1
    while (j >= 0 && /\s/.test(text[j])) j--
    if (text[j] === '}') {
      // a do … while: the block whose closing brace stands before `while`
      const open = closing.lastIndexOf(j + 1, j)
      if (open >= 0 && /\bdo\s*$/.test(text.slice(Math.max(0, open - 8), open))) [from, to] = [open, j + 1]
    }
    if (from < 0) [from, to] = [i, text.indexOf(';', i) < 0 ? text.length : text.indexOf(';', i) + 1]
  }
  scanWork.steps += to - from
  return /\b(?:await|yield|break|return)\b/.test(text.slice(from, to))
}

/** The loop work a script's text shows, each field only when there is some (PageScript, CriticalResource). */
export interface LoopWork {
  /** Turns of its long counted loops (busyLoopIterations). */
  busyLoopIterations?: number
  /** Ms its loops bounded by elapsed time run (busyLoopMs). */
  busyMs?: number
  /** Of those, what runs later, in a task of its own (`when: 'later'`). */
  laterLoopIterations?: number
  laterBusyMs?: number
}

/** Both kinds of loop a script's text shows, in all and the part that runs later: one read for inline and fetched scripts. */
export function loopWork(code: string, opts: Omit<ScanOptions, 'when'> = {}): LoopWork {
  const work: LoopWork = {}
  const loops = busyLoopIterations(code, opts)
  if (loops > 0) {
    work.busyLoopIterations = loops
    const later = busyLoopIterations(code, { ...opts, when: 'later' })
    if (later > 0) work.laterLoopIterations = later
  }
  const ms = busyLoopMs(code, opts)
  if (ms > 0) {
    work.busyMs = ms
    const later = busyLoopMs(code, { ...opts, when: 'later' })
    if (later > 0) work.laterBusyMs = later
  }
  return work
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
