/**
 * The page's dependency graph, as Lantern builds it from a trace, but from what one GET and a few
 * extra requests show: the redirect chain and the document; then what the parser finds (stylesheets,
 * scripts, images; the preload scanner starts them as soon as the document is in); then what the
 * stylesheets pull in (@import, web fonts, found once styles are computed); and the main-thread
 * tasks between them (parsing, running scripts, first style and layout, painting the large image).
 *
 * Which nodes a metric waits for follows Lantern's first-paint graphs: first contentful paint waits
 * for the render-blocking requests, the blocking scripts' execution, blocking fonts and the first
 * layout; largest contentful paint also for the likely LCP image, and (pessimistic half) for
 * everything else the page loads meanwhile, competing for the same link.
 */
import { CPU_COST, SIMULATED_MOBILE } from './constants.js'
import type { CpuNode, NetworkNode, SimNode } from './simulate.js'
import type { CriticalResource } from './types.js'

/** The document request and what led to it, as measured on the real link. */
export interface PageLoad {
  /** Redirect hops before the document, oldest first. */
  redirects: string[]
  document: {
    url: string
    h2: boolean
    wireBytes: number
    decodedBytes: number
    /** Request sent -> response headers of the document, ms. */
    serverMs: number
  }
  /** Round trip of the real link (the TCP connect time), taken out of every measured server wait. */
  realRttMs?: number
  /** Inline scripts that insert content above what is shown after a timer, a network answer or load. */
  lateInserts?: number
  /** The height (CSS px) each of those scripts gives what it inserts, null when it names none. */
  lateInsertPx?: (number | null)[]
  /**
   * Inline scripts whose text shows long counted loops or loops bounded by elapsed time
   * (page/script-scan.ts): classic ones run where they stand, before the first paint, but for the
   * part in timer callbacks and load listeners (`later*`, included in the totals); module ones
   * after parsing.
   */
  busyInlineScripts?: {
    module: boolean
    iterations: number
    busyMs?: number
    laterIterations?: number
    laterBusyMs?: number
  }[]
  /** An empty container with an id that scripts render into, and the visible text after it (page/read.ts). */
  scriptMount?: { textCharsAfter: number; sizedImagesAfter?: { width: number; height: number }[] }
  resources: CriticalResource[]
}

export interface PageGraph {
  nodes: SimNode[]
  /** Node ids first contentful paint waits for (the first layout last). */
  fcp: string[]
  /**
   * Lantern's pessimistic first paint when the page has swap/optional fonts: they were in before
   * the observed first paint, so half of the metric waits for them; null without such fonts.
   */
  fcpWithSwapFonts: string[] | null
  /** Optimistic LCP: the FCP graph plus the LCP image, its paint, and every font. */
  lcpOptimistic: string[]
  /** Pessimistic LCP: everything. */
  all: string[]
  /** The node whose end is first contentful paint (without swap fonts). */
  firstPaint: string
  /** The node whose end is the first paint with the swap fonts in (see fcpWithSwapFonts). */
  swapPaint: string | null
  /** Ids of low-priority images: they take bandwidth but their end is not the LCP. */
  lowPriorityImages: Set<string>
  /** Script tasks that do not block rendering (deferred, async, or parser-blocking in body). */
  nonBlockingScriptTasks: Set<string>
  /** Main-thread nodes and what they stand for (scripts run, layout, image paint). */
  tasks: Map<string, 'parse' | 'script' | 'layout' | 'image'>
}

/** Priorities as Chrome sets them, lower first (VeryHigh documents and CSS … Low images). */
const PRIORITY = { document: 0, stylesheet: 0, font: 0, blockingScript: 1, lcpImage: 1, script: 2, image: 3 }

