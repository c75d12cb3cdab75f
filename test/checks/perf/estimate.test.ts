/**
 * The estimate's physics on hand-built pages: what Lighthouse's Lantern reacts to moves the metric
 * it should and leaves the others alone. Scores follow Lighthouse's mobile curves and weights.
 */
import { describe, expect, it } from 'vitest'
import { METRIC_CURVES } from '../../../src/checks/perf/constants.js'
import { estimate, performanceScore, scoreMetrics } from '../../../src/checks/perf/estimate.js'
import type { PageLoad } from '../../../src/checks/perf/graph.js'
import { blankResource } from '../../../src/checks/perf/select.js'
import type { CriticalResource } from '../../../src/checks/perf/types.js'

const ORIGIN = 'https://example.com'
const page = (o: Partial<PageLoad> = {}, doc: Partial<PageLoad['document']> = {}): PageLoad => ({
  redirects: [],
  document: { url: `${ORIGIN}/`, h2: true, wireBytes: 8_000, decodedBytes: 30_000, serverMs: 50, ...doc },
  resources: [],
  ...o,
})
const res = (
  kind: CriticalResource['kind'],
  name: string,
  bytes: number,
  o: Partial<CriticalResource> = {},
) => ({
  ...blankResource(`${ORIGIN}/${name}`, kind, null),
  fetched: true,
  status: 200,
  wireBytes: bytes,
  decodedBytes: bytes,
  size: 'exact' as const,
  serverWaitMs: 20,
  ...o,
})
const css = (bytes: number, o: Partial<CriticalResource> = {}) =>
  res('stylesheet', 'a.css', bytes, { renderBlocking: true, ...o })
const hero = (bytes: number, o: Partial<CriticalResource> = {}) =>
  res('image', 'hero.jpg', bytes, { lcpCandidate: true, firstScreen: true, ...o })

describe('estimate: first contentful paint', () => {
  it('waits for render-blocking CSS, and no longer once it is not blocking', () => {
    const bare = estimate(page()).metrics.fcp
    const blocked = estimate(page({ resources: [css(150_000)] })).metrics.fcp
    const print = estimate(page({ resources: [css(150_000, { renderBlocking: false })] })).metrics.fcp
    expect(blocked).toBeGreaterThan(bare + 300)
    expect(print).toBeLessThan(blocked)
  })

  it('pays an @import chain one request after another', () => {
    const alone = estimate(page({ resources: [css(30_000)] })).metrics.fcp
    const imported = res('stylesheet', 'b.css', 30_000, { renderBlocking: true, parent: 0 })
    const nested = res('stylesheet', 'c.css', 30_000, { renderBlocking: true, parent: 1 })
    const one = estimate(page({ resources: [css(30_000), imported] })).metrics.fcp
    const two = estimate(page({ resources: [css(30_000), imported, nested] })).metrics.fcp
    // each level waits for its parent, then costs at least a round trip of its own
    expect(one - alone).toBeGreaterThanOrEqual(140)
    expect(two - one).toBeGreaterThanOrEqual(140)
  })

  it('waits for a parser-blocking head script but not for a deferred one', () => {
    const head = res('script', 'app.js', 300_000, { execution: 'blocking', renderBlocking: true })
    const deferred = { ...head, execution: 'defer' as const, renderBlocking: false }
    expect(estimate(page({ resources: [head] })).metrics.fcp).toBeGreaterThan(
      estimate(page({ resources: [deferred] })).metrics.fcp + 500,
    )
  })

  it('waits for the web fonts a stylesheet names, sooner when they are preloaded', () => {
    // small files: round trips, not bytes, decide (a preload cannot beat a full link)
    const font = (parent: number | null) => res('font', 'f.woff2', 20_000, { parent, blocksText: true })
    const none = estimate(page({ resources: [css(5_000)] })).metrics.fcp
    const late = estimate(page({ resources: [css(5_000), font(0)] })).metrics.fcp
    const preloaded = estimate(page({ resources: [css(5_000), font(null)] })).metrics.fcp
    expect(late).toBeGreaterThan(none + 100)
    expect(preloaded).toBeLessThan(late - 50)
  })

  it('counts each redirect as round trips before the document, and server time once', () => {
    const none = estimate(page()).metrics.fcp
    const two = estimate(page({ redirects: [`${ORIGIN}/a`, `${ORIGIN}/b`] })).metrics.fcp
    expect(two - none).toBeGreaterThan(2 * 150)
    const slow = estimate(page({}, { serverMs: 1_050 })).metrics.fcp
    expect(slow - none).toBeCloseTo(1_000, -1)
  })

  it('brings a raw document in slower than the same document compressed', () => {
    const raw = estimate(page({}, { wireBytes: 400_000, decodedBytes: 400_000 })).metrics.fcp
    const gz = estimate(page({}, { wireBytes: 80_000, decodedBytes: 400_000 })).metrics.fcp
    expect(raw).toBeGreaterThan(gz + 500)
  })
})

