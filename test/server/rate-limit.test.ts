import { describe, expect, it } from 'vitest'
import { RateLimiter } from '../../src/server/rate-limit.js'

describe('sliding-window rate limiter', () => {
  const policy = { name: 'run', limit: 3, windowMs: 60_000 }

  it('allows the limit, then refuses with Retry-After until the oldest request leaves the window', () => {
    let now = 1_000_000
    const rl = new RateLimiter(() => now)
    expect(rl.hit('k', policy).headers.ratelimit).toBe('"run";r=2;t=60')
    now += 10_000
    rl.hit('k', policy)
    now += 10_000
    const third = rl.hit('k', policy)
    expect(third.allowed).toBe(true)
    expect(third.remaining).toBe(0)
    const refused = rl.hit('k', policy)
    expect(refused.allowed).toBe(false)
    expect(refused.headers['retry-after']).toBe('40')
    expect(refused.headers['ratelimit-policy']).toBe('"run";q=3;w=60')
    now += 40_000 // the first request leaves the window
    expect(rl.hit('k', policy).allowed).toBe(true)
    expect(rl.hit('k', policy).allowed).toBe(false)
  })

  it('counts keys separately and refused requests do not extend the window', () => {
    let now = 0
    const rl = new RateLimiter(() => now)
    for (let i = 0; i < 3; i++) rl.hit('a', policy)
    for (let i = 0; i < 10; i++) expect(rl.hit('a', policy).allowed).toBe(false)
    expect(rl.hit('b', policy).allowed).toBe(true)
    now = 60_000
    expect(rl.hit('a', policy).allowed).toBe(true)
  })

  it('sweeps idle windows', () => {
    let now = 0
    const rl = new RateLimiter(() => now)
    rl.hit('a', policy)
    now = 120_000
    rl.sweep(60_000)
    expect(rl.hit('a', policy).remaining).toBe(2)
  })
})
