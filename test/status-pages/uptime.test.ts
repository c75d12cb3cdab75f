import { describe, expect, it } from 'vitest'
import { dayOf, daysBetween } from '../../src/status-pages/uptime.js'

describe('dayOf and daysBetween', () => {
  it('name the UTC day of any instant, as toISOString does', () => {
    let seed = 7
    for (let i = 0; i < 5000; i++) {
      seed = (seed * 48271) % 2147483647
      const ms = Date.UTC(1990, 0, 1) + (seed % 40) * 365 * 86_400_000 + (seed % 86_400_000)
      expect(dayOf(ms)).toBe(new Date(ms).toISOString().slice(0, 10))
    }
    expect(dayOf(Date.UTC(2028, 1, 29, 23, 59, 59, 999))).toBe('2028-02-29')
    expect(dayOf(Date.UTC(2028, 2, 1))).toBe('2028-03-01')
  })

  it('list every day of a range once, across a leap day and a year end', () => {
    expect(daysBetween('2027-12-30', '2028-01-02')).toEqual([
      '2027-12-30',
      '2027-12-31',
      '2028-01-01',
      '2028-01-02',
    ])
    expect(daysBetween('2028-02-28', '2028-03-01')).toEqual(['2028-02-28', '2028-02-29', '2028-03-01'])
    expect(daysBetween('2026-11-25', '2026-11-24')).toEqual([])
  })
})