export function buildGraph(load: PageLoad, link = SIMULATED_MOBILE): PageGraph {
  const nodes: SimNode[] = []
  const tasks: PageGraph['tasks'] = new Map()
  const lowPriorityImages = new Set<string>()
  const nonBlockingScriptTasks = new Set<string>()
  const cpu = (id: string, ms: number, deps: string[], kind: 'parse' | 'script' | 'layout' | 'image') => {
    const node: CpuNode = { kind: 'cpu', id, ms: Math.max(0, ms), deps }
    nodes.push(node)
    tasks.set(id, kind)
    return node
  }
  const net: Net = (...args) => {
    const node = networkNode(...args)
    nodes.push(node)
    return node
  }

  // the redirect chain, then the document
  const doc = load.document
  const serverOf = serverTimes(load, link.defaultServerMs)
  let previous: string[] = []
  load.redirects.forEach((url, i) => {
    // a redirect answer has next to no body; the hop costs its round trips and the server's wait
    net(`redirect-${i}`, url, 0, serverOf(url), doc.h2, PRIORITY.document, previous)
    previous = [`redirect-${i}`]
  })
  net('document', doc.url, doc.wireBytes, serverOf(doc.url), doc.h2, PRIORITY.document, previous)
  cpu('parse', (doc.decodedBytes / 1000) * CPU_COST.htmlMsPerKB * link.cpuSlowdown, ['document'], 'parse')

  const rid = (i: number) => `r${i}`
  const fetched = load.resources.map((r, i) => ({ r, i })).filter(({ r }) => r.fetched)
  const blockingCss: string[] = []
  const blockingScripts: string[] = []
  const fonts: string[] = []
  const swapFonts: string[] = []
  let cssBytes = 0

  for (const { r, i } of fetched) {
    if (r.kind !== 'stylesheet' && r.kind !== 'script') continue
    const parent = r.parent === null ? 'document' : rid(r.parent)
    const priority =
      r.kind === 'stylesheet'
        ? PRIORITY.stylesheet
        : r.renderBlocking
          ? PRIORITY.blockingScript
          : PRIORITY.script
    net(rid(i), r.url, r.wireBytes, serverOf(r.url), r.h2, priority, [parent])
    if (r.kind === 'stylesheet') {
      cssBytes += r.decodedBytes
      if (r.renderBlocking) blockingCss.push(rid(i))
    }
  }
  addScriptRuns(fetched, load.busyInlineScripts ?? [], cpu, link, blockingCss, {
    blocking: blockingScripts,
    nonBlocking: nonBlockingScriptTasks,
  })
  // style computation discovers the fonts the text uses
  const style = [...blockingCss, 'parse']
  for (const { r, i } of fetched) {
    if (r.kind !== 'font') continue
    const deps = r.parent === null ? ['document'] : [rid(r.parent), ...style]
    net(rid(i), r.url, r.wireBytes, serverOf(r.url), r.h2, PRIORITY.font, deps)
    ;(r.blocksText ? fonts : swapFonts).push(rid(i))
  }
  const layoutMs =
    (CPU_COST.firstLayoutMs + (cssBytes / 1000) * CPU_COST.styleMsPerKB) *
    link.cpuSlowdown *
    link.layoutSlowdownShare
  cpu('first-paint', layoutMs, ['parse', ...blockingCss, ...blockingScripts], 'layout')

  const fcp = ['document', 'parse', ...blockingCss, ...blockingScripts, 'first-paint']
  load.redirects.forEach((_, i) => fcp.push(`redirect-${i}`))
  for (const { r, i } of fetched) if (r.kind === 'script' && r.renderBlocking) fcp.push(rid(i))
  // Web fonts (measured through the lab on the corpora, Lighthouse 12.8): with font-display auto,
  // block or fallback the first paint does not wait for them (Chrome paints the page, its text
  // invisible), but the largest paint, the text's, does. With swap or optional the text is
  // painted at once in the fallback font and that paint stays the largest; Lantern's pessimistic
  // first-paint graph holds the fonts (they were in before the observed paint), so half of FCP
  // waits for them, and LCP is no later than that.
  const firstPaint = 'first-paint'
  let swapPaint: string | null = null
  if (swapFonts.length > 0) {
    swapPaint = cpu('swap-paint', 0, ['first-paint', ...swapFonts], 'layout').id
  }
  const textPaint = fonts.length > 0 ? cpu('text-paint', 0, ['first-paint', ...fonts], 'layout').id : null
  // the rest of a long document is parsed and laid out after the first paint, in long tasks
  cpu(
    'parse-rest',
    (doc.decodedBytes / 1000) * CPU_COST.htmlAfterPaintMsPerKB * link.cpuSlowdown,
    ['first-paint'],
    'layout',
  )
  // every font and first-screen image that arrives makes the page recompute style and layout, a
  // task as long as the first one (so long with a lot of CSS)
  const relayoutMs =
    (CPU_COST.firstLayoutMs + (cssBytes / 1000) * CPU_COST.styleMsPerKB * CPU_COST.relayoutStyleShare) *
    link.cpuSlowdown *
    link.layoutSlowdownShare
  for (const id of [...fonts, ...swapFonts]) cpu(`relayout-${id}`, relayoutMs, [id, 'first-paint'], 'layout')

  const lcpOptimistic = [...fcp, ...fonts, ...(textPaint ? [textPaint] : [])]
  addImages(fetched, { net, cpu, serverOf, layoutMs: relayoutMs, link }, lowPriorityImages, lcpOptimistic)
  return {
    nodes,
    fcp: unique(fcp),
    fcpWithSwapFonts: swapPaint ? unique([...fcp, ...swapFonts, swapPaint]) : null,
    lcpOptimistic: unique(lcpOptimistic),
    all: nodes.map((n) => n.id),
    firstPaint,
    swapPaint,
    lowPriorityImages,
    nonBlockingScriptTasks,
    tasks,
  }
}

