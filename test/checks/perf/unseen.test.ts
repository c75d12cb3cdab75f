/**
 * The estimate on the unseen corpus (test/fixtures/perf-corpus/unseen.js), end to end: probe,
 * gather, simulation, score. Each case is a page the estimate got wrong before its rule existed,
 * against Lighthouse 12.8's medians measured through the lab (lab-medians.json, read here so the
 * test never needs a browser): a lazy-loaded hero, fonts that hold the text paint back, images
 * without dimensions and content inserted late.
 */
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCheck } from '../../../src/checks/engine.js'
import type { CheckReport } from '../../../src/checks/types.js'
import { startCorpus, type Corpus } from '../../fixtures/perf-corpus/corpus.js'
import { UNSEEN_PAGES } from '../../fixtures/perf-corpus/unseen.js'

const MEDIANS = JSON.parse(
  readFileSync(new URL('../../fixtures/perf-corpus/lab-medians.json', import.meta.url), 'utf8'),
) as { pages: Record<string, { score: number; metrics: { fcp: number; lcp: number; cls: number } }> }
const band = (score: number) => (score >= 90 ? 'good' : score >= 50 ? 'needs improvement' : 'poor')

let corpus: Corpus
const reports = new Map<string, CheckReport>()
const check = async (name: string) => {
  if (!reports.has(name)) reports.set(name, await runCheck(corpus.url(name), { allowPrivateTargets: true }))
  return reports.get(name)!
}
const metrics = async (name: string) =>
  (await check(name)).signals.pagespeed.details.metrics as { fcp: number; lcp: number; cls: number }
const sameBand = async (name: string) =>
  expect(band((await check(name)).performanceScore), name).toBe(band(MEDIANS.pages[name].score))

beforeAll(async () => {
  corpus = await startCorpus({ pages: UNSEEN_PAGES })
})
afterAll(async () => {
  await corpus?.close()
})

describe('the estimate on pages it was not built on', () => {
  it('a lazy-loaded largest image still ends LCP (was 100 and LCP 0.6 s)', async () => {
    const m = await metrics('u-lazy-hero-900k')
    expect(m.lcp).toBeGreaterThan(4000)
    expect((await check('u-lazy-hero-900k')).performanceScore).toBeLessThan(90)
    await sameBand('u-lazy-hero-900k')
    // what it costs is its weight (Lighthouse: the same hero eager scored the same)
    expect((await check('u-lazy-hero-900k')).signals.pagespeed.message).toMatch(/^Images weigh 900 KB/)
  })

  it('text-blocking fonts hold back the text paint, not the first paint (was FCP 3.5 s)', async () => {
    const block = await metrics('u-font-block-2x250k')
    expect(block.fcp).toBeLessThan(1200)
    expect(block.lcp).toBeGreaterThan(3000)
    await sameBand('u-font-block-2x250k')
    // swap: half the first paint waits (Lantern), the largest paint no later
    const swap = await metrics('u-font-swap-2x250k')
    expect(swap.fcp).toBeGreaterThan(block.fcp + 800)
    expect(swap.lcp).toBeLessThan(block.lcp - 800)
    await sameBand('u-font-swap-2x250k')
  })

  it("finds the web fonts of the page's own <style> (was not seen: LCP 0.6 s)", async () => {
    const m = await metrics('u-font-inline-auto-400k')
    expect(m.lcp).toBeGreaterThan(m.fcp + 1000)
  })

  it('first-screen images without dimensions are layout shift (was CLS 0 and 99)', async () => {
    expect((await metrics('u-cls-img-nodims-1')).cls).toBeGreaterThanOrEqual(0.1)
    expect((await metrics('u-cls-img-dims-late')).cls).toBe(0)
    await sameBand('u-cls-img-nodims-1')
    await sameBand('u-cls-img-dims-late')
    expect((await check('u-cls-img-nodims-1')).signals.pagespeed.message).toMatch(
      /^Likely layout shift: 1 first-screen image without width and height/,
    )
  })

  it('content an inline script inserts after a timer is layout shift (was CLS 0 and 100)', async () => {
    expect((await metrics('u-cls-insert-late-300')).cls).toBeGreaterThanOrEqual(0.1)
    await sameBand('u-cls-insert-late-300')
  })

  it('content inserted on the load event is layout shift too (was CLS 0 and 100; Lighthouse 0.36, 83)', async () => {
    expect((await metrics('u-cls-insert-load-300')).cls).toBeGreaterThanOrEqual(0.25)
    await sameBand('u-cls-insert-load-300')
  })

  it('the height an inserting script sets sizes the shift (60, 300 and 600 px all were CLS 0.25, tied)', async () => {
    const cls = await Promise.all(
      ['u-cls-insert-late-60', 'u-cls-insert-late-300', 'u-cls-insert-late-600'].map(
        async (n) => (await metrics(n)).cls,
      ),
    )
    expect(cls[0]).toBeLessThan(0.1)
    expect(cls[1]).toBeGreaterThan(0.3)
    expect(cls[2]).toBeGreaterThan(0.6)
    // ranked as Lighthouse ranks them (88 > 83 > 77 there)
    const scores = await Promise.all(
      ['u-cls-insert-late-60', 'u-cls-insert-late-300', 'u-cls-insert-late-600'].map(
        async (n) => (await check(n)).performanceScore,
      ),
    )
    expect(scores[0]).toBeGreaterThan(scores[1])
    expect(scores[1]).toBeGreaterThan(scores[2])
  })
})

