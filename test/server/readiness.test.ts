/**
 * Readiness (docs/operations.md#readiness): bounded probes, one probe in flight per dependency,
 * a report reused for a second, 503 with the envelope when the store is down, and nothing from
 * the driver's message in the answer.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import { H3 } from 'h3'
import { describe, expect, it } from 'vitest'
import { PATHS, Readiness } from '../../src/contract/index.js'
import { ReadinessCheck, readinessRoutes, type ReadinessProbe } from '../../src/server/readiness.js'

/** A probe the test controls: answers, fails with `error`, or never answers. */
function probe(name: ReadinessProbe['name'], required: boolean) {
  const state: { mode: 'up' | 'fail' | 'stall'; error: Error; started: number } = {
    mode: 'up',
    error: new Error('x'),
    started: 0,
  }
  const p: ReadinessProbe = {
    name,
    required,
    probe: () => {
      state.started++
      if (state.mode === 'up') return Promise.resolve()
      if (state.mode === 'fail') return Promise.reject(state.error)
      return new Promise<void>(() => {})
    },
  }
  return { p, state }
}

async function get(check: ReadinessCheck) {
  const app = new H3()
  const route = readinessRoutes(check)[PATHS.ready]
  app.get(PATHS.ready, (event) => route.GET(event))
  const res = await app.fetch(new Request(`http://x${PATHS.ready}`))
  return { status: res.status, headers: res.headers, json: (await res.json()) as Readiness }
}

describe('readiness', () => {
  it('is ready (200) when every dependency answers, and the report fits the contract', async () => {
    const db = probe('database', true)
    const redis = probe('redis', false)
    const r = await get(new ReadinessCheck([db.p, redis.p], { failedTicks: () => 0 }))
    expect(r.status).toBe(200)
    expect(Readiness.parse(r.json)).toEqual(r.json)
    expect(r.json).toMatchObject({
      ok: true,
      status: 'ready',
      scheduler: { status: 'running', failed_ticks: 0 },
    })
    expect(r.json.dependencies.map((d) => [d.name, d.status])).toEqual([
      ['database', 'up'],
      ['redis', 'up'],
    ])
  })

  it('answers within the probe timeout when the database is stalled: 503, envelope, Retry-After', async () => {
    const db = probe('database', true)
    db.state.mode = 'stall'
    const lines: string[] = []
    const check = new ReadinessCheck([db.p], { timeoutMs: 150, cacheMs: 0, log: (l) => lines.push(l) })
    const t0 = performance.now()
    const r = await get(check)
    expect(performance.now() - t0).toBeLessThan(1000)
    expect(r.status).toBe(503)
    expect(r.headers.get('retry-after')).toBe('5')
    expect(Readiness.parse(r.json)).toEqual(r.json)
    expect(r.json.ok).toBe(false)
    expect(r.json.status).toBe('unavailable')
    expect(r.json.error?.code).toBe('service_unavailable')
    expect(r.json.dependencies[0]).toMatchObject({ status: 'down', reason: 'no answer within 150 ms' })
    // polled again while the first probe still waits: joined, never a second probe
    await get(check)
    await get(check)
    expect(db.state.started).toBe(1)
    expect(lines).toEqual(['readiness: database down (no answer within 150 ms)'])
  })

  it('is degraded (200) when only Redis is down: requests are still served', async () => {
    const db = probe('database', true)
    const redis = probe('redis', false)
    redis.state.mode = 'fail'
    redis.state.error = Object.assign(new Error('Command timed out'), {})
    const r = await get(new ReadinessCheck([db.p, redis.p]))
    expect(r.status).toBe(200)
    expect(r.json).toMatchObject({ ok: true, status: 'degraded' })
    expect(r.json.dependencies[1]).toMatchObject({ name: 'redis', status: 'down', required: false })
  })

  it('never shows the driver message (hosts, users), only a fixed phrase; the log has it once per change', async () => {
    const db = probe('database', true)
    db.state.mode = 'fail'
    db.state.error = Object.assign(new Error('connect ECONNREFUSED 10.1.2.3:5432 user=secretuser'), {
      code: 'ECONNREFUSED',
    })
    const lines: string[] = []
    const check = new ReadinessCheck([db.p], { cacheMs: 0, log: (l) => lines.push(l) })
    const r = await get(check)
    expect(r.status).toBe(503)
    const text = JSON.stringify(r.json)
    expect(text).not.toContain('10.1.2.3')
    expect(text).not.toContain('secretuser')
    expect(r.json.dependencies[0].reason).toBe('refused, dropped or not answering')
    await get(check)
    db.state.mode = 'up'
    expect((await get(check)).status).toBe(200)
    expect(lines).toEqual([
      'readiness: database down (connect ECONNREFUSED 10.1.2.3:5432 user=secretuser)',
      'readiness: database answers again',
    ])
  })

  it('reuses one report for the cache time: a flood of polls probes once', async () => {
    const disk = probe('disk', true)
    const check = new ReadinessCheck([disk.p], { cacheMs: 300 })
    await Promise.all(Array.from({ length: 50 }, () => get(check)))
    expect(disk.state.started).toBe(1)
    await sleep(350)
    disk.state.mode = 'fail'
    disk.state.error = Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' })
    const r = await get(check)
    expect(disk.state.started).toBe(2)
    expect(r.json.dependencies[0]).toMatchObject({
      name: 'disk',
      status: 'down',
      reason: 'cannot write (full, read-only or failing)',
    })
  })

  it('says the scheduler is retrying while ticks fail', async () => {
    const r = await get(new ReadinessCheck([probe('database', true).p], { failedTicks: () => 3 }))
    expect(r.json.scheduler).toEqual({ status: 'retrying', failed_ticks: 3 })
  })
})
