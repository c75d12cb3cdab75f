/** A request's own time limit that can be cleared (src/shared/deadline.ts). */
import { setTimeout as sleep } from 'node:timers/promises'
import { describe, expect, it } from 'vitest'
import { deadline } from '../../src/shared/index.js'

describe('deadline', () => {
  it('aborts with a TimeoutError once its time is up, and says it timed out', async () => {
    const d = deadline([], 20, 'too slow')
    await sleep(60)
    expect(d.signal.aborted).toBe(true)
    expect((d.signal.reason as DOMException).name).toBe('TimeoutError')
    expect((d.signal.reason as DOMException).message).toBe('too slow')
    expect(d.timedOut()).toBe(true)
  })

  it('aborts with a parent, which is not a time-out', () => {
    const parent = new AbortController()
    const d = deadline([parent.signal], 10_000, 'too slow')
    parent.abort(new Error('the check is over'))
    expect(d.signal.aborted).toBe(true)
    expect(d.timedOut()).toBe(false)
    d.clear()
  })

  it('never fires once cleared', async () => {
    const d = deadline([], 20, 'too slow')
    d.clear()
    await sleep(60)
    expect(d.signal.aborted).toBe(false)
  })
})