describe('content scripts render into the page', () => {
  it('a client-rendered app pushes the text after its empty mount down (was CLS 0 and 93; Lighthouse 0.21, 89)', async () => {
    const m = await metrics('u-js-spa-300k')
    expect(m.cls).toBeGreaterThanOrEqual(0.1)
    expect(m.cls).toBeLessThan(0.4)
    await sameBand('u-js-spa-300k')
    expect(JSON.stringify((await check('u-js-spa-300k')).signals.pagespeed.findings)).toMatch(
      /empty container/,
    )
  })
})

describe('main-thread work a static read of the scripts shows (long counted loops)', () => {
  it('a small deferred script that loops 40 M times blocks the main thread (was TBT 0 and 100)', async () => {
    const m = (await metrics('u-js-spin-small')) as { tbt?: number }
    expect(m.tbt).toBeGreaterThan(600)
    await sameBand('u-js-spin-small')
  })

  it('an inline loop in body holds the first paint back (was FCP 0.6 s and 100; Lighthouse FCP 4 s)', async () => {
    const m = await metrics('u-js-spin-inline')
    expect(m.fcp).toBeGreaterThan(2500)
    await sameBand('u-js-spin-inline')
    expect((await check('u-js-spin-inline')).signals.pagespeed.message).toMatch(/loop/)
  })

  it('a loop, a lazy hero and a late block compound through the curves (was 81; Lighthouse 34)', async () => {
    expect((await check('u-combo-spin-lazy-cls')).performanceScore).toBeLessThan(50)
    await sameBand('u-combo-spin-lazy-cls')
  })
})

describe('what scripts and relayouts cost on the main thread', () => {
  it('a deferred 800 KB bundle blocks for about what Lighthouse measures (was TBT 914 ms and 79; Lighthouse 419 ms, 90)', async () => {
    const m = (await metrics('u-js-defer-800k')) as { tbt?: number }
    expect(m.tbt).toBeLessThan(650)
    expect(m.tbt).toBeGreaterThan(200)
    await sameBand('u-js-defer-800k')
  })

  it('a parser-blocking script still costs its full compile before the first paint', async () => {
    // three 150 KB head scripts: Lighthouse FCP 1.38 s, a deferred bundle of the same size none
    expect((await metrics('u-js-head-blocking-3x150k')).fcp).toBeGreaterThan(1200)
  })
})
