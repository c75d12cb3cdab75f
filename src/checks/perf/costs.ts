/**
 * What a page's performance costs, ranked by what fixing it would earn: each cause is taken away
 * in turn (the render-blocking resources made non-blocking, images brought to a sensible weight,
 * fonts swapped, redirects and server wait removed, the document compressed, script work removed)
 * and the page simulated again. The difference in score is the cause's cost, so the message names
 * the biggest real one, with its sizes, never a cosmetic item.
 */
import {
  estimateMetrics,
  performanceScore,
  scoreMetrics,
  type EstimateOptions,
  type MetricName,
  type PerfEstimate,
} from './estimate.js'
import type { PageLoad } from './graph.js'
import type { CriticalResource } from './types.js'

export type CostKind =
  | 'render-blocking'
  | 'images'
  | 'lazy-lcp'
  | 'fonts'
  | 'redirects'
  | 'server'
  | 'compression'
  | 'document-size'
  | 'scripts'
  | 'layout-shift'

export interface Cost {
  kind: CostKind
  /** Performance points the page would gain without it. */
  points: number
  /** The resources it is about, biggest first. */
  resources: CriticalResource[]
}

/** What a well-made first-screen image weighs on a phone (our own reasoning: a 412 px wide, 1.75× JPEG/WebP). */
export const IMAGE_TARGET_BYTES = 100_000
/** What a server should answer in (Lighthouse's server-response-time target, 100 ms). */
export const SERVER_TARGET_MS = 100
/** A document the simulated link brings in within the first flights (our own reasoning: ~3 round trips of slow start). */
export const DOCUMENT_TARGET_BYTES = 50_000

interface Remedy {
  kind: CostKind
  /**
   * The metrics the remedy is credited with (default all). Unblocking a script moves its work after
   * the first paint, where it counts as blocking time: that work is the 'scripts' cost, so, like
   * Lighthouse's render-blocking savings, this one is credited with the paint metrics only.
   */
  metrics?: MetricName[]
  applies(load: PageLoad): CriticalResource[] | null
  fix(load: PageLoad): PageLoad
}

const withResources = (load: PageLoad, map: (r: CriticalResource) => CriticalResource): PageLoad => ({
  ...load,
  resources: load.resources.map(map),
})

const REMEDIES: Remedy[] = [
  {
    kind: 'render-blocking',
    metrics: ['fcp', 'lcp', 'si'],
    applies: (l) => nonEmpty(l.resources.filter((r) => r.fetched && r.renderBlocking)),
    fix: (l) =>
      withResources(l, (r) =>
        r.renderBlocking
          ? { ...r, renderBlocking: false, execution: r.kind === 'script' ? 'defer' : r.execution }
          : r,
      ),
  },
  {
    kind: 'images',
    applies: (l) =>
      nonEmpty(
        l.resources.filter((r) => r.fetched && r.kind === 'image' && r.wireBytes > IMAGE_TARGET_BYTES),
      ),
    fix: (l) =>
      withResources(l, (r) =>
        r.kind === 'image' ? { ...r, wireBytes: Math.min(r.wireBytes, IMAGE_TARGET_BYTES) } : r,
      ),
  },
  {
    kind: 'lazy-lcp',
    applies: (l) => nonEmpty(l.resources.filter((r) => r.fetched && r.lcpCandidate && r.lazy)),
    fix: (l) => withResources(l, (r) => (r.lcpCandidate ? { ...r, lazy: false } : r)),
  },
  {
    kind: 'fonts',
    // fonts named only inside stylesheets start late; a preload starts them with the document
    applies: (l) => nonEmpty(l.resources.filter((r) => r.fetched && r.kind === 'font' && r.parent !== null)),
    fix: (l) => withResources(l, (r) => (r.kind === 'font' ? { ...r, parent: null } : r)),
  },
  {
    kind: 'scripts',
    applies: (l) =>
      nonEmpty(l.resources.filter((r) => r.fetched && r.kind === 'script')) ??
      ((l.busyInlineScripts ?? []).length > 0 ? [] : null),
    fix: (l) => ({
      ...withResources(l, (r) =>
        r.kind === 'script'
          ? {
              ...r,
              decodedBytes: 0,
              busyLoopIterations: 0,
              busyMs: 0,
              laterLoopIterations: 0,
              laterBusyMs: 0,
            }
          : r,
      ),
      busyInlineScripts: [],
    }),
  },
  {
    kind: 'layout-shift',
    metrics: ['cls'],
    applies: (l) =>
      (l.lateInserts ?? 0) > 0 ||
      (l.scriptMount?.textCharsAfter ?? 0) > 0 ||
      (l.scriptMount?.sizedImagesAfter?.length ?? 0) > 0 ||
      l.resources.some((r) => r.kind === 'image' && r.firstScreen && r.unsized)
        ? l.resources.filter((r) => r.kind === 'image' && r.firstScreen && r.unsized)
        : null,
    fix: (l) => ({
      ...withResources(l, (r) => (r.unsized ? { ...r, unsized: false } : r)),
      lateInserts: 0,
      lateInsertPx: [],
      scriptMount: undefined,
    }),
  },
  {
    kind: 'redirects',
    applies: (l) => (l.redirects.length > 0 ? [] : null),
    fix: (l) => ({ ...l, redirects: [] }),
  },
  {
    kind: 'server',
    applies: (l) => (l.document.serverMs > SERVER_TARGET_MS ? [] : null),
    fix: (l) => ({ ...l, document: { ...l.document, serverMs: SERVER_TARGET_MS } }),
  },
  {
    kind: 'document-size',
    applies: (l) => (l.document.wireBytes > DOCUMENT_TARGET_BYTES ? [] : null),
    fix: (l) => ({
      ...l,
      document: {
        ...l.document,
        wireBytes: DOCUMENT_TARGET_BYTES,
        decodedBytes: Math.min(l.document.decodedBytes, DOCUMENT_TARGET_BYTES * 4),
      },
    }),
  },
]

/**
 * The costs that lose points, biggest first. `compressedBytes` is what the document would weigh
 * compressed when it is sent raw (null when it is compressed or would not shrink enough).
 */
export function rankCosts(
  load: PageLoad,
  base: PerfEstimate,
  opts: EstimateOptions & { compressedBytes?: number | null } = {},
): Cost[] {
  const costs: Cost[] = []
  const gain = (fixed: PageLoad, credited?: MetricName[]) => {
    const metrics = estimateMetrics(fixed, opts)
    for (const name of Object.keys(metrics) as MetricName[])
      if (credited && !credited.includes(name)) metrics[name] = base.metrics[name]
    return performanceScore(scoreMetrics(metrics)) - base.score
  }
  for (const remedy of REMEDIES) {
    const resources = remedy.applies(load)
    if (resources === null) continue
    const points = gain(remedy.fix(load), remedy.metrics)
    if (points > 0) costs.push({ kind: remedy.kind, points, resources: bySize(resources) })
  }
  if (opts.compressedBytes != null && opts.compressedBytes < load.document.wireBytes) {
    const points = gain({ ...load, document: { ...load.document, wireBytes: opts.compressedBytes } })
    if (points > 0) costs.push({ kind: 'compression', points, resources: [] })
  }
  return costs.sort((a, b) => b.points - a.points)
}

const nonEmpty = <T>(list: T[]): T[] | null => (list.length > 0 ? list : null)
const bySize = (list: CriticalResource[]) => [...list].sort((a, b) => b.wireBytes - a.wireBytes)
