/**
 * Lighthouse's metrics estimated on its simulated mobile link, and the performance score from them.
 *
 * - First contentful paint: the simulated end of the first-paint graph (graph.ts).
 * - Largest contentful paint: Lantern's blend, half optimistic (the first-paint graph plus the LCP
 *   image and fonts) and half pessimistic (everything the page loads, sharing the link), never
 *   before FCP.
 * - Speed index: Lantern's formula, max(FCP, 1.4 × the observed unthrottled speed index + 0.4 ×
 *   the layout-based estimate); with no browser the observed part is the real time the document
 *   and its blocking resources took, the layout part the mean of FCP and LCP.
 * - Total blocking time: what cannot be measured without running scripts. Estimated from script
 *   bytes and the long counted loops a static read of their text shows (CPU_COST, slowed 4×):
 *   every script task that runs after FCP blocks for its part above 50 ms. Loops bounded by
 *   variables, work in callbacks and code fetched later stay invisible to it.
 * - Cumulative layout shift: the risks the document shows (layoutShift below): first-screen images
 *   without width and height, inline scripts that insert content at the top after a timer, a
 *   network answer or the load event (by the height they set, when they set one), and the text
 *   after an empty container that a deferred or async script renders into. Shifts made by external scripts cannot be seen without a browser; 0 when the
 *   document shows none, as Lighthouse measures on most static pages.
 */
import { logNormalScore } from '../lognormal.js'
import { CPU_COST, LAYOUT_SHIFT, METRIC_CURVES, METRIC_WEIGHTS } from './constants.js'
import { buildGraph, type PageGraph, type PageLoad } from './graph.js'
import { simulate, type NodeTiming } from './simulate.js'
import type { MetricEstimate } from './types.js'

export type MetricName = keyof MetricEstimate

export interface PerfEstimate {
  metrics: MetricEstimate
  /** Each metric's Lighthouse score, 0..1, two decimals. */
  scores: Record<MetricName, number>
  /** The performance score, 0-100. */
  score: number
}

export interface EstimateOptions {
  /** Real (unthrottled) time to the first render, ms: the observed part of Lantern's speed index. */
  observedMs?: number
}

export function estimate(load: PageLoad, opts: EstimateOptions = {}): PerfEstimate {
  const metrics = estimateMetrics(load, opts)
  const scores = scoreMetrics(metrics)
  return { metrics, scores, score: performanceScore(scores) }
}

export function estimateMetrics(load: PageLoad, opts: EstimateOptions = {}): MetricEstimate {
  const graph = buildGraph(load)
  const run = (ids: readonly string[]) => {
    const keep = new Set(ids)
    return simulate(graph.nodes.filter((n) => keep.has(n.id)))
  }
  const fcpRun = run(graph.fcp)
  const plainFcp = endOf(fcpRun, graph.firstPaint)
  // Lantern's FCP is half optimistic, half pessimistic; they differ only by swap fonts here
  const fcp =
    graph.fcpWithSwapFonts && graph.swapPaint
      ? (plainFcp + endOf(run(graph.fcpWithSwapFonts), graph.swapPaint)) / 2
      : plainFcp
  const optimistic = latestEnd(run(graph.lcpOptimistic), graph)
  const allRun = run(graph.all)
  const pessimistic = latestEnd(allRun, graph)
  const lcp = Math.max(fcp, (optimistic + pessimistic) / 2)
  const si = Math.max(fcp, 1.4 * (opts.observedMs ?? 0) + 0.4 * ((fcp + lcp) / 2))
  const paintInFullRun = endOf(allRun, graph.firstPaint)
  let tbt = 0
  for (const node of graph.nodes) {
    if (node.kind !== 'cpu' || graph.tasks.get(node.id) === 'parse') continue
    const t = allRun.get(node.id)
    if (t && t.start >= paintInFullRun) tbt += Math.max(0, node.ms - CPU_COST.longTaskMs)
  }
  return { fcp: round(fcp), lcp: round(lcp), si: round(si), tbt: round(tbt), cls: layoutShift(load) }
}

