import { describe, expect, it } from 'vitest'
import { erf, logNormalPercent, logNormalScore } from '../../src/checks/lognormal.js'
import { TTFB_CURVE } from '../../src/checks/thresholds.js'

describe('erf (Abramowitz & Stegun 7.1.26)', () => {
  it.each([
    [0, 0],
    [0.5, 0.5204999],
    [1, 0.8427008],
    [2, 0.9953223],
    [-1, -0.8427008],
  ])('erf(%d) ≈ %d', (x, expected) => {
    expect(erf(x)).toBeCloseTo(expected, 6)
  })
})

describe('logNormalScore', () => {
  it('scores p10 as 0.9 and the median as 0.5 (the two control points)', () => {
    expect(logNormalScore(800, TTFB_CURVE)).toBeCloseTo(0.9, 6)
    expect(logNormalScore(1800, TTFB_CURVE)).toBeCloseTo(0.5, 6)
    expect(logNormalScore(300, { p10: 300, median: 600 })).toBeCloseTo(0.9, 6)
  })

  it('scores zero and negative values as 1', () => {
    expect(logNormalScore(0, TTFB_CURVE)).toBe(1)
    expect(logNormalScore(-5, TTFB_CURVE)).toBe(1)
  })

  it('falls monotonically as the value grows', () => {
    const values = [100, 400, 800, 1200, 1800, 2500, 4000, 10_000]
    const scores = values.map((v) => logNormalScore(v, TTFB_CURVE))
    for (let i = 1; i < scores.length; i++) expect(scores[i]).toBeLessThan(scores[i - 1])
  })

  it('keeps each value inside its band', () => {
    expect(logNormalScore(800.001, TTFB_CURVE)).toBeLessThan(0.9)
    expect(logNormalScore(1800.001, TTFB_CURVE)).toBeLessThan(0.5)
    expect(logNormalScore(799.999, TTFB_CURVE)).toBeGreaterThanOrEqual(0.9)
  })

  it('rejects a curve whose median is not above p10', () => {
    expect(() => logNormalScore(1, { p10: 1800, median: 800 })).toThrow(RangeError)
    expect(() => logNormalScore(1, { p10: 0, median: 800 })).toThrow(RangeError)
  })
})

describe('logNormalPercent on the TTFB curve (web-vitals 800 / 1800 ms)', () => {
  // the values scoring.md lists for Lighthouse's maths with these control points
  it.each([
    [200, 100],
    [600, 96],
    [800, 90],
    [801, 89],
    [1000, 82],
    [1200, 74],
    [1500, 61],
    [1800, 50],
    [1801, 49],
    [2500, 30],
    [3000, 21],
    [5000, 5],
  ])('%d ms → %d', (ms, pct) => {
    expect(logNormalPercent(ms, TTFB_CURVE)).toBe(pct)
  })
})