const unique = (ids: string[]) => [...new Set(ids)]

/**
 * Lantern gives every request to an origin the same server time: the median of what it observed
 * there (TTFB minus the round trip). So does this, from the waits measured on the real link.
 */
function serverTimes(load: PageLoad, fallback: number): (url: string) => number {
  const rtt = load.realRttMs ?? 0
  const samples = new Map<string, number[]>()
  const note = (url: string, ms: number | null) => {
    if (ms === null) return
    const key = originOf(url)
    samples.set(key, [...(samples.get(key) ?? []), Math.max(0, ms - rtt)])
  }
  note(load.document.url, load.document.serverMs)
  for (const r of load.resources) if (r.fetched) note(r.url, r.serverWaitMs)
  const medians = new Map([...samples].map(([key, list]) => [key, median(list)]))
  return (url) => medians.get(originOf(url)) ?? fallback
}

function median(list: number[]): number {
  const sorted = [...list].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

function originOf(url: string): string {
  return safeUrl(url)?.origin ?? url
}

function safeUrl(url: string): URL | null {
  try {
    return new URL(url)
  } catch {
    return null
  }
}

type Net = (...args: Parameters<typeof networkNode>) => NetworkNode
type Cpu = (id: string, ms: number, deps: string[], kind: 'parse' | 'script' | 'layout' | 'image') => CpuNode

/** A request as the simulation sees it: its origin's connection (TLS, h2), bytes, server time. */
function networkNode(
  id: string,
  url: string,
  bytes: number,
  serverMs: number,
  h2: boolean,
  priority: number,
  deps: string[],
): NetworkNode {
  const u = safeUrl(url)
  return {
    kind: 'network',
    id,
    origin: u ? `${u.protocol}//${u.host}` : url,
    host: u?.hostname ?? url,
    tls: u?.protocol === 'https:',
    h2,
    bytes: Math.max(0, bytes),
    serverMs: Math.max(0, serverMs),
    priority,
    deps,
  }
}

/**
 * The images: requested with the document (lazy ones after layout), a relayout for each one on
 * the first screen, the likely largest one's decode and paint on the optimistic LCP path.
 */
function addImages(
  fetched: { r: CriticalResource; i: number }[],
  g: {
    net: Net
    cpu: Cpu
    serverOf: (url: string) => number
    layoutMs: number
    link: typeof SIMULATED_MOBILE
  },
  lowPriorityImages: Set<string>,
  lcpOptimistic: string[],
): void {
  const { net, cpu, serverOf, layoutMs, link } = g
  const rid = (i: number) => `r${i}`
  for (const { r, i } of fetched) {
    if (r.kind !== 'image') continue
    // a lazy image is only requested once layout shows it is near the viewport
    const deps = r.lazy ? ['first-paint'] : ['document']
    net(
      rid(i),
      r.url,
      r.wireBytes,
      serverOf(r.url),
      r.h2,
      r.lcpCandidate ? PRIORITY.lcpImage : PRIORITY.image,
      deps,
    )
    // Chrome raises the priority of the images it lays out on the first screen; the others stay
    // Low, and Lantern ends LCP at the last node that is not a low-priority image. The likely
    // largest image lazy-loaded on the first screen is still the largest paint: it is only
    // requested after layout (measured through the lab: Lighthouse's LCP waits for it, a little
    // later than for the same image loaded eagerly).
    const lazyLcp = r.lazy && r.lcpCandidate && r.firstScreen
    if ((!r.firstScreen || r.lazy) && !lazyLcp) lowPriorityImages.add(rid(i))
    else cpu(`relayout-${rid(i)}`, layoutMs, [rid(i), 'first-paint'], 'layout')
    if (r.lcpCandidate) {
      lcpOptimistic.push(rid(i))
      if (!r.lazy || lazyLcp) {
        const ms = (r.wireBytes / 100_000) * CPU_COST.imageDecodeMsPer100KB * link.cpuSlowdown
        lcpOptimistic.push(cpu('image-paint', ms, [rid(i), 'first-paint'], 'image').id)
      }
    }
  }
}

/**
 * A script's main-thread time on the simulated CPU: its code's size, the long loops it shows, and
 * the ms its loops bounded by elapsed time run. Those run their ms on the host whatever its CPU,
 * and Lighthouse's simulation slows every observed main-thread task by the CPU slowdown, so they
 * cost as much as loops whose turns take that long. A callback's task (baseMs 0) costs its loops.
 */
function scriptCost(
  decodedBytes: number,
  loops: number,
  link: typeof SIMULATED_MOBILE,
  deferred = false,
  busyMs = 0,
  baseMs: number = CPU_COST.scriptBaseMs,
): number {
  const ms =
    baseMs +
    (decodedBytes / 1000) * (deferred ? CPU_COST.deferredScriptMsPerKB : CPU_COST.scriptMsPerKB) +
    (loops * CPU_COST.loopNsPerTurn) / 1e6 +
    busyMs
  return ms * link.cpuSlowdown
}

/**
 * Each script's run on the main thread: a classic script once it is in and every stylesheet before
 * it has applied (render-blocking in the head), async ones whenever they are in, deferred and
 * module ones once parsing has finished. Inline scripts cost what their long loops cost (their
 * bytes are in the document's parse): a classic one runs where the parser meets it, so the first
 * paint waits for it (measured through the lab: an inline loop at the end of body held
 * Lighthouse's FCP back by its whole run); a module one is deferred.
 *
 * The loops a classic script runs in a timer callback or a load listener written in place
 * (script-scan.ts `when: 'later'`) are a task of their own after the first paint: a timer fires
 * once the parser yields, a load listener once the page and its subresources are in, and Chrome
 * paints before either (measured through the lab: h4-time-timeout-500 and h4-time-load-800, FCP as
 * a page without the loop, TBT 2-3 s). So their cost leaves the script's run, which the first
 * paint waits for, and all of it but its first 50 ms is blocking time. Its DOMContentLoaded
 * listeners stay in the run: Chrome fires the event in the task that ends parsing, before the
 * first paint (h4-time-dcl-inline-350: FCP held back, TBT 0). Deferred, async and module scripts
 * run after the first paint anyway; their later loops stay in their run, as before.
 *
 * Parsing has not finished before every parser-blocking script has run (the parser stops at each)
 * and the stylesheets that block scripts have applied; by then the first paint can be made, and
 * an external deferred or module script runs after it, so its long tasks count as blocking time
 * even when it is in long before a slow head script (h3-combo-slow-everything: Lighthouse 5.7 s).
 * An inline module script keeps running before the first paint: Lighthouse's FCP waited for one's
 * loop (h3-js-module-inline-spin, TBT 9 ms), so whether Chrome paints before a deferred script
 * that is ready when parsing ends is not settled by the corpus.
 */
function addScriptRuns(
  fetched: { r: CriticalResource; i: number }[],
  inline: NonNullable<PageLoad['busyInlineScripts']>,
  cpu: Cpu,
  link: typeof SIMULATED_MOBILE,
  blockingCss: string[],
  out: { blocking: string[]; nonBlocking: Set<string> },
): void {
  const rid = (i: number) => `r${i}`
  const scripts = fetched.filter(({ r }) => r.kind === 'script')
  // the end of parsing: every parser-blocking script run (head, body, inline), then the first paint
  const parsed = [
    'parse',
    ...blockingCss,
    ...scripts.filter(({ r }) => r.execution === 'blocking').map(({ i }) => `run-${rid(i)}`),
    ...inline.flatMap((s, k) => (s.module ? [] : [`inline-${k}`])),
    'first-paint',
  ]
  // a classic script's loops in timer callbacks and load listeners: a task after the first paint
  // and after the parser's (a load listener runs once parsing has ended; a timer waits for the
  // parser to yield, so the rest of the document comes first here)
  const later = (id: string, iterations = 0, ms = 0) => {
    if (iterations <= 0 && ms <= 0) return
    cpu(
      `later-${id}`,
      scriptCost(0, iterations, link, false, ms, 0),
      [id, 'first-paint', 'parse-rest'],
      'script',
    )
    out.nonBlocking.add(`later-${id}`)
  }
  for (const { r, i } of scripts) {
    const classic = r.execution === 'blocking'
    const laterTurns = classic ? (r.laterLoopIterations ?? 0) : 0
    const laterMs = classic ? (r.laterBusyMs ?? 0) : 0
    const cost = scriptCost(
      r.decodedBytes,
      (r.busyLoopIterations ?? 0) - laterTurns,
      link,
      !classic,
      (r.busyMs ?? 0) - laterMs,
    )
    const id = `run-${rid(i)}`
    if (classic) {
      // a classic script runs once it is in and every stylesheet before it has applied
      cpu(id, cost, [rid(i), 'parse', ...blockingCss], 'script')
      if (r.renderBlocking) out.blocking.push(id)
      else out.nonBlocking.add(id)
      later(id, laterTurns, laterMs)
    } else if (r.execution === 'async') {
      // an async script runs whenever it is in (after parsing is the common case on a simulated
      // link: the document is in long before it)
      cpu(id, cost, [rid(i), 'parse'], 'script')
      out.nonBlocking.add(id)
    } else {
      // deferred and module scripts run once parsing has finished, after the first paint
      cpu(id, cost, [rid(i), ...parsed], 'script')
      out.nonBlocking.add(id)
    }
  }
  inline.forEach((s, k) => {
    const id = `inline-${k}`
    const laterTurns = s.module ? 0 : (s.laterIterations ?? 0)
    const laterMs = s.module ? 0 : (s.laterBusyMs ?? 0)
    const cost = scriptCost(0, s.iterations - laterTurns, link, false, (s.busyMs ?? 0) - laterMs)
    cpu(id, cost, ['parse', ...blockingCss], 'script')
    if (s.module) out.nonBlocking.add(id)
    else out.blocking.push(id)
    later(id, laterTurns, laterMs)
  })
}
