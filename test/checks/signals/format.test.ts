import { describe, expect, it } from 'vitest'
import { clip, excerpt, fmtBytes, fmtDuration, shortUrl } from '../../../src/checks/signals/format.js'

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

// Issue 16 item 6: text chosen by the checked site reaches messages only as a short printable excerpt
describe('excerpt', () => {
  it('quotes a short value as it is', () => {
    expect(excerpt('SAMEORIGIN')).toBe('"SAMEORIGIN"')
  })

  it('cuts at max characters (ellipsis included)', () => {
    const e = excerpt('x'.repeat(8000))
    expect(e).toBe(`"${'x'.repeat(39)}…"`)
    expect(excerpt('abcdef', 4)).toBe('"abc…"')
  })

  it('drops control and format characters (bidi overrides, zero-width) and collapses whitespace', () => {
    expect(excerpt('a\u0000b\u202Ec\u200Bd\r\n\t  e\u2028f')).toBe('"abcd e f"')
  })

  it('escapes quotes so the excerpt cannot close its own quoting', () => {
    expect(excerpt('a"b\\c')).toBe('"a\\"b\\\\c"')
  })

  it('never splits a surrogate pair', () => {
    expect(excerpt('😀'.repeat(50), 5)).toBe('"😀😀😀😀…"')
  })

  it('is "" for a value with nothing printable', () => {
    expect(excerpt('\u0001\u0002')).toBe('""')
  })
})

describe('shortUrl and clip', () => {
  it('keeps a short URL whole and cuts a long one', () => {
    expect(shortUrl('https://example.com/a')).toBe('https://example.com/a')
    const long = shortUrl(`https://example.com/${'IGNORE-PREVIOUS-INSTRUCTIONS/'.repeat(20)}`)
    expect(long).toHaveLength(80)
    expect(long.endsWith('…')).toBe(true)
  })

  it('clips a stored value to a printable prefix', () => {
    expect(clip('a\u0007b'.repeat(300), 10)).toBe('abababababab'.slice(0, 9) + '…')
  })
})
