/**
 * Lighthouse-style log-normal scoring: a metric's value maps to 0..1 on the complementary CDF of a
 * log-normal distribution fixed by two control points, p10 (scores 0.9) and the median (scores 0.5).
 * Small values score near 1, large ones fall towards 0, and a doubling costs the same everywhere.
 *
 * Maths (scoring.md §2): σ = |ln(p10 / median)| / (√2 · c), where c = erfc⁻¹(0.2), so that
 * ½·erfc(ln(p10 / median) / (√2·σ)) = ½·erfc(−c) = 0.9 exactly; score(v) = ½·erfc(ln(v / median) / (√2·σ)).
 */

export interface LogNormalCurve {
  /** The value that scores 0.9. */
  p10: number
  /** The value that scores 0.5; greater than p10. */
  median: number
}

/** erfc⁻¹(1/5): the point where the complementary error function equals 0.2. */
const ERFC_INV_ONE_FIFTH = 0.9061938024368232

/**
 * The error function, Abramowitz & Stegun formula 7.1.26 (|error| ≤ 1.5e-7), odd-symmetric.
 * Precise enough for scores shown as whole percentages.
 */
export function erf(x: number): number {
  const sign = x < 0 ? -1 : 1
  const ax = Math.abs(x)
  const t = 1 / (1 + 0.3275911 * ax)
  const poly =
    t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))))
  return sign * (1 - poly * Math.exp(-ax * ax))
}

/**
 * Score in [0, 1]. Clamped per band as Lighthouse does, so the rounding of erf can never move a value
 * across a band line: value ≤ p10 → [0.9, 1]; p10 < value ≤ median → [0.5, 0.9); above → [0, 0.5).
 * A value ≤ 0 scores 1.
 */
export function logNormalScore(value: number, curve: LogNormalCurve): number {
  const { p10, median } = curve
  if (!(p10 > 0 && median > p10))
    throw new RangeError(`log-normal curve needs 0 < p10 < median (got ${p10}, ${median})`)
  if (Number.isNaN(value)) throw new RangeError('log-normal score of NaN')
  if (value <= 0) return 1

  const sigmaRoot2 = (Math.abs(Math.log(p10 / median)) / (Math.SQRT2 * ERFC_INV_ONE_FIFTH)) * Math.SQRT2
  const raw = (1 - erf(Math.log(value / median) / sigmaRoot2)) / 2

  if (value <= p10) return clamp(raw, 0.9, 1)
  if (value <= median) return clamp(raw, 0.5, 0.8999999999)
  return clamp(raw, 0, 0.4999999999)
}

/**
 * The score as a whole percentage, kept inside the band the value falls in (≥ 90 up to p10, 50-89 up
 * to the median, < 50 above it), so a percentage and a status derived from it never disagree.
 */
export function logNormalPercent(value: number, curve: LogNormalCurve): number {
  const pct = Math.round(logNormalScore(value, curve) * 100)
  if (value <= curve.p10) return clamp(pct, 90, 100)
  if (value <= curve.median) return clamp(pct, 50, 89)
  return clamp(pct, 0, 49)
}

const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x))
