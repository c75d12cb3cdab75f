import { describe, expect, it } from 'vitest'
import { fillRandom, randomHex } from '../../src/shared/random-pool.js'
import { uuidv7, uuidv7Time } from '../../src/shared/uuid7.js'

describe('uuidv7', () => {
  it('is a version 7, variant 10 UUID whose time reads back', () => {
    for (const ms of [0, 1, 1_764_150_000_123, 0xffff_ffff_ffff]) {
      const id = uuidv7(ms)
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
      expect(uuidv7Time(id)).toBe(ms)
      expect(id.slice(0, 13).replace('-', '')).toBe(ms.toString(16).padStart(12, '0'))
    }
  })

  it('refuses a time outside 48 bits', () => {
    expect(() => uuidv7(-1)).toThrow(RangeError)
    expect(() => uuidv7(2 ** 48)).toThrow(RangeError)
    expect(() => uuidv7(1.5)).toThrow(RangeError)
  })

  it('gives distinct ids within one millisecond, across pool refills', () => {
    const ids = new Set(Array.from({ length: 2000 }, () => uuidv7(1_764_150_000_000)))
    expect(ids.size).toBe(2000)
  })
})

describe('random pool', () => {
  it('hands out fresh bytes every call (4 KiB refills included)', () => {
    const seen = new Set<string>()
    for (let i = 0; i < 1000; i++) seen.add(randomHex(6))
    expect(seen.size).toBe(1000)
    expect(randomHex(6)).toMatch(/^[0-9a-f]{12}$/)
  })

  it('fills buffers larger than the pool straight from the CSPRNG', () => {
    const a = fillRandom(Buffer.alloc(10_000))
    const b = fillRandom(Buffer.alloc(10_000))
    expect(a.equals(b)).toBe(false)
    // all zero would mean nothing was filled
    expect(a.some((x) => x !== 0)).toBe(true)
  })
})
