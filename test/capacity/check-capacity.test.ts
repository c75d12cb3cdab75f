import { describe, expect, it } from 'vitest'
import { CapacityExceededError, CheckCapacity } from '../../src/capacity/index.js'

const tick = () => new Promise((r) => setImmediate(r))

describe('CheckCapacity', () => {
  it('never lets more checks run than the server cap, whoever asks', async () => {
    const cap = new CheckCapacity({ maxConcurrent: 3, maxPerUser: 3, maxWaiting: 100 })
    let running = 0
    let peak = 0
    const work = Array.from({ length: 20 }, (_, i) =>
      cap.run(
        `user-${i % 7}`,
        async () => {
          running++
          peak = Math.max(peak, running)
          await new Promise((r) => setTimeout(r, 2))
          running--
        },
        { waitMs: Infinity },
      ),
    )
    await Promise.all(work)
    expect(peak).toBe(3)
    expect(cap.stats()).toMatchObject({ inFlight: 0, waiting: 0 })
  })

  it('caps one user while letting another user pass the queue', async () => {
    const cap = new CheckCapacity({ maxConcurrent: 4, maxPerUser: 2 })
    const a1 = cap.tryAcquire('a')!
    const a2 = cap.tryAcquire('a')!
    expect(cap.tryAcquire('a')).toBeNull()
    const waitingA = cap.acquire('a', { waitMs: Infinity })
    // b is not held up behind a's waiter: the server still has room
    const b = await cap.acquire('b', { waitMs: 10 })
    expect(cap.inFlight('a')).toBe(2)
    expect(cap.inFlight('b')).toBe(1)
    a1.release()
    const a3 = await waitingA
    expect(cap.inFlight('a')).toBe(2)
    for (const s of [a2, a3, b]) s.release()
    expect(cap.inFlight()).toBe(0)
  })

  it('refuses after the wait with the cap that was full, and a zero wait refuses at once', async () => {
    const cap = new CheckCapacity({ maxConcurrent: 1, maxPerUser: 1 })
    const held = cap.tryAcquire('a')!
    await expect(cap.acquire('b')).rejects.toMatchObject({ name: 'CapacityExceededError', limit: 'server' })
    const t0 = performance.now()
    const err = await cap.acquire('a', { waitMs: 30 }).catch((e: unknown) => e)
    expect(performance.now() - t0).toBeGreaterThanOrEqual(25)
    expect(err).toBeInstanceOf(CapacityExceededError)
    expect((err as CapacityExceededError).limit).toBe('user')
    held.release()
    expect(cap.stats().waiting).toBe(0)
  })

  it('hands a released slot to the oldest waiter first', async () => {
    const cap = new CheckCapacity({ maxConcurrent: 1, maxPerUser: 1 })
    const held = cap.tryAcquire('x')!
    const order: string[] = []
    const waits = ['a', 'b', 'c'].map((u) =>
      cap.acquire(u, { waitMs: Infinity }).then((s) => {
        order.push(u)
        s.release()
      }),
    )
    await tick()
    held.release()
    await Promise.all(waits)
    expect(order).toEqual(['a', 'b', 'c'])
  })

  it('stops waiting on abort and bounds the queue', async () => {
    const cap = new CheckCapacity({ maxConcurrent: 1, maxPerUser: 1, maxWaiting: 2 })
    const held = cap.tryAcquire('x')!
    const ac = new AbortController()
    const w1 = cap.acquire('a', { waitMs: Infinity, signal: ac.signal })
    const w2 = cap.acquire('b', { waitMs: Infinity })
    // the queue is full: refused at once, not queued
    await expect(cap.acquire('c', { waitMs: 10_000 })).rejects.toBeInstanceOf(CapacityExceededError)
    ac.abort(new Error('client gone'))
    await expect(w1).rejects.toThrow('client gone')
    held.release()
    const s = await w2
    expect(s.userId).toBe('b')
    s.release()
    s.release() // idempotent
    expect(cap.stats()).toMatchObject({ inFlight: 0, waiting: 0 })
  })

  it('refuses caps below 1', () => {
    expect(() => new CheckCapacity({ maxConcurrent: 0, maxPerUser: 1 })).toThrow(RangeError)
  })
})
