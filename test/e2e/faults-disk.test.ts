/**
 * A real `serve` on the embedded store whose disk fills up (docs/operations.md): its data dir is
 * on a small tmpfs (test/helpers/small-disk.ts) that the test fills to the last byte and frees,
 * so every write meets a real ENOSPC. Writes answer 503 `service_unavailable` and charge
 * nothing, reads keep working, nothing is acknowledged that is not on disk, a monitor whose
 * result cannot be saved checks its site at most once per interval (not in a loop), everything
 * works again once space is back without a restart, and the store then restarts cleanly.
 * FAULTS_VERBOSE=1 prints what a client saw and the recovery time.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import { afterEach, describe, expect, it } from 'vitest'
import { startServe, type Served } from '../helpers/serve.js'
import {
  client,
  countingSite,
  during,
  measure,
  summary,
  timed,
  until,
  type Timed,
} from '../helpers/fault-kit.js'
import { mountSmallDisk, smallDiskProblem } from '../helpers/small-disk.js'

const teardown: Array<() => Promise<unknown>> = []
afterEach(async () => {
  for (const t of teardown.splice(0).reverse()) await t().catch(() => {})
})

function expect503(r: Timed, where: string) {
  const what = `${where}: ${r.status} in ${Math.round(r.ms)} ms ${r.error ?? JSON.stringify(r.json).slice(0, 200)}`
  expect(r.status, what).toBe(503)
  expect(r.json?.error?.code, what).toBe('service_unavailable')
  expect(r.headers.get('retry-after'), what).toBe('5')
  expect(r.ms, what).toBeLessThan(3000)
}

const describeDisk = smallDiskProblem ? describe.skip : describe
if (smallDiskProblem) console.warn(`[skip] full-disk faults: ${smallDiskProblem}`)

describeDisk('serve on the embedded store when its disk is full', () => {
  it('answers 503 and charges nothing, checks a site once per interval at most, recovers without a restart, restarts cleanly', async () => {
    const disk = await mountSmallDisk(16)
    teardown.push(() => disk.close())
    const site = await countingSite()
    teardown.push(() => site.close())
    const dataDir = `${disk.dir}/data`
    const args = [
      '--min-interval',
      '1',
      '--catch-up-window',
      '1',
      '--rate-limit',
      '100000',
      '--run-limit',
      '100000',
    ]
    let served: Served = await startServe({ dataDir, args })
    teardown.push(() => served.stop())
    const { key } = await served.createKey({ user: 'disk', credits: 1000 })
    let call = client(served.url, key)

    const acked: string[] = []
    const every = await call('POST', '/monitors', { url: site.url('/every-second'), interval_seconds: 1 })
    expect(every.status, JSON.stringify(every.json)).toBe(201)
    const hourly = await call('POST', '/monitors', { url: site.url('/hourly'), interval_seconds: 3600 })
    expect(hourly.status).toBe(201)
    acked.push(every.json.id, hourly.json.id)
    await until(() => site.hits('/every-second').length >= 2, 10_000, 'the 1 s monitor to run')
    const run = await call('POST', '/checks/run', { url: site.url('/api') })
    expect(run.status).toBe(200)
    const checks = [run.json.data.id as string]

    const filled = await disk.fill()
    expect(filled).toBeGreaterThan(0)
    const fullAt = Date.now()
    const credits = (await call('GET', '/credits')).json.credits_remaining as number
    const hitsBefore = site.hits('/every-second').length
    const apiHitsBefore = site.hits('/api').length

    // writes: 503, nothing charged; reads: 200
    const writes: Timed[] = []
    const reads: Timed[] = []
    const created = await during(5000, async () => {
      const r = await call('POST', '/checks/run', { url: site.url('/api') })
      writes.push(r)
      reads.push(await call('GET', '/monitors'))
      return call('POST', '/monitors', { url: site.url('/new'), interval_seconds: 3600 })
    })
    const ready = await timed(`${served.url}/api/public/v1/ready`)
    const health = await timed(`${served.url}/api/public/v1/health`)
    const fullMs = Date.now() - fullAt
    for (const r of writes) expect503(r, 'a run on a full disk')
    for (const r of created) {
      if (r.status === 201)
        acked.push(r.json.id) // it fit after all: it must then be on disk
      else expect503(r, 'a monitor created on a full disk')
    }
    for (const r of reads) expect(r.status).toBe(200)
    expect((await call('GET', '/credits')).json.credits_remaining).toBe(credits)
    expect(ready.status).toBe(503)
    expect(ready.json.dependencies[0]).toMatchObject({
      name: 'disk',
      status: 'down',
      reason: 'cannot write (full, read-only or failing)',
    })
    expect(health.status).toBe(200)
    // the 1 s monitor whose results cannot be saved: once per interval at most, never a loop
    const fullHits = site.hits('/every-second').length - hitsBefore
    expect(fullHits, `${fullHits} checks in ${fullMs} ms`).toBeLessThanOrEqual(Math.ceil(fullMs / 1000) + 2)
    // API runs that could not be saved: each one is one check of the site at most (no retry loop)
    expect(site.hits('/api').length - apiHitsBefore).toBeLessThanOrEqual(writes.length)

    await disk.free()
    const freedAt = Date.now()
    const back = await until(
      async () => {
        const r = await call('POST', '/checks/run', { url: site.url('/api') })
        if (r.status === 200) checks.push(r.json.data.id)
        return r.status === 200
      },
      10_000,
      'a run to be saved again',
      200,
    )
    const again = await call('POST', '/monitors', { url: site.url('/after'), interval_seconds: 3600 })
    expect(again.status).toBe(201)
    acked.push(again.json.id)
    const readyBack = await until(
      async () => (await timed(`${served.url}/api/public/v1/ready`)).status === 200,
      5000,
      'ready again',
    )
    const monitorBack = await until(
      () => site.hits('/every-second').some((t) => t > freedAt),
      5000,
      'the 1 s monitor to run',
    )

    // a clean restart: every acknowledged monitor and check is there, credits unchanged by it
    // every monitor paused first: a monitor acknowledged while the disk was full still owes its
    // first run, and would rightly take it (and its credit) at the restart's catch-up
    for (const id of acked)
      expect((await call('PATCH', `/monitors/${id}`, { paused: true })).status).toBe(200)
    // and no run still in flight: the balance holds still before it is compared
    let creditsBefore = (await call('GET', '/credits')).json.credits_remaining as number
    for (let i = 0; i < 20; i++) {
      await sleep(300)
      const now = (await call('GET', '/credits')).json.credits_remaining as number
      if (now === creditsBefore) break
      creditsBefore = now
    }
    await served.stop({ keepData: true })
    expect(served.proc.exitCode).toBe(0)
    served = await startServe({ dataDir, args })
    call = client(served.url, key)
    expect(served.output()).not.toMatch(/Corrupt|torn/i)
    const listed = await call('GET', '/monitors')
    expect(listed.status).toBe(200)
    expect((listed.json.monitors as { id: string }[]).map((m) => m.id).sort()).toEqual([...acked].sort())
    for (const id of checks) expect((await call('GET', `/checks/${id}`)).status).toBe(200)
    expect((await call('GET', '/credits')).json.credits_remaining).toBe(creditsBefore)

    measure('disk-full', {
      full_ms: fullMs,
      runs: summary(writes),
      monitor_creates: summary(created),
      reads: summary(reads),
      ready_while_full_ms: Math.round(ready.ms),
      checks_by_1s_monitor_while_full: fullHits,
      run_saved_again_after_ms: Math.round(back.ms),
      ready_again_after_ms: Math.round(readyBack.ms),
      monitor_ran_again_after_ms: Math.round(monitorBack.ms),
    })
  }, 90_000)
})