/** The layout shift the document's own markup and inline scripts make likely (LAYOUT_SHIFT). */
export function layoutShift(load: PageLoad): number {
  const shift = unsizedImageShift(load) + insertShift(load) + mountShift(load)
  return Math.round(Math.min(LAYOUT_SHIFT.max, shift) * 1000) / 1000
}

/**
 * First-screen images without width and height: the first one moves the content under it
 * (firstUnsizedImage), each further one less (eachFurtherUnsizedImage), each scaled by the part of
 * the screen left under it once the sized images before it have taken their height.
 */
function unsizedImageShift(load: PageLoad): number {
  const { viewportPx, firstImageTopPx } = LAYOUT_SHIFT
  let top = firstImageTopPx
  let seen = 0
  let shift = 0
  for (const r of load.resources) {
    if (r.kind !== 'image' || !r.firstScreen) continue
    if (!r.unsized) {
      top += r.heightPx ?? 0
      continue
    }
    const share = Math.max(0, viewportPx - top) / (viewportPx - firstImageTopPx)
    shift += (seen === 0 ? LAYOUT_SHIFT.firstUnsizedImage : LAYOUT_SHIFT.eachFurtherUnsizedImage) * share
    seen++
  }
  return shift
}

/**
 * Content a non-blocking script renders into an empty container arrives after the first paint and
 * pushes the text and sized images after the container down: their height over the screen's
 * (Lighthouse's mobile screen), the whole of it when they fill the screen. Nothing after it, no
 * shift.
 */
function mountShift(load: PageLoad): number {
  const chars = load.scriptMount?.textCharsAfter ?? 0
  const images = load.scriptMount?.sizedImagesAfter ?? []
  const renders = load.resources.some((r) => r.fetched && r.kind === 'script' && r.execution !== 'blocking')
  if ((chars === 0 && images.length === 0) || !renders) return 0
  // the images after it move with the text: their height on the phone's screen adds to what moves
  const imagePx = images.reduce(
    (sum, img) => sum + img.height * Math.min(1, LAYOUT_SHIFT.contentWidthPx / img.width),
    0,
  )
  const px = Math.ceil(chars / LAYOUT_SHIFT.charsPerLine) * LAYOUT_SHIFT.linePx + imagePx
  return Math.min(1, px / LAYOUT_SHIFT.viewportPx)
}

/** The shift of blocks inserted at the top after the first paint: their height over the screen's. */
function insertShift(load: PageLoad): number {
  const count = load.lateInserts ?? 0
  if (count === 0) return 0
  const heights = load.lateInsertPx ?? []
  let shift = 0
  for (let k = 0; k < count; k++) {
    const px = heights[k]
    shift += px == null ? LAYOUT_SHIFT.lateInsert : Math.min(1, px / LAYOUT_SHIFT.viewportPx)
  }
  return shift
}

export function scoreMetrics(m: MetricEstimate): Record<MetricName, number> {
  const s = (name: MetricName) => Math.round(logNormalScore(m[name], METRIC_CURVES[name]) * 100) / 100
  return { fcp: s('fcp'), lcp: s('lcp'), si: s('si'), tbt: s('tbt'), cls: s('cls') }
}

/** Lighthouse's category score: the weighted mean of the metric scores. */
export function performanceScore(scores: Record<MetricName, number>): number {
  const names = Object.keys(METRIC_WEIGHTS) as MetricName[]
  const total = names.reduce((sum, n) => sum + METRIC_WEIGHTS[n], 0)
  return Math.round((100 * names.reduce((sum, n) => sum + METRIC_WEIGHTS[n] * scores[n], 0)) / total)
}

function endOf(run: Map<string, NodeTiming>, id: string): number {
  return run.get(id)?.end ?? 0
}

/**
 * Lantern's LCP: the last node to end, low-priority (off-screen) images aside; of the main-thread
 * tasks only layouts, paints and the render-blocking scripts count, not other scripts' work.
 */
function latestEnd(run: Map<string, NodeTiming>, graph: PageGraph): number {
  let end = 0
  for (const [id, t] of run)
    if (!graph.lowPriorityImages.has(id) && !graph.nonBlockingScriptTasks.has(id)) end = Math.max(end, t.end)
  return end
}

const round = (ms: number) => Math.round(ms)