describe('estimate: largest contentful paint', () => {
  it('grows with the hero image bytes, FCP does not', () => {
    const small = estimate(page({ resources: [hero(50_000)] })).metrics
    const big = estimate(page({ resources: [hero(1_500_000)] })).metrics
    expect(big.lcp).toBeGreaterThan(small.lcp + 4_000)
    expect(Math.abs(big.fcp - small.fcp)).toBeLessThan(50)
  })

  it('slows the hero when other images share the link', () => {
    const alone = estimate(page({ resources: [hero(200_000)] })).metrics.lcp
    const others = [1, 2, 3].map((n) => res('image', `i${n}.jpg`, 400_000, { firstScreen: n < 3 }))
    const crowded = estimate(page({ resources: [hero(200_000), ...others] })).metrics.lcp
    expect(crowded).toBeGreaterThan(alone)
  })

  it('never comes before first contentful paint', () => {
    const m = estimate(page({ resources: [css(200_000)] })).metrics
    expect(m.lcp).toBeGreaterThanOrEqual(m.fcp)
    expect(m.si).toBeGreaterThanOrEqual(m.fcp)
  })
})

describe('estimate: total blocking time', () => {
  it('counts script work after the first paint, slowed 4x, above 50 ms per task', () => {
    const small = estimate(page({ resources: [res('script', 'a.js', 10_000, { execution: 'defer' })] }))
      .metrics.tbt
    const big = estimate(page({ resources: [res('script', 'a.js', 600_000, { execution: 'defer' })] }))
      .metrics.tbt
    expect(small).toBe(0)
    expect(big).toBeGreaterThan(500)
  })
})

describe('estimate: the score', () => {
  it("scores each metric on Lighthouse's mobile curves (p10 → 0.9, median → 0.5)", () => {
    const s = scoreMetrics({
      fcp: METRIC_CURVES.fcp.p10,
      lcp: METRIC_CURVES.lcp.median,
      si: METRIC_CURVES.si.p10,
      tbt: METRIC_CURVES.tbt.median,
      cls: 0,
    })
    expect(s).toEqual({ fcp: 0.9, lcp: 0.5, si: 0.9, tbt: 0.5, cls: 1 })
  })

  it('weighs them FCP 10, SI 10, LCP 25, TBT 30, CLS 25', () => {
    expect(performanceScore({ fcp: 1, si: 1, lcp: 1, tbt: 1, cls: 1 })).toBe(100)
    expect(performanceScore({ fcp: 1, si: 1, lcp: 0, tbt: 1, cls: 1 })).toBe(75)
    expect(performanceScore({ fcp: 1, si: 1, lcp: 1, tbt: 0, cls: 1 })).toBe(70)
    expect(performanceScore({ fcp: 0, si: 0, lcp: 1, tbt: 1, cls: 1 })).toBe(80)
  })

  it('gives a small compressed page on a fast server 100 and the heavy page of the issue a low score', () => {
    expect(estimate(page()).score).toBe(100)
    const heavy = page({
      resources: [
        css(150_000),
        res('stylesheet', 'b.css', 150_000, { renderBlocking: true }),
        res('script', 'app.js', 300_000, { execution: 'blocking', renderBlocking: true }),
        res('script', 'vendor.js', 300_000, { execution: 'blocking', renderBlocking: true }),
        hero(1_500_000),
        res('image', 'b.jpg', 500_000, { firstScreen: true }),
        res('font', 'f.woff2', 120_000, { parent: 0, blocksText: true }),
      ],
    })
    // Lighthouse 12 gives such a page (test/fixtures/perf-corpus kitchen-sink) 60-70: its scripts do little
    expect(estimate(heavy).score).toBeLessThan(75)
  })
})
