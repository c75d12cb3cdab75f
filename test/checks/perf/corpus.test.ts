/**
 * The whole path on the local corpus (test/fixtures/perf-corpus): probe, subresource gather,
 * simulation, score. Only orderings the physics makes unambiguous (Lighthouse agrees on each, see
 * bench/RESULTS.md), so nothing here depends on this machine's speed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCheck } from '../../../src/checks/engine.js'
import type { CheckReport } from '../../../src/checks/types.js'
import { startCorpus, type Corpus } from '../../fixtures/perf-corpus/corpus.js'

let corpus: Corpus
const reports = new Map<string, CheckReport>()
const check = async (name: string) => {
  if (!reports.has(name)) reports.set(name, await runCheck(corpus.url(name), { allowPrivateTargets: true }))
  return reports.get(name)!
}
const score = async (name: string) => (await check(name)).performanceScore
const metrics = async (name: string) =>
  (await check(name)).signals.pagespeed.details.metrics as { fcp: number; lcp: number; tbt: number }

beforeAll(async () => {
  corpus = await startCorpus()
})
afterAll(async () => {
  await corpus?.close()
})

describe('the corpus, end to end', () => {
  it('ranks a tiny compressed page above a raw 500 KB one, and the compressed 500 KB in between', async () => {
    expect(await score('tiny')).toBeGreaterThanOrEqual(90)
    expect(await score('raw-500k')).toBeLessThan(await score('gzip-500k'))
    expect((await metrics('raw-500k')).fcp).toBeGreaterThan((await metrics('gzip-500k')).fcp + 1000)
  })

  it('waits for render-blocking CSS and @import chains, not for a print stylesheet', async () => {
    expect((await metrics('css-3-large-raw')).fcp).toBeGreaterThan((await metrics('css-print')).fcp + 1500)
    expect((await metrics('css-import-chain')).fcp).toBeGreaterThan((await metrics('css-small')).fcp + 300)
    const chain = (await check('css-import-chain')).signals.pagespeed.details.subresources as {
      fetched: number
    }
    expect(chain.fetched).toBe(3)
  })

  it('waits for a parser-blocking head script, not for a deferred one', async () => {
    expect((await metrics('js-head-400k')).fcp).toBeGreaterThan((await metrics('js-defer-400k')).fcp + 1500)
    expect((await metrics('js-defer-400k')).tbt).toBeGreaterThan(0)
  })

  it('lets a large hero image delay LCP, not FCP; lazy images below the first screen cost nothing', async () => {
    const small = await metrics('img-hero-150k')
    const big = await metrics('img-hero-1500k')
    expect(big.lcp).toBeGreaterThan(small.lcp + 4000)
    expect(Math.abs(big.fcp - small.fcp)).toBeLessThan(200)
    expect(await score('img-lazy-below')).toBeGreaterThan(await score('img-6x300k'))
  })

  it('waits for the web fonts a stylesheet names: the text paint (LCP), not the first paint', async () => {
    // Lighthouse 12.8 (lab medians): fonts-block FCP 0.8 s, LCP 2.0 s; css-small 0.8 s
    expect((await metrics('fonts-block')).lcp).toBeGreaterThan((await metrics('css-small')).lcp + 500)
    expect((await metrics('fonts-block')).fcp).toBeLessThan((await metrics('css-small')).fcp + 300)
  })

  it('gives the heavy page of the issue a low score and names a real cost with sizes', async () => {
    const heavy = await check('kitchen-sink')
    expect(heavy.performanceScore).toBeLessThan(75)
    expect(heavy.performanceScore).toBeLessThan(await score('optimised'))
    expect(heavy.signals.pagespeed.message).toMatch(
      /^(\d+ render-blocking resources \([\d.]+ [KM]B: "|Images weigh [\d.]+ MB \(")/,
    )
    expect(heavy.signals.pagespeed.message).not.toMatch(/HTTP\/2/)
  })

  it('a relayout after a font or an image does not redo the first style pass (kitchen-sink was TBT 600 ms; Lighthouse 0)', async () => {
    // 480 KB of CSS, two fonts and four images: each arrival relays the page out, in short tasks
    expect((await metrics('kitchen-sink')).tbt).toBeLessThan(200)
  })

  it('the rest of a long document is laid out in one long task, not a blocking second parse (gzip-500k was TBT 450 ms and 88; Lighthouse 68 ms, 99)', async () => {
    expect((await metrics('gzip-500k')).tbt).toBeLessThan(300)
    expect(await score('gzip-500k')).toBeGreaterThanOrEqual(90)
  })

  it('counts redirects and server wait in the simulation, once', async () => {
    expect((await metrics('redirect-3')).fcp).toBeGreaterThan((await metrics('redirect-1')).fcp + 250)
    expect((await metrics('slow-2500')).fcp).toBeGreaterThan((await metrics('slow-300')).fcp + 2000)
    expect(await score('redirect-3')).toBeGreaterThanOrEqual(90)
  })
})
