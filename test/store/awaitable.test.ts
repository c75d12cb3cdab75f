import { describe, expect, it } from 'vitest'
import { andThen, isPromise } from '../../src/store/awaitable.js'

describe('awaitable store answers', () => {
  it('applies the continuation at once to a plain value', () => {
    const out = andThen(2, (n) => n + 1)
    expect(isPromise(out)).toBe(false)
    expect(out).toBe(3)
  })

  it('applies it when a promise resolves, and passes rejections on', async () => {
    const out = andThen(Promise.resolve(2), (n) => n + 1)
    expect(isPromise(out)).toBe(true)
    expect(await out).toBe(3)
    await expect(andThen(Promise.reject(new Error('down')), (n: number) => n)).rejects.toThrow('down')
  })

  it('a throwing continuation throws at once on a value, rejects on a promise', async () => {
    const boom = () => {
      throw new Error('refused')
    }
    expect(() => andThen(1, boom)).toThrow('refused')
    await expect(andThen(Promise.resolve(1), boom)).rejects.toThrow('refused')
  })

  it('treats undefined and null as plain values', () => {
    expect(isPromise(undefined)).toBe(false)
    expect(isPromise(null)).toBe(false)
    expect(andThen(undefined, (v) => v ?? 'none')).toBe('none')
  })
})
