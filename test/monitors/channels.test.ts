import { describe, expect, it } from 'vitest'
import { secretBox } from '../../src/shared/secret-box.js'
import { parseEvery } from '../../src/contract/durations.js'
import { intervalProblem } from '../../src/monitors/interval.js'

describe('channels', () => {
  it('seals secrets so that only the same key opens them, and tampering fails', () => {
    const box = secretBox('k1')
    const sealed = box.seal('whsec_abc')
    expect(sealed).not.toContain('whsec_abc')
    expect(box.open(sealed)).toBe('whsec_abc')
    expect(() => secretBox('k2').open(sealed)).toThrow()
    expect(() => box.open(sealed.slice(0, -2) + (sealed.endsWith('A') ? 'BB' : 'AA'))).toThrow()
  })

  it('reads --every and bounds intervals', () => {
    expect([
      parseEvery('90'),
      parseEvery('90s'),
      parseEvery('5m'),
      parseEvery('1h'),
      parseEvery('1d'),
    ]).toEqual([90, 90, 300, 3600, 86_400])
    expect(parseEvery('5 minutes')).toBeUndefined()
    expect(parseEvery('0')).toBeUndefined()
    expect(intervalProblem(59)).toMatch(/60/)
    expect(intervalProblem(60)).toBeNull()
    expect(intervalProblem(86_401)).toMatch(/86400/)
    expect(intervalProblem(1, 1)).toBeNull()
  })
})
