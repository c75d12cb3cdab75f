import { describe, expect, it } from 'vitest'
import { fmtBytes, fmtDuration } from '../../../src/checks/signals/format.js'

describe('fmtDuration', () => {
  it.each([
    [0, '0 ms'],
    [4.4, '4 ms'],
    [99, '99 ms'],
    [150, '0.15 s'],
    [800, '0.8 s'],
    [2400, '2.4 s'],
    [12_400, '12 s'],
    [-5, '0 ms'],
  ])('%d ms reads "%s" (a fast local answer is never "0 s")', (ms, text) => {
    expect(fmtDuration(ms)).toBe(text)
  })
})

describe('fmtBytes', () => {
  it.each([
    [950, '950 B'],
    [1500, '1.5 KB'],
    [48_000, '48 KB'],
    [3_200_000, '3.2 MB'],
  ])('%d bytes reads "%s"', (bytes, text) => {
    expect(fmtBytes(bytes)).toBe(text)
  })
})
